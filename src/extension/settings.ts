import * as vscode from 'vscode';
import type { ClientOptions } from '../api/client';

/** `videoPlatform.*` settings (package.json contributes.configuration), read on each use. */
export const settings = {
  pageSize(): number {
    const value = vscode.workspace.getConfiguration('videoPlatform').get<number>('pageSize', 50);
    return Number.isInteger(value) && value > 0 ? Math.min(value, 500) : 50;
  },
  pollIntervalMs(): number {
    const seconds = vscode.workspace.getConfiguration('videoPlatform').get<number>('pollIntervalSeconds', 3);
    return Math.max(1, Number.isFinite(seconds) ? seconds : 3) * 1000;
  },
  /**
   * Timeouts from the setting; the proxy from VS Code's own `http.proxy` and its exceptions from
   * `http.noProxy` when set (otherwise the client reads HTTPS_PROXY / HTTP_PROXY / NO_PROXY).
   */
  clientOptions(): Pick<ClientOptions, 'timeouts' | 'proxy' | 'noProxy'> {
    const seconds = vscode.workspace.getConfiguration('videoPlatform').get<number>('requestTimeoutSeconds', 30);
    const ms = Math.max(1, Number.isFinite(seconds) ? seconds : 30) * 1000;
    const http = vscode.workspace.getConfiguration('http');
    const proxy = http.get<string>('proxy') || undefined;
    const noProxy = http.get<unknown>('noProxy');
    const exceptions = Array.isArray(noProxy)
      ? noProxy.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '')
      : [];
    return {
      timeouts: { connectMs: Math.min(ms, 10_000), headersMs: ms, bodyMs: ms },
      ...(proxy ? { proxy } : {}),
      ...(exceptions.length > 0 ? { noProxy: exceptions } : {}),
    };
  },
};
