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
 * the connect timed out, or the server answered 5xx. Header/body timeouts are not retried: each
 * already cost the user the whole wait. A refused certificate (`tls`) fails the same way every time.
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
      return error.status !== undefined && error.status >= 500;
    default:
      return false;
  }
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
