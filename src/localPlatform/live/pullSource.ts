/**
 * A pull channel's `pullStream`: which addresses the platform may pull from, and the input
 * arguments of the relay ffmpeg that reads it.
 *
 * Only `rtmp://`, `rtmps://`, `http(s)://`, `srt://` and the built-in test pattern are sources: no
 * `file:` and none of ffmpeg's other protocols (concat, subfile, data, pipe, ...), and the relay is
 * started with a `-protocol_whitelist` of its scheme's protocols, so nothing the source sends back
 * (an HLS playlist naming `file:` segments, a redirect) can open another protocol. The host is
 * resolved as ffmpeg will resolve it, and loopback, private, link-local and other non-public
 * addresses are refused unless the platform allows private sources (`live.allowPrivateSources`).
 *
 * The built-in test pattern: `testsrc://` (or `testsrc://WIDTHxHEIGHT`, default 640x360, 25 fps) is
 * ffmpeg's `testsrc2` picture with a 440 Hz tone and the clock burnt in, generated locally: a pull
 * channel to try offline. On-demand HTTP addresses (`.mp4`, ...) are read at their own speed (`-re`)
 * and loop; live addresses (rtmp, srt, HLS, HTTP-FLV) are read as they come. Everything is encoded
 * (ultrafast) for the RTMP server.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export const TEST_PATTERN_SCHEME = 'testsrc://';

/** The protocols ffmpeg may open for a source of each scheme (`-protocol_whitelist`). */
const PROTOCOLS: Record<string, string> = {
  rtmp: 'rtmp,tcp',
  rtmps: 'rtmps,tcp,tls',
  // A redirect between http and https is common; `crypto` reads AES-128 HLS segments.
  http: 'http,https,tcp,tls,crypto',
  https: 'http,https,tcp,tls,crypto',
  srt: 'srt',
};

export const PULL_SCHEMES = Object.keys(PROTOCOLS);

/** The rule said in every refusal of a pull source's form. */
export const PULL_RULE =
  'must be a stream address: rtmp://, rtmps://, http(s)://, srt://, or testsrc:// (the built-in test pattern)';

/**
 * scheme://[user[:password]@]host[:port][/path...]: one `@` at most and a plain host name or
 * address, so that the host checked here is the host ffmpeg connects to.
 */
const ADDRESS =
  /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/?#\s\\]*@)?([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?(?:[/?#][^\s\\]*)?$/;

/** Why `pullStream` is not a source the platform pulls from (its form only), or undefined. */
export function pullStreamProblem(pullStream: string): string | undefined {
  if (pullStream.toLowerCase().startsWith(TEST_PATTERN_SCHEME)) {
    return /^(\d{2,4}x\d{2,4})?$/.test(pullStream.slice(TEST_PATTERN_SCHEME.length))
      ? undefined
      : 'must be testsrc:// or testsrc://WIDTHxHEIGHT for the built-in test pattern';
  }
  const m = ADDRESS.exec(pullStream);
  if (!m || !PROTOCOLS[m[1].toLowerCase()]) return PULL_RULE;
  return undefined;
}

/** Addresses that are not on the public internet: refused as sources unless private sources are allowed. */
const NOT_PUBLIC = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(net, bits, 'ipv6');

/** Whether an address is on the public internet (IPv4-mapped IPv6 addresses are read as their IPv4 address). */
export function isPublic(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  // BlockList matches IPv4-mapped IPv6 (::ffff:127.0.0.1) against the IPv4 rules too.
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Which addresses the platform's pulls and outputs may reach (live/liveMedia.ts `LiveOptions`). */
export interface AddressPolicy {
  /** Loopback, private, link-local and other non-public addresses too (`--allow-private-sources`). */
  allowPrivate: boolean;
  /**
   * For tests only: exact `address:port` pairs (`127.0.0.1:8080`, `[::1]:8080`) that count as public, so a test
   * can stand in a loopback server for a public one while every other loopback address stays refused.
   */
  publicForTests?: ReadonlySet<string>;
}

const LOOKUP_TIMEOUT_MS = 5000;

/** `address:port` as `publicForTests` lists it. */
export function addressAndPort(address: string, port: number): string {
  return `${isIP(address) === 6 ? `[${address}]` : address}:${port}`;
}

/** Every address `host` (a name or an address, IPv6 with or without brackets) resolves to, as ffmpeg would. */
export async function resolveHost(host: string): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return [bare];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${bare} did not resolve within ${LOOKUP_TIMEOUT_MS / 1000} s`)),
      LOOKUP_TIMEOUT_MS,
    );
  });
  try {
    const found = await Promise.race([lookup(bare, { all: true, verbatim: true }), timeout]);
    return found.map((a) => a.address);
  } finally {
    clearTimeout(timer);
  }
}

/** Why `addresses` of `host` may not be reached on `port` under `policy`, or undefined. */
export function addressProblem(
  host: string,
  addresses: string[],
  port: number,
  policy: AddressPolicy,
  purpose = 'to pull from such addresses',
): string | undefined {
  if (policy.allowPrivate) return undefined;
  const inside = addresses.find((a) => !isPublic(a) && !policy.publicForTests?.has(addressAndPort(a, port)));
  if (inside === undefined) return undefined;
  const bare = host.replace(/^\[|\]$/g, '');
  const named = inside === bare ? bare : `${bare} (${inside})`;
  return (
    `must name a public address: ${named} is a loopback, private or link-local address ` +
    `(start the platform with --allow-private-sources ${purpose})`
  );
}

/**
 * Resolves `host` once and checks every address: the addresses to connect to (all checked), so that what is
 * reached is what was checked (no second look-up), or why not.
 */
export async function checkedAddresses(
  host: string,
  port: number,
  policy: AddressPolicy,
): Promise<{ addresses: string[] } | { problem: string }> {
  let addresses: string[];
  try {
    addresses = await resolveHost(host);
  } catch (error) {
    return { problem: `cannot be reached: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (addresses.length === 0) return { problem: `cannot be reached: ${host} has no address` };
  const problem = addressProblem(host, addresses, port, policy);
  return problem ? { problem } : { addresses };
}

