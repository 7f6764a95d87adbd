import type { ClientOptions } from '../api/client';

/** The client options the `http.*` settings decide (proxy, its authorization, TLS verification, extra CAs). */
export type ProxyClientOptions = Partial<ClientOptions>;

/** VS Code's `http` settings section, as far as it is read here. */
export interface HttpSettings {
  get<T>(key: string): T | undefined;
}

/** The `http.*` settings that shape the client: a change needs a new client. */
export const PROXY_SETTINGS = [
  'http.proxy',
  'http.noProxy',
  'http.proxyStrictSSL',
  'http.proxyAuthorization',
  'http.systemCertificates',
] as const;

/**
 * Client options from VS Code's proxy settings: `http.proxy` and its exceptions `http.noProxy` when set
 * (otherwise the client reads HTTPS_PROXY / HTTP_PROXY / NO_PROXY), `http.proxyAuthorization` (the whole
 * Proxy-Authorization value; never logged), `http.proxyStrictSSL` (false: certificates of the proxy and the
 * platform are not verified) and `http.systemCertificates` (the operating system's certificates, from
 * `systemCertificates()`, trusted beside Node's). Unset settings leave the client's defaults.
 */
export function proxyOptions(http: HttpSettings, systemCertificates: () => readonly string[]): ProxyClientOptions {
  const proxy = http.get<unknown>('proxy');
  const noProxy = http.get<unknown>('noProxy');
  const exceptions = Array.isArray(noProxy)
    ? noProxy.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '')
    : [];
  const authorization = http.get<unknown>('proxyAuthorization');
  const strict = http.get<unknown>('proxyStrictSSL') !== false;
  const ca = http.get<unknown>('systemCertificates') !== false ? [...systemCertificates()] : [];
  return {
    ...(typeof proxy === 'string' && proxy.trim() ? { proxy: proxy.trim() } : {}),
    ...(exceptions.length > 0 ? { noProxy: exceptions } : {}),
    ...(typeof authorization === 'string' && authorization.trim() ? { proxyAuthorization: authorization.trim() } : {}),
    ...(strict ? {} : { rejectUnauthorized: false }),
    ...(ca.length > 0 ? { ca } : {}),
  };
}
