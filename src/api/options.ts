/**
 * Checking and normalising ClientOptions. A bad option is refused at construction with a message
 * naming the option and the rule (never echoing the keys).
 */
import { X509Certificate } from 'node:crypto';
import { DEFAULT_RETRY, type RetryPolicy } from './retry';
import type { TransportTimeouts } from './transport';

export const DEFAULT_TIMEOUTS: TransportTimeouts = { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000 };

export interface PlatformAddress {
  /** `http(s)://host[:port][/prefix]`, without a trailing `/rest` or slash. */
  baseUrl: string;
  origin: string;
  /** Path of the single endpoint, e.g. `/rest` or `/prefix/rest`. */
  restPath: string;
}

function invalid(option: string, rule: string): TypeError {
  return new TypeError(`PlatformClient option ${option} ${rule}`);
}

/** Accepts a base URL with or without a trailing `/rest`; refuses query, fragment and credentials. */
export function parseBaseUrl(raw: unknown, option: 'baseUrl' | 'uploadBaseUrl' = 'baseUrl'): PlatformAddress {
  if (typeof raw !== 'string' || raw.trim() === '')
    throw invalid(option, 'must be a non-empty URL such as http://127.0.0.1:8790');
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalid(option, 'must be a valid absolute URL such as http://127.0.0.1:8790');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalid(option, 'must start with http:// or https://');
  if (url.username !== '' || url.password !== '') throw invalid(option, 'must not contain a user name or password');
  if (url.search !== '' || url.hash !== '') throw invalid(option, 'must not contain a query string or fragment');
  let path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith('/rest')) path = path.slice(0, -'/rest'.length).replace(/\/+$/, '');
  return { baseUrl: `${url.origin}${path}`, origin: url.origin, restPath: `${path}/rest` };
}

export function requireKey(option: 'accessKey' | 'secretKey', value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(option, 'must be a non-empty string');
  return value;
}

function positiveMs(option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw invalid(option, 'must be a positive number of milliseconds');
  return value;
}

function nonNegativeMs(option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw invalid(option, 'must be zero or a positive number of milliseconds');
  return value;
}

export function normaliseTimeouts(
  timeouts: { connectMs?: number; headersMs?: number; bodyMs?: number } | undefined,
): TransportTimeouts {
  return {
    connectMs: positiveMs('timeouts.connectMs', timeouts?.connectMs, DEFAULT_TIMEOUTS.connectMs),
    headersMs: positiveMs('timeouts.headersMs', timeouts?.headersMs, DEFAULT_TIMEOUTS.headersMs),
    bodyMs: positiveMs('timeouts.bodyMs', timeouts?.bodyMs, DEFAULT_TIMEOUTS.bodyMs),
  };
}

export function normaliseRetry(
  retry: { attempts?: number; baseDelayMs?: number; maxDelayMs?: number } | undefined,
): RetryPolicy {
  const attempts = retry?.attempts ?? DEFAULT_RETRY.attempts;
  if (!Number.isInteger(attempts) || attempts < 1 || attempts > 10)
    throw invalid('retry.attempts', 'must be a whole number from 1 to 10 (1 means no retry)');
  const baseDelayMs = nonNegativeMs('retry.baseDelayMs', retry?.baseDelayMs, DEFAULT_RETRY.baseDelayMs);
  const maxDelayMs = nonNegativeMs(
    'retry.maxDelayMs',
    retry?.maxDelayMs,
    Math.max(DEFAULT_RETRY.maxDelayMs, baseDelayMs),
  );
  if (maxDelayMs < baseDelayMs) throw invalid('retry.maxDelayMs', 'must not be smaller than retry.baseDelayMs');
  return { attempts, baseDelayMs, maxDelayMs };
}

export function checkProxy(proxy: unknown): string | undefined {
  if (proxy === undefined || proxy === '') return undefined;
  if (typeof proxy !== 'string') throw invalid('proxy', 'must be a URL string such as http://proxy.example:3128');
  let url: URL;
  try {
    url = new URL(proxy);
  } catch {
    throw invalid('proxy', 'must be a valid absolute URL such as http://proxy.example:3128');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalid('proxy', 'must start with http:// or https://');
  return proxy;
}

/** `noProxy` as NO_PROXY text: a string, or a list of entries (VS Code's `http.noProxy`). */
export function checkNoProxy(noProxy: unknown): string | undefined {
  if (noProxy === undefined) return undefined;
  if (typeof noProxy === 'string') return noProxy;
  if (Array.isArray(noProxy) && noProxy.every((entry) => typeof entry === 'string')) return noProxy.join(',');
  throw invalid('noProxy', 'must be a string of hosts separated by commas, or a list of hosts');
}

/** A whole Proxy-Authorization value (e.g. `Basic dXNlcjpwYXNz`), never echoed in a message. */
export function checkProxyAuthorization(value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || value.trim() === '' || /[\r\n\0]/.test(value))
    throw invalid('proxyAuthorization', 'must be one line of text, a whole header value such as "Basic dXNlcjpwYXNz"');
  return value;
}

export function checkRejectUnauthorized(value: unknown): boolean {
  if (value === undefined) return true;
  if (typeof value !== 'boolean') throw invalid('rejectUnauthorized', 'must be true or false');
  return value;
}

/** Extra CA certificates: a list of PEM texts, each parsed now so a broken one is named at once. */
export function checkCa(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw invalid('ca', 'must be a list of PEM certificates');
  return value.map((pem: unknown, index) => {
    const rule = 'must be a PEM certificate (-----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----)';
    if (typeof pem !== 'string' || !pem.includes('-----BEGIN CERTIFICATE-----')) throw invalid(`ca[${index}]`, rule);
    try {
      new X509Certificate(pem);
    } catch {
      throw invalid(`ca[${index}]`, rule);
    }
    return pem;
  });
}

/** The largest answer read: 16 MiB, far above any platform answer (a page of 500 videos is about 1 MiB). */
export const DEFAULT_MAX_ANSWER_BYTES = 16 * 1024 * 1024;

export function checkMaxAnswerBytes(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_ANSWER_BYTES;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw invalid('maxAnswerBytes', 'must be a whole number of bytes of at least 1');
  return value;
}