const DEFAULT_PORTS: Record<string, number> = { rtmp: 1935, rtmps: 443, http: 80, https: 443, srt: 0 };

/** The scheme, host and port of a stream address that passed `pullStreamProblem` (or an rtmp output). */
export function addressParts(url: string): { scheme: string; host: string; port: number } | undefined {
  const m = ADDRESS.exec(url);
  if (!m) return undefined;
  const scheme = m[1].toLowerCase();
  return { scheme, host: m[2].replace(/^\[|\]$/g, ''), port: m[3] ? Number(m[3]) : (DEFAULT_PORTS[scheme] ?? 0) };
}

/**
 * Why the platform will not pull from `pullStream`'s host, or undefined: every address the name
 * resolves to (as ffmpeg's resolver sees it, so `localhost` or `0x7f.1` count as loopback) must be
 * public unless the policy allows private addresses. A name that does not resolve now is not refused:
 * the relay cannot reach it either, and the check runs again at every start and every connection.
 */
export async function pullAddressProblem(pullStream: string, policy: AddressPolicy): Promise<string | undefined> {
  if (policy.allowPrivate || pullStream.toLowerCase().startsWith(TEST_PATTERN_SCHEME)) return undefined;
  const parts = addressParts(pullStream);
  if (!parts) return PULL_RULE;
  let addresses: string[];
  try {
    addresses = await resolveHost(parts.host);
  } catch {
    return undefined;
  }
  return addressProblem(parts.host, addresses, parts.port, policy);
}

const ENCODE = [
  '-c:v',
  'libx264',
  '-preset',
  'ultrafast',
  '-tune',
  'zerolatency',
  '-pix_fmt',
  'yuv420p',
  '-g',
  '50',
  '-c:a',
  'aac',
  '-b:a',
  '96k',
  '-ar',
  '44100',
];

/** The picture size of a `testsrc://` address (`WIDTHxHEIGHT`); undefined for any other address. */
export function testPatternSize(pullStream: string): string | undefined {
  if (!pullStream.toLowerCase().startsWith(TEST_PATTERN_SCHEME)) return undefined;
  const m = /^(\d{2,4})x(\d{2,4})/.exec(pullStream.slice(TEST_PATTERN_SCHEME.length));
  return m ? `${m[1]}x${m[2]}` : '640x360';
}

/** The rule of a channel's `rtmpThirdPartyOutputUrl` (an RTMP group's copy to a third-party server). */
export const OUTPUT_RULE = 'must be an rtmp:// or rtmps:// address with one plain host';

/** Why `url` is not an address an RTMP group may send to (its form only), or undefined. */
export function outputUrlProblem(url: string): string | undefined {
  const scheme = addressParts(url)?.scheme;
  return scheme === 'rtmp' || scheme === 'rtmps' ? undefined : OUTPUT_RULE;
}

/**
 * Why the platform will not send an RTMP group to `url`'s host, or undefined: as for pull sources, every
 * address must be public unless the policy allows private ones.
 */
export async function outputAddressProblem(url: string, policy: AddressPolicy): Promise<string | undefined> {
  const parts = addressParts(url);
  if (!parts) return OUTPUT_RULE;
  if (policy.allowPrivate) return undefined;
  let addresses: string[];
  try {
    addresses = await resolveHost(parts.host);
  } catch {
    return undefined;
  }
  return addressProblem(parts.host, addresses, parts.port, policy, 'to send to such addresses');
}

/**
 * How the relay reaches a checked source: http, https and rtmps through the platform's forward proxy
 * (sourceProxy.ts: it resolves and checks every request, redirect and tunnel), rtmp and srt at the one address
 * resolved and checked just before the relay starts (`address`; ffmpeg does not look the name up again).
 */
export interface SourceRoute {
  /** `http://127.0.0.1:PORT` of the proxy (http, https, rtmps). */
  proxy?: string;
  /** The checked address of the host (rtmp, srt). */
  address?: string;
}

