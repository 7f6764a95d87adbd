import * as tls from 'node:tls';
import * as vscode from 'vscode';
import type { ClientOptions } from '../api/client';
import type { SettingsPort } from '../app/ports';

/**
 * Client options src/api adds beside ClientOptions (the Proxy-Authorization header value, strict TLS, extra
 * certificates); typed here until the client's own options name them.
 */
export type ProxyClientOptions = Partial<ClientOptions> & {
  proxyAuthorization?: string;
  rejectUnauthorized?: boolean;
  ca?: string[];
};

/** Settings whose change needs a new client (the connection restarts). */
export const CONNECTION_SETTINGS = [
  'videoPlatform.requestTimeoutSeconds',
  'http.proxy',
  'http.noProxy',
  'http.proxyStrictSSL',
  'http.proxyAuthorization',
  'http.systemCertificates',
] as const;

/** Settings whose change reloads the views. */
export const VIEW_SETTINGS = ['videoPlatform.pageSize'] as const;

/** The operating system's certificates, where the running Node can read them (Node 22.15 and later). */
function systemCertificates(): string[] {
  const read = (tls as { getCACertificates?: (type: 'system') => string[] }).getCACertificates;
  try {
    return read?.('system') ?? [];
  } catch {
    return [];
  }
}

/**
 * Client options from VS Code's own proxy settings: `http.proxy` and its exceptions `http.noProxy` when set
 * (otherwise the client reads HTTPS_PROXY / HTTP_PROXY / NO_PROXY), `http.proxyAuthorization` (the whole
 * Proxy-Authorization value; never logged), `http.proxyStrictSSL` (false: certificates are not verified) and
 * `http.systemCertificates` (the operating system's certificates trusted beside Node's).
 */
export function proxyOptions(http: Pick<vscode.WorkspaceConfiguration, 'get'>): ProxyClientOptions {
  const proxy = http.get<string>('proxy') || undefined;
  const noProxy = http.get<unknown>('noProxy');
  const exceptions = Array.isArray(noProxy)
    ? noProxy.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '')
    : [];
  const authorization = http.get<unknown>('proxyAuthorization');
  const strict = http.get<boolean>('proxyStrictSSL', true) !== false;
  const ca = http.get<boolean>('systemCertificates', true) !== false ? systemCertificates() : [];
  return {
    ...(proxy ? { proxy } : {}),
    ...(exceptions.length > 0 ? { noProxy: exceptions } : {}),
    ...(typeof authorization === 'string' && authorization.trim() ? { proxyAuthorization: authorization.trim() } : {}),
    ...(strict ? {} : { rejectUnauthorized: false }),
    ...(ca.length > 0 ? { ca } : {}),
  };
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
  clientOptions(): ProxyClientOptions {
    const seconds = vscode.workspace.getConfiguration('videoPlatform').get<number>('requestTimeoutSeconds', 30);
    const ms = Math.max(1, Number.isFinite(seconds) ? seconds : 30) * 1000;
    return {
      timeouts: { connectMs: Math.min(ms, 10_000), headersMs: ms, bodyMs: ms },
      ...proxyOptions(vscode.workspace.getConfiguration('http')),
    };
  },
};
