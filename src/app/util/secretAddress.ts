/**
 * A push address carries the channel's auth code (`?auth=...` on the local platform; docs/platform/
 * platform-facts.md): whoever reads it can publish to the channel. Messages, tooltips and logs show the
 * address with the code hidden; only the clipboard gets it whole.
 */
const SECRET_PARAMETER = /([?&](?:auth|authCode|auth_key|key|token|secret|sign)=)[^&#\s]*/gi;

/** A password in the address's user information (`rtmp://user:password@host/...`, common in pull sources). */
const USER_PASSWORD = /^([a-z][a-z0-9+.-]*:\/\/[^/@:\s]*:)[^/@\s]*@/i;

/** The address with the values of its secret query parameters, and any password in it, replaced by `***`. */
export function hideAuthCode(url: string): string {
  return url.replace(SECRET_PARAMETER, '$1***').replace(USER_PASSWORD, '$1***@');
}

/** True when the address carries a secret query parameter. */
export function hasAuthCode(url: string): boolean {
  return hideAuthCode(url) !== url;
}
