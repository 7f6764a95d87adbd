/**
 * Upload tokens (facts section 6, `getToken`): stateless, signed with the account's secret key, so
 * nothing is stored and a restart keeps them valid until they expire.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Account } from '../actions/context';

/** What the real service was seen to answer (30 days). */
export const TOKEN_LIFETIME_SECONDS = 2_592_000;

function sign(account: Account, kind: string, issuedAt: number): string {
  return createHmac('sha256', account.secretKey)
    .update(`${kind}:${account.userId}:${issuedAt}`, 'utf8')
    .digest('base64url');
}

function make(account: Account, kind: string, issuedAt: number): string {
  return `${account.userId}.${issuedAt}.${sign(account, kind, issuedAt)}`;
}

export function issueToken(
  account: Account,
  now: number,
): { accessToken: string; accessTokenTime: number; expiresIn: number; refreshToken: string; userId: number } {
  return {
    accessToken: make(account, 'access', now),
    accessTokenTime: now,
    expiresIn: TOKEN_LIFETIME_SECONDS,
    refreshToken: make(account, 'refresh', now),
    userId: account.userId,
  };
}

export type TokenCheck = { account: Account } | { problem: string };

/** The account an access token belongs to, or why it is refused. */
export function checkToken(token: string, accounts: Iterable<Account>, now: number): TokenCheck {
  const m = /^(\d{1,12})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return { problem: 'token is not an access token of this platform (ask getToken for one)' };
  const issuedAt = Number(m[2]);
  for (const account of accounts) {
    if (String(account.userId) !== m[1]) continue;
    const expected = Buffer.from(sign(account, 'access', issuedAt));
    const given = Buffer.from(m[3]);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) continue;
    if (now > issuedAt + TOKEN_LIFETIME_SECONDS * 1000) {
      return { problem: 'token has expired (ask getToken for a new one)' };
    }
    return { account };
  }
  return { problem: 'token is not an access token of this platform (ask getToken for one)' };
}

/**
 * AES-128 key addresses. A key is served only with a token that the playlist carries: the platform
 * writes `URI="<name>.key?token=<expiry>.<signature>"` into an encrypted playlist each time it is
 * served, signed with a secret of this run over the key's path and the expiry. So a key is read by
 * whoever plays the rendition through its address, never fetched alone by guessing its path; a
 * token lasts KEY_TOKEN_SECONDS, and a restart ends every earlier one (players reload the playlist).
 */
export const KEY_TOKEN_SECONDS = 1800;
const KEY_SECRET = randomBytes(32);

function keySignature(path: string, expires: number): string {
  return createHmac('sha256', KEY_SECRET).update(`key:${path}:${expires}`, 'utf8').digest('base64url');
}

/** The token of the key at `path` (the address's path, `/vod/...key`) for a playlist served at `now`. */
export function keyToken(path: string, now: number): string {
  const expires = Math.floor(now / 1000) + KEY_TOKEN_SECONDS;
  return `${expires}.${keySignature(path, expires)}`;
}

/** Whether `token` opens the key at `path` at `now`. */
export function keyTokenValid(path: string, token: string | null, now: number): boolean {
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token ?? '');
  if (!m) return false;
  const expires = Number(m[1]);
  if (expires * 1000 < now) return false;
  const expected = Buffer.from(keySignature(path, expires));
  const given = Buffer.from(m[2]);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
