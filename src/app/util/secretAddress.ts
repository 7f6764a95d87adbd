/**
 * A push address carries the channel's auth code (`?auth=...` on the local platform; docs/platform/
 * platform-facts.md): whoever reads it can publish to the channel. Messages, tooltips and logs show the
 * address with the code hidden; only the clipboard gets it whole.
 */
const SECRET_PARAMETER = /([?&](?:auth|authCode|auth_key|key|token|secret|sign)=)[^&#\s]*/gi;

/** The address with the values of its secret query parameters replaced by `***`. */
export function hideAuthCode(url: string): string {
  return url.replace(SECRET_PARAMETER, '$1***');
}

/** True when the address carries a secret query parameter. */
export function hasAuthCode(url: string): boolean {
  return hideAuthCode(url) !== url;
}
