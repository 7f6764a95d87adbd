/**
 * The common parameters (rest-interface section 5) and the signature (facts section 1): HMAC-SHA256
 * over the secret key followed by every query/form parameter but `signature`, sorted by name
 * case-insensitively, as `name=value` with no separators. The JSON body is not signed.
 */
import { timingSafeEqual } from 'node:crypto';
import { Codes } from '../api/errorCodes';
import { signParams } from '../api/signing';
import type { Account } from './context';
import { PlatformFault } from './faults';

/** Allowed distance between the request's `timestamp` and the platform's clock, unless configured. */
export const DEFAULT_TIMESTAMP_WINDOW_MS = 15 * 60 * 1000;

function required(params: Record<string, string>, name: string): string {
  const value = params[name];
  if (value === undefined || value === '') throw new PlatformFault(Codes.parameterMissing, `${name} is required`);
  return value;
}

function sameHex(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'latin1');
  const b = Buffer.from(given.toLowerCase(), 'latin1');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Checks the common parameters; returns the account the request acts on. Nothing is changed on failure. */
export function authenticate(
  params: Record<string, string>,
  accounts: ReadonlyMap<string, Account>,
  windowMs: number,
  now: number,
): Account {
  const accessKey = required(params, 'accessKey');
  const account = accounts.get(accessKey);
  if (!account) throw new PlatformFault(Codes.accessKeyNotExists, 'accessKey is not an account of this platform');
  const version = required(params, 'version');
  if (version !== '2.0')
    throw new PlatformFault(Codes.versionNotSupported, `version must be 2.0 (got ${version.slice(0, 20)})`);
  const timestamp = required(params, 'timestamp');
  if (!/^\d{1,15}$/.test(timestamp)) {
    throw new PlatformFault(Codes.parameterInvalid, 'timestamp must be milliseconds since 1970 as digits');
  }
  const skew = Math.abs(now - Number(timestamp));
  if (skew > windowMs) {
    throw new PlatformFault(
      Codes.timestampExpired,
      `timestamp must be within ${Math.round(windowMs / 1000)} s of the platform's clock (it is ${Math.round(skew / 1000)} s off)`,
    );
  }
  const signature = required(params, 'signature');
  required(params, 'action');
  const signed: Record<string, string> = {};
  for (const name of Object.keys(params)) if (name !== 'signature') signed[name] = params[name];
  let ok = sameHex(signParams(signed, account.secretKey), signature);
  if (!ok) {
    // Some clients leave empty parameters out of what they sign but still send them.
    const nonEmpty: Record<string, string> = {};
    for (const name of Object.keys(signed)) if (signed[name] !== '') nonEmpty[name] = signed[name];
    if (Object.keys(nonEmpty).length !== Object.keys(signed).length)
      ok = sameHex(signParams(nonEmpty, account.secretKey), signature);
  }
  if (!ok) {
    throw new PlatformFault(
      Codes.signatureIncorrect,
      'signature does not match the parameters signed with the secret key of accessKey',
    );
  }
  return account;
}