/** Whether the relay of a source of this scheme reads through the proxy (else at a checked address). */
export function readsThroughProxy(pullStream: string): boolean {
  const scheme = addressParts(pullStream)?.scheme;
  return scheme === 'http' || scheme === 'https' || scheme === 'rtmps';
}

/**
 * The route of an rtmp or srt source: its host resolved once and checked (throws the refusal, naming
 * pullStream, when an address is not allowed: the answer may have changed since the source was stored).
 */
export async function pinnedRoute(pullStream: string, policy: AddressPolicy): Promise<SourceRoute> {
  const parts = addressParts(pullStream);
  // The test pattern is made locally; http(s) and rtmps go through the proxy.
  if (!parts || (parts.scheme !== 'rtmp' && parts.scheme !== 'srt')) return {};
  const checked = await checkedAddresses(parts.host, parts.port, policy);
  if ('problem' in checked) throw new Error(`pullStream ${checked.problem}`);
  // ffmpeg gets one address: an IPv4 one where the name has one (the usual way into a server).
  return { address: checked.addresses.find((a) => isIP(a) === 4) ?? checked.addresses[0] };
}

/** scheme://[userinfo@] | host | [:port] | rest */
const SPLIT = /^([a-z][a-z0-9+.-]*:\/\/(?:[^@/?#\s\\]*@)?)([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])((?::\d{1,5})?)(.*)$/i;

/**
 * An rtmp or srt address with its host replaced by the checked address. RTMP names its server in the
 * connect command (tcUrl, which virtual hosts go by): that keeps the name as given, with the application
 * and play path split as ffmpeg splits them (`/app/path`, or `/app/instance/path` with 3 or more parts).
 */
function pinnedAddress(pullStream: string, address: string): string[] {
  const m = SPLIT.exec(pullStream);
  if (!m) throw new Error(`pullStream ${PULL_RULE}`);
  const [, head, host, port, rest] = m;
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === address) return ['-i', pullStream];
  const pinned = `${head}${isIP(address) === 6 ? `[${address}]` : address}${port}${rest}`;
  if (!head.toLowerCase().startsWith('rtmp:')) return ['-i', pinned];
  const parts = rest.replace(/^\//, '').split('/');
  const appParts = parts.length >= 3 && !parts[1].includes(':') ? 2 : 1;
  const app = parts.slice(0, appParts).join('/');
  const playpath = parts.slice(appParts).join('/');
  return [
    ...['-rtmp_tcurl', `rtmp://${host}${port}/${app}`, '-rtmp_app', app, '-rtmp_playpath', playpath],
    ...['-i', pinned],
  ];
}

/** ffmpeg's input arguments for a source that passed `pullStreamProblem`, reached by `route`. */
export function pullInputArgs(pullStream: string, route: SourceRoute = {}): string[] {
  const size = testPatternSize(pullStream);
  if (size) {
    return [
      '-re',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=${size}:rate=25`,
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=44100',
      '-map',
      '0:v',
      '-map',
      '1:a',
      ...ENCODE,
      '-b:v',
      '800k',
    ];
  }
  const scheme = ADDRESS.exec(pullStream)?.[1]?.toLowerCase() ?? '';
  const protocols = PROTOCOLS[scheme];
  // Never reached for a checked source; an unchecked one opens nothing.
  if (!protocols) throw new Error(`pullStream ${PULL_RULE}`);
  const http = scheme === 'http' || scheme === 'https';
  const live = !http || /\.(m3u8|flv)(\?|$)/i.test(pullStream);
  // Through the proxy, ffmpeg's http also speaks to it (`httpproxy`: the CONNECT of https and rtmps).
  const whitelist = route.proxy ? `${protocols},httpproxy` : protocols;
  const before: string[] = ['-protocol_whitelist', whitelist, '-rw_timeout', '10000000'];
  if (http) before.push('-reconnect', '1', '-reconnect_streamed', '1', '-reconnect_delay_max', '5');
  // rtmps reads `http_proxy` from the environment only (relayEnvironment); http takes the option too.
  if (http && route.proxy) before.push('-http_proxy', route.proxy);
  if (!live) before.push('-re', '-stream_loop', '-1');
  const input = route.address ? pinnedAddress(pullStream, route.address) : ['-i', pullStream];
  return [...before, ...input, '-map', '0:v:0', '-map', '0:a:0?', ...ENCODE, '-b:v', '2000k'];
}

/**
 * The environment of a relay reading through the proxy at `proxy`: `http_proxy` set (ffmpeg's http and tls
 * read it for every address they open, a redirect's or a segment's included), and `no_proxy` removed, so that
 * no address skips the proxy.
 */
export function relayEnvironment(proxy: string | undefined): Record<string, string | undefined> {
  if (!proxy) return {};
  return { http_proxy: proxy, HTTP_PROXY: undefined, no_proxy: undefined, NO_PROXY: undefined };
}
