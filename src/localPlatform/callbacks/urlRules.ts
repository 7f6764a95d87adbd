/**
 * Which callback URLs the platform posts to (no SSRF through callbacks), the rules of the URL itself: http(s), no
 * user name or password, at most MAX_URL_LENGTH characters, a loopback host unless the platform allows remote
 * callbacks (`--allow-remote-callbacks`). urls.ts checks the addresses a name resolves to at each attempt. Kept
 * apart from it so that the extension checks what the user types without the pull sources' module in its bundle.
 */
import { BlockList, isIP } from 'node:net';

export const MAX_URL_LENGTH = 2048;
/** Callback URLs per account. */
export const MAX_URLS = 5;

export interface CallbackPolicy {
  /** Hosts other than loopback (`--allow-remote-callbacks`). */
  allowRemote: boolean;
  /** Private, link-local and other internal addresses too (`--allow-private-callbacks`, implies remote). */
  allowPrivate: boolean;
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

export function isLoopback(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && LOOPBACK.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** Why `text` cannot be a callback URL under `policy` (the rule, without the field's name), or undefined. */
export function callbackUrlProblem(text: string, policy: CallbackPolicy): string | undefined {
  if (typeof text !== 'string' || text === '') return 'must be an http:// or https:// address';
  if (text.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters (got ${text.length})`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `must be an http:// or https:// address (got ${JSON.stringify(text.slice(0, 100))})`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `must be an http:// or https:// address (got ${url.protocol})`;
  if (url.username || url.password)
    return 'must not carry a user name or password (the signature header authenticates the platform)';
  const host = bareHost(url);
  const loopbackName = host === 'localhost' || isLoopback(host);
  if (!loopbackName && !policy.allowRemote && !policy.allowPrivate)
    return (
      `must name a loopback host (127.0.0.1, localhost, [::1]): ${host} is another host ` +
      '(start the platform with --allow-remote-callbacks to post elsewhere)'
    );
  return undefined;
}

/** The URL checked, or an Error naming `field` and the rule. */
export function checkCallbackUrl(field: string, text: string, policy: CallbackPolicy): string {
  const problem = callbackUrlProblem(text, policy);
  if (problem) throw new Error(`${field} ${problem}`);
  return text;
}
