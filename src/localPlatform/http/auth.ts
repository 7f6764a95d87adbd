/**
 * The common parameters (rest-interface section 5) and the signature (facts section 1): HMAC-SHA256
 * over the secret key followed by every query/form parameter but `signature`, sorted by name
 * case-insensitively, as `name=value` with no separators. Empty values are signed like any other
 * (facts section 1: independent clients send and sign them), so a parameter cannot be added to a
 * signed request unsigned, not even an empty one. The JSON body is not signed.
 */
import { timingSafeEqual } from 'node:crypto';
import { Codes } from '../../api/errorCodes';
import { signatureOfPairs } from '../../api/signing';
import type { Account } from '../actions/context';
import { PlatformFault } from './faults';
import type { RequestParams } from './request';

/** Allowed distance between the request's `timestamp` and the platform's clock, unless configured. */
export const DEFAULT_TIMESTAMP_WINDOW_MS = 15 * 60 * 1000;

const SIGNATURE_FORMAT = /^[0-9a-fA-F]{64}$/;
const TIMESTAMP_FORMAT = /^\d{1,15}$/;

function required(params: RequestParams, name: string): string {
  const value = params.get(name);
  if (value === undefined || value === '') throw new PlatformFault(Codes.parameterMissing, `${name} is required`);
  return value;
}

/**
 * The given signature's bytes and the HMAC's, each in one buffer made once (the check is synchronous), not one
 * per request.
 */
const givenBytes = Buffer.alloc(32);
const expectedBytes = Buffer.alloc(32);

/** Constant-time: the given signature (64 hex digits, checked before) against the HMAC's 32 bytes. */
function sameSignature(expected: Buffer, given: string): boolean {
  const decoded = givenBytes.write(given, 'hex');
  return expected.length === 32 && decoded === 32 && timingSafeEqual(expected, givenBytes);
}

/**
 * Signatures seen within the timestamp window (opt-in): the same signed request sent again is
 * refused. An entry lives as long as its timestamp is inside the window; after that the timestamp
 * check refuses the request anyway, so the memory held is bounded by the requests of one window.
 */
export class ReplayGuard {
  private readonly seen = new Map<string, number>();
  private nextSweep = 0;

  constructor(private readonly windowMs: number) {}

  /** Records the signature; throws when it was seen already. */
  check(signature: string, timestamp: number, now: number): void {
    if (now >= this.nextSweep) {
      for (const [key, expires] of this.seen) if (expires < now) this.seen.delete(key);
      this.nextSweep = now + Math.max(1000, this.windowMs / 10);
    }
    const key = signature.toLowerCase();
    const expires = this.seen.get(key);
    if (expires !== undefined && expires >= now) {
      throw new PlatformFault(
        Codes.requestReplayed,
        'this signed request was already received; sign each request anew (a new timestamp gives a new signature)',
      );
    }
    this.seen.set(key, timestamp + this.windowMs);
  }

  /** Entries held now (for tests of the memory bound). */
  get size(): number {
    return this.seen.size;
  }
}

export interface AuthOptions {
  windowMs: number;
  replayGuard?: ReplayGuard;
}

/**
 * Checks the common parameters; returns the account the request acts on. Nothing is changed on
 * failure. The parameters' presence and the signature's form are checked before the access key is
 * looked up, so an unsigned request cannot tell a known access key from an unknown one.
 */
export function authenticate(
  params: RequestParams,
  accounts: ReadonlyMap<string, Account>,
  options: AuthOptions,
  now: number,
): Account {
  const accessKey = required(params, 'accessKey');
  const version = required(params, 'version');
  const timestamp = required(params, 'timestamp');
  const signature = required(params, 'signature');
  required(params, 'action');
  if (!SIGNATURE_FORMAT.test(signature)) {
    throw new PlatformFault(Codes.signatureIncorrect, 'signature must be 64 hexadecimal characters (HMAC-SHA256)');
  }
  const account = accounts.get(accessKey);
  if (!account) throw new PlatformFault(Codes.accessKeyNotExists, 'accessKey is not an account of this platform');
  if (version !== '2.0')
    throw new PlatformFault(Codes.versionNotSupported, `version must be 2.0 (got ${version.slice(0, 20)})`);
  if (!TIMESTAMP_FORMAT.test(timestamp)) {
    throw new PlatformFault(Codes.parameterInvalid, 'timestamp must be milliseconds since 1970 as digits');
  }
  const skew = Math.abs(now - Number(timestamp));
  if (skew > options.windowMs) {
    throw new PlatformFault(
      Codes.timestampExpired,
      `timestamp must be within ${Math.round(options.windowMs / 1000)} s of the platform's clock (it is ${Math.round(skew / 1000)} s off)`,
    );
  }
  // Every parameter but `signature` is signed: the signing order leaves it out, so no copy without it is made.
  const expected = signatureOfPairs(expectedBytes, params.names, params.values, account.secretKey);
  if (!sameSignature(expected, signature)) {
    throw new PlatformFault(
      Codes.signatureIncorrect,
      'signature does not match the parameters signed with the secret key of accessKey; every parameter sent is signed, empty ones too',
    );
  }
  // Only a genuine signature is remembered, so forged requests cannot fill the guard.
  options.replayGuard?.check(signature, Number(timestamp), now);
  return account;
}
