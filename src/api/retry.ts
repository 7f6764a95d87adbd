/**
 * Retry policy for GET calls: capped exponential backoff with jitter, and which failures are
 * worth another attempt. POSTs are never retried (they may have taken effect).
 */
import type { TransportError } from './errors';

export interface RetryPolicy {
  /** Total attempts, the first one included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 200, maxDelayMs: 2000 };

/**
 * The longest wait a 503's Retry-After may ask for: 10 s. A platform that asks for more is not
 * retried (the error says how long it asked for), so a huge value never holds a call.
 */
export const RETRY_AFTER_LIMIT_MS = 10_000;

/**
 * Wait before retry number `retry` (1 for the first retry). The ceiling doubles each time up to
 * `maxDelayMs`; the wait is drawn from the upper half of it ("equal jitter"), so callers that
 * retry at once do not all come back at the same moment, yet each wait still grows.
 * Always within [ceiling / 2, ceiling].
 */
export function retryDelayMs(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  const r = Math.min(1, Math.max(0, random()));
  return Math.round(ceiling / 2 + (ceiling / 2) * r);
}

/**
 * Failures where a GET may succeed on another try: the connection could not be made or was lost,
 * the connect timed out, or the server answered 5xx (unless a 503 asks to wait longer than
 * RETRY_AFTER_LIMIT_MS). Header/body timeouts are not retried: each already cost the user the
 * whole wait. A refused certificate (`tls`) fails the same way every time; an oversized answer too.
 */
export function isRetryable(error: TransportError): boolean {
  switch (error.kind) {
    case 'network':
    case 'reset':
    case 'truncated':
      return true;
    case 'timeout':
      return error.phase === 'connect';
    case 'http-status':
      if (error.retryAfterMs !== undefined && error.retryAfterMs > RETRY_AFTER_LIMIT_MS) return false;
      return error.status !== undefined && error.status >= 500;
    default:
      return false;
  }
}

/** The wait before the next try: the backoff, or longer when a 503 asked for it (Retry-After). */
export function waitBeforeRetryMs(error: TransportError, retry: number, policy: RetryPolicy): number {
  return Math.max(retryDelayMs(retry, policy), error.retryAfterMs ?? 0);
}

/** Sleeps `ms`, ending early with `onAbort()`'s error when the signal fires. */
export function sleep(ms: number, signal: AbortSignal | undefined, onAbort: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(onAbort());
      return;
    }
    const done = (): void => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const aborted = (): void => {
      clearTimeout(timer);
      reject(onAbort());
    };
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

/** A Retry-After header (delay in seconds, or an HTTP-date) as milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP-date always starts with the day's name ("Fri, 01 May 2026 12:00:00 GMT" or an obsolete form).
  const date = /^[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
