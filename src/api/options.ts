/**
 * Checking and normalising ClientOptions. A bad option is refused at construction with a message
 * naming the option and the rule (never echoing the keys).
 */
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
export function parseBaseUrl(raw: unknown): PlatformAddress {
  if (typeof raw !== 'string' || raw.trim() === '')
    throw invalid('baseUrl', 'must be a non-empty URL such as http://127.0.0.1:8790');
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalid('baseUrl', 'must be a valid absolute URL such as http://127.0.0.1:8790');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalid('baseUrl', 'must start with http:// or https://');
  if (url.username !== '' || url.password !== '') throw invalid('baseUrl', 'must not contain a user name or password');
  if (url.search !== '' || url.hash !== '') throw invalid('baseUrl', 'must not contain a query string or fragment');
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
