/**
 * Upload tokens (facts section 6, `getToken`): stateless, signed with the account's secret key, so
 * nothing is stored and a restart keeps them valid until they expire.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Account } from '../context';

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
