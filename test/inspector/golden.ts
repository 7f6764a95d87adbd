/**
 * Golden streams for the inspector's tests, made with ffmpeg (320x180 or less, a few seconds), and a tiny
 * loopback HTTP server that serves a folder (GET and HEAD) with routes that override files.
 */
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { findMediaTools, runTool, type MediaTools } from '../../src/media/tools';

export async function realTools(): Promise<MediaTools> {
  const mode = await findMediaTools({ npmFallback: true });
  if (mode.kind !== 'real') throw new Error(mode.reason);
  return mode.tools;
}

export interface LadderOptions {
  /** Keyframe interval in frames (25 fps) per variant; the same for all by default (aligned). */
  gops?: number[];
  seconds?: number;
  segmentSeconds?: number;
  /** Cut segments at the time even between keyframes (segments that do not start with an IDR). */
  splitByTime?: boolean;
  keyInfoFile?: string;
  variants?: 1 | 2 | 3;
  /** MPEG-TS segments (the default) or fMP4 segments with an init section (EXT-X-MAP). */
  segmentType?: 'mpegts' | 'fmp4';
  /** An ffmpeg audio filter for every variant's audio (e.g. `aselect` to cut a gap, timestamps kept). */
  audioFilter?: string;
}

const SIZES = ['320x180', '256x144', '160x90'];
const RATES = ['300k', '200k', '100k'];
/** What the encoder is told (High profile, level 3.0, B-frames) and so what the master playlist declares. */
export const LADDER_CODECS = 'avc1.64001e,mp4a.40.2';

/**
 * An HLS ladder: master.m3u8, v0.m3u8..., with BANDWIDTH set to the measured peak (so declared right). One ffmpeg
 * run with one HLS output per variant and the master playlist written here: the npm ffmpeg build (4.1) crashes
 * (SIGSEGV) on `-var_stream_map`, and these tests must pass with only what npm installs.
 */
export async function makeLadder(
  tools: Pick<MediaTools, 'ffmpeg'>,
  dir: string,
  options: LadderOptions = {},
): Promise<void> {
  const n = options.variants ?? 3;
  const gops = options.gops ?? Array<number>(n).fill(25);
  const seconds = options.seconds ?? 4;
  const fmp4 = options.segmentType === 'fmp4';
  const scaled = SIZES.slice(0, n)
    .map((size, i) => `[s${i}]scale=${size.replace('x', ':')}[v${i}]`)
    .join(';');
  const args = [
    '-hide_banner',
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=320x180:rate=25:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:sample_rate=44100:duration=${seconds}`,
    '-filter_complex',
    `[0:v]split=${n}${SIZES.slice(0, n)
      .map((_, i) => `[s${i}]`)
      .join('')};${scaled}`,
  ];
  for (let i = 0; i < n; i++) {
    if (options.audioFilter) args.push('-filter:a', options.audioFilter);
    args.push('-map', `[v${i}]`, '-map', '1:a', '-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'high');
    args.push('-level:v', '3.0', '-sc_threshold', '0', '-g', String(gops[i]), '-keyint_min', String(gops[i]));
    args.push(
      '-b:v',
      RATES[i]!,
      '-c:a',
      'aac',
      '-b:a',
      '48k',
      '-f',
      'hls',
      '-hls_time',
      String(options.segmentSeconds ?? 1),
    );
    args.push(
      '-hls_playlist_type',
      'vod',
      '-hls_flags',
      options.splitByTime ? 'independent_segments+split_by_time' : 'independent_segments',
    );
    if (fmp4) args.push('-hls_segment_type', 'fmp4', '-hls_fmp4_init_filename', `v${i}_init.mp4`);
    args.push('-hls_segment_filename', join(dir, `v${i}_%03d.${fmp4 ? 'm4s' : 'ts'}`));
    if (options.keyInfoFile) args.push('-hls_key_info_file', options.keyInfoFile);
    args.push(join(dir, `v${i}.m3u8`));
  }
  await runTool(tools.ffmpeg, args, { timeoutMs: 120_000 });
  const master = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (let i = 0; i < n; i++) {
    master.push(`#EXT-X-STREAM-INF:BANDWIDTH=1,RESOLUTION=${SIZES[i]},CODECS="${LADDER_CODECS}"`, `v${i}.m3u8`);
  }
  writeFileSync(join(dir, 'master.m3u8'), `${master.join('\n')}\n`);
  declareMeasuredBandwidth(dir);
}

/** Rewrites each BANDWIDTH to the peak segment bit rate of its variant plus 2 %. */
export function declareMeasuredBandwidth(dir: string): void {
  const master = readFileSync(join(dir, 'master.m3u8'), 'utf8');
  const lines = master.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('#EXT-X-STREAM-INF')) continue;
    const media = readFileSync(join(dir, lines[i + 1]!.trim()), 'utf8').split('\n');
    let peak = 0;
    for (let j = 0; j < media.length; j++) {
      const m = /^#EXTINF:([\d.]+)/.exec(media[j]!);
      if (m) peak = Math.max(peak, (statSync(join(dir, media[j + 1]!.trim())).size * 8) / Number(m[1]));
    }
    lines[i] = lines[i]!.replace(/BANDWIDTH=\d+/, `BANDWIDTH=${Math.ceil(peak * 1.02)}`);
  }
  writeFileSync(join(dir, 'master.m3u8'), lines.join('\n'));
}

export function edit(file: string, change: (text: string) => string): void {
  writeFileSync(file, change(readFileSync(file, 'utf8')));
}

export function files(dir: string): string[] {
  return readdirSync(dir).sort();
}

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

/** Content types by extension, as a CDN serves HLS; anything else goes out as MPEG-TS. */
const TYPES: Record<string, string> = {
  m3u8: 'application/vnd.apple.mpegurl',
  mp4: 'video/mp4',
  m4s: 'video/iso.segment',
};

/** Serves `root` on 127.0.0.1 (a free port); `routes` answer their paths instead of files. */
export async function serve(
  root: string,
  routes: Record<string, Route> = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const route = routes[path];
    if (route) return route(req, res);
    const file = normalize(join(root, path));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    let data: Buffer;
    try {
      data = readFileSync(file);
    } catch {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-length': data.length,
      'content-type': TYPES[file.slice(file.lastIndexOf('.') + 1)] ?? 'video/mp2t',
    });
    res.end(req.method === 'HEAD' ? undefined : data);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
