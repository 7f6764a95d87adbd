import * as tls from 'node:tls';
import * as vscode from 'vscode';
import type { RemoteCallbacks, SettingsPort } from '../app/ports';
import { PROXY_SETTINGS, proxyOptions, type ProxyClientOptions } from '../app/proxySettings';

/** Settings whose change needs a new client (the connection restarts). */
export const CONNECTION_SETTINGS = ['videoPlatform.requestTimeoutSeconds', ...PROXY_SETTINGS] as const;

/** Settings whose change reloads the views. */
export const VIEW_SETTINGS = ['videoPlatform.pageSize'] as const;

/** The operating system's certificates, where the running Node can read them (Node 22.15 and later); else none. */
function systemCertificates(): string[] {
  const read = (tls as { getCACertificates?: (type: 'system') => string[] }).getCACertificates;
  try {
    return read?.('system') ?? [];
  } catch {
    return [];
  }
}

/** `videoPlatform.*` settings (package.json contributes.configuration) and VS Code's proxy ones, read on each use. */
export const settings: SettingsPort = {
  pageSize(): number {
    const value = vscode.workspace.getConfiguration('videoPlatform').get<number>('pageSize', 50);
    return Number.isInteger(value) && value > 0 ? Math.min(value, 500) : 50;
  },
  pollIntervalMs(): number {
    const seconds = vscode.workspace.getConfiguration('videoPlatform').get<number>('pollIntervalSeconds', 3);
    return Math.max(1, Number.isFinite(seconds) ? seconds : 3) * 1000;
  },
  liveRefreshMs(): number {
    const seconds = vscode.workspace.getConfiguration('videoPlatform').get<number>('liveRefreshSeconds', 5);
    if (!Number.isFinite(seconds)) return 5000;
    return seconds <= 0 ? 0 : Math.max(1, seconds) * 1000;
  },
  ffmpegPath(): string | undefined {
    const value = vscode.workspace.getConfiguration('videoPlatform').get<string>('ffmpegPath', '');
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  },
  async updateFfmpegPath(dir: string): Promise<void> {
    await vscode.workspace
      .getConfiguration('videoPlatform')
      .update('ffmpegPath', dir === '' ? undefined : dir, vscode.ConfigurationTarget.Global);
  },
  callbackUrls(): string[] {
    const value = vscode.workspace.getConfiguration('videoPlatform').get<unknown>('localPlatform.callbackUrls', []);
    return Array.isArray(value) ? value.filter((url): url is string => typeof url === 'string' && url !== '') : [];
  },
  async updateCallbackUrls(urls: string[]): Promise<void> {
    await vscode.workspace
      .getConfiguration('videoPlatform')
      .update('localPlatform.callbackUrls', urls.length === 0 ? undefined : urls, vscode.ConfigurationTarget.Global);
  },
  remoteCallbacks(): RemoteCallbacks {
    const value = vscode.workspace.getConfiguration('videoPlatform').get<string>('localPlatform.remoteCallbacks');
    return value === 'public' || value === 'private' ? value : 'loopback';
  },
  clientOptions(): ProxyClientOptions {
    const seconds = vscode.workspace.getConfiguration('videoPlatform').get<number>('requestTimeoutSeconds', 30);
    const ms = Math.max(1, Number.isFinite(seconds) ? seconds : 30) * 1000;
    return {
      timeouts: { connectMs: Math.min(ms, 10_000), headersMs: ms, bodyMs: ms },
      ...proxyOptions(vscode.workspace.getConfiguration('http'), systemCertificates),
    };
  },
};
