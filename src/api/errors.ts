/**
 * Errors of the platform client. Every message is a readable sentence naming the action and the
 * address (base URL + /rest, never the query string: it holds the signature), and never the secret.
 */

export type TransportErrorKind =
  | 'timeout'
  | 'network'
  | 'reset'
  | 'tls'
  | 'http-status'
  | 'not-json'
  | 'truncated'
  | 'bad-envelope'
  | 'too-large'
  | 'aborted';

/**
 * Added to the message of a POST that was sent but got no usable answer (no answer, a 5xx, a
 * garbled or oversized one): it may have been carried out (a channel created, a transcoding
 * started), and it is never retried, so the user is told to look first.
 */
export function mayHaveBeenCarriedOut(method: string): string {
  return method === 'POST' ? '; the operation may still have been carried out, so check before trying it again' : '';
}

/** Base of every error the client throws. */
export class PlatformError extends Error {
  /** The platform action, e.g. `queryVideo`. */
  readonly action: string;
  /** `{base_url}/rest`, without query string. */
  readonly url: string;

  constructor(message: string, action: string, url: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PlatformError';
    this.action = action;
    this.url = url;
  }
}

/** The platform answered with an envelope whose `code` is not 0. */
export class ApiError extends PlatformError {
  readonly code: number;
  /** The envelope's `message` as the platform sent it. */
  readonly platformMessage: string;
  /** Plain-words meaning from src/api/errorCodes.ts. */
  readonly explanation: string;

  constructor(action: string, url: string, code: number, platformMessage: string, explanation: string) {
    super(
      `${action} at ${url} failed with code ${code} (${platformMessage || 'no message'}): ${explanation}`,
      action,
      url,
    );
    this.name = 'ApiError';
    this.code = code;
    this.platformMessage = platformMessage;
    this.explanation = explanation;
  }
}

/** No usable answer: the exchange failed, or the answer was not an envelope. */
export class TransportError extends PlatformError {
  readonly kind: TransportErrorKind;
  /** HTTP status when one was received. */
  readonly status?: number;
  /** For `timeout`: which wait ran out. */
  readonly phase?: 'connect' | 'headers' | 'body';
  /** For `http-status` 503: how long the platform asked to wait (its Retry-After header), in ms. */
  readonly retryAfterMs?: number;

  constructor(
    kind: TransportErrorKind,
    message: string,
    action: string,
    url: string,
    details: { status?: number; phase?: 'connect' | 'headers' | 'body'; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, action, url, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'TransportError';
    this.kind = kind;
    if (details.status !== undefined) this.status = details.status;
    if (details.phase !== undefined) this.phase = details.phase;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
  }
}

/**
 * A call's input breaks a rule the client can check before sending (nothing was sent).
 * Names the field and the rule.
 */
export class InvalidInputError extends PlatformError {
  readonly field: string;
  readonly rule: string;

  constructor(action: string, url: string, field: string, rule: string) {
    super(`${action}: ${field} ${rule}; nothing was sent to ${url}`, action, url);
    this.name = 'InvalidInputError';
    this.field = field;
    this.rule = rule;
  }
}
