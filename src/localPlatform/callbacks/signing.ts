/**
 * The callbacks' signature: `X-Callback-Signature: sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)>` with
 * the timestamp (ms since 1970, as the platform's own requests carry) in `X-Callback-Timestamp`. Signing the
 * timestamp with the body lets a receiver refuse an old delivery replayed by someone else.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const CALLBACK_HEADERS = {
  event: 'x-callback-event',
  id: 'x-callback-id',
  attempt: 'x-callback-attempt',
  timestamp: 'x-callback-timestamp',
  signature: 'x-callback-signature',
} as const;

export function callbackSignature(secret: string, timestamp: string, body: string): string {
  return 'sha256=' + createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

/** What a receiver does (the README's recipe, in code for the tests): true when the signature is right and fresh. */
export function verifyCallback(
  secret: string,
  timestamp: string | undefined,
  signature: string | undefined,
  body: string,
  toleranceMs = 5 * 60_000,
  now = Date.now(),
): boolean {
  if (!timestamp || !signature || Math.abs(now - Number(timestamp)) > toleranceMs) return false;
  const expected = Buffer.from(callbackSignature(secret, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
