/**
 * Which addresses a callback may reach: the URL's name resolved once per attempt and every address checked
 * (urlRules.ts has the rules of the URL itself). Loopback is always allowed; other addresses need `allowRemote`,
 * and those that are not public (the pull sources' rule, live/pullSource.ts `isPublic`) `allowPrivate`. The
 * connection is then made to the address checked (no second look-up), and redirects are not followed.
 */
import { isIP } from 'node:net';
import { isPublic, resolveHost } from '../live/pullSource';
import { isLoopback, type CallbackPolicy } from './urlRules';

function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * The address to connect to for `url`: the name resolved once, every address checked; or why not. Loopback is
 * always allowed; other addresses need `allowRemote`, and non-public ones `allowPrivate`.
 */
export async function deliveryAddress(
  url: URL,
  policy: CallbackPolicy,
): Promise<{ address: string } | { problem: string }> {
  const host = bareHost(url);
  let addresses: string[];
  try {
    addresses = await resolveHost(host);
  } catch (error) {
    return { problem: `${host} cannot be resolved: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (addresses.length === 0) return { problem: `${host} has no address` };
  for (const address of addresses) {
    if (isLoopback(address)) continue;
    const named = address === host ? host : `${host} (${address})`;
    if (!policy.allowRemote && !policy.allowPrivate)
      return { problem: `${named} is not a loopback address (start the platform with --allow-remote-callbacks)` };
    if (!isPublic(address) && !policy.allowPrivate)
      return {
        problem: `${named} is a private or link-local address (start the platform with --allow-private-callbacks)`,
      };
  }
  // IPv4 first where there is one, as most receivers listen there.
  return { address: addresses.find((a) => isIP(a) === 4) ?? addresses[0] };
}
