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

function isPublic(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  // BlockList matches IPv4-mapped IPv6 (::ffff:127.0.0.1) against the IPv4 rules too.
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const LOOKUP_TIMEOUT_MS = 5000;

/**
 * Why the platform will not pull from `pullStream`'s host, or undefined: every address the name
 * resolves to (as ffmpeg's resolver sees it, so `localhost` or `0x7f.1` count as loopback) must be
 * public unless `allowPrivate`. A name that does not resolve now is not refused: ffmpeg cannot reach
 * it either, and the check runs again at every start.
 */
export async function pullAddressProblem(pullStream: string, allowPrivate: boolean): Promise<string | undefined> {
  if (allowPrivate || pullStream.toLowerCase().startsWith(TEST_PATTERN_SCHEME)) return undefined;
  const m = ADDRESS.exec(pullStream);
  if (!m) return PULL_RULE;
  const host = m[2].replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('timeout')), LOOKUP_TIMEOUT_MS).unref(),
    );
    const found = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
    addresses = found.map((a) => a.address);
  } catch {
    return undefined;
  }
  const inside = addresses.find((a) => !isPublic(a));
  if (inside === undefined) return undefined;
  const named = inside === host ? host : `${host} (${inside})`;
  return (
    `must name a public address: ${named} is a loopback, private or link-local address ` +
    '(start the platform with --allow-private-sources to pull from such addresses)'
  );
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

/** ffmpeg's input arguments for a source that passed `pullStreamProblem`. */
export function pullInputArgs(pullStream: string): string[] {
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
  const live = scheme !== 'http' && scheme !== 'https' ? true : /\.(m3u8|flv)(\?|$)/i.test(pullStream);
  const before: string[] = ['-protocol_whitelist', protocols, '-rw_timeout', '10000000'];
  if (scheme === 'http' || scheme === 'https')
    before.push('-reconnect', '1', '-reconnect_streamed', '1', '-reconnect_delay_max', '5');
  if (!live) before.push('-re', '-stream_loop', '-1');
  return [...before, '-i', pullStream, '-map', '0:v:0', '-map', '0:a:0?', ...ENCODE, '-b:v', '2000k'];
}
