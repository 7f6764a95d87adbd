/**
 * Golden streams for the inspector's tests, made with ffmpeg (320x180 or less, a few seconds), and a tiny
 * loopback HTTP server that serves a folder (GET and HEAD) with routes that override files.
 */
import { createDecipheriv } from 'node:crypto';
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
}

const SIZES = ['320x180', '256x144', '160x90'];
const RATES = ['300k', '200k', '100k'];

/** An HLS ladder: master.m3u8, v0.m3u8..., with BANDWIDTH set to the measured peak (so declared right). */
export async function makeLadder(tools: MediaTools, dir: string, options: LadderOptions = {}): Promise<void> {
  const n = options.variants ?? 3;
  const gops = options.gops ?? Array<number>(n).fill(25);
  const split = SIZES.slice(0, n)
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
    'testsrc2=size=320x180:rate=25',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=44100',
    '-t',
    String(options.seconds ?? 4),
    '-filter_complex',
    `[0:v]split=${n}${SIZES.slice(0, n)
      .map((_, i) => `[s${i}]`)
      .join('')};${split}`,
  ];
  for (let i = 0; i < n; i++) args.push('-map', `[v${i}]`);
  for (let i = 0; i < n; i++) args.push('-map', '1:a');
  args.push('-c:v', 'libx264', '-preset', 'ultrafast', '-sc_threshold', '0', '-c:a', 'aac', '-b:a', '48k');
  for (let i = 0; i < n; i++) {
    args.push(`-g:v:${i}`, String(gops[i]), `-keyint_min:v:${i}`, String(gops[i]), `-b:v:${i}`, RATES[i]!);
  }
  args.push(
    '-f',
    'hls',
    '-hls_time',
    String(options.segmentSeconds ?? 1),
    '-hls_playlist_type',
    'vod',
    '-hls_flags',
    options.splitByTime ? 'independent_segments+split_by_time' : 'independent_segments',
    '-var_stream_map',
    Array.from({ length: n }, (_, i) => `v:${i},a:${i}`).join(' '),
    // ffmpeg 4.1 (the npm packages' build) crashes (SIGSEGV) writing a master playlist with -var_stream_map.
    ...(tools.source === 'npm' ? [] : ['-master_pl_name', 'master.m3u8']),
    '-hls_segment_filename',
    join(dir, 'v%v_%03d.ts'),
  );
  if (options.keyInfoFile) args.push('-hls_key_info_file', options.keyInfoFile);
  args.push(join(dir, 'v%v.m3u8'));
  await runTool(tools.ffmpeg, args, { timeoutMs: 120_000 });
  if (tools.source === 'npm') writeMaster(dir, n, options.keyInfoFile);
  declareMeasuredBandwidth(dir);
}

/**
 * The master playlist as ffmpeg writes it (BANDWIDTH set afterwards), for the ffmpeg that cannot: RESOLUTION from
 * the sizes asked for, the H.264 profile and level from the SPS of each variant's first segment (decrypted with
 * the key of the key info file: its IV, else media sequence 0), AAC-LC audio.
 */
function writeMaster(dir: string, n: number, keyInfoFile?: string): void {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:6'];
  for (let i = 0; i < n; i++) {
    let segment = readFileSync(join(dir, `v${i}_000.ts`));
    if (keyInfoFile) {
      const [, keyFile, ivText] = readFileSync(keyInfoFile, 'utf8').split('\n');
      const iv = ivText?.trim() ? Buffer.from(ivText.trim().replace(/^0x/i, ''), 'hex') : Buffer.alloc(16);
      const decipher = createDecipheriv('aes-128-cbc', readFileSync(keyFile!.trim()), iv);
      segment = Buffer.concat([decipher.update(segment), decipher.final()]);
    }
    let codec = 'avc1.42c00d';
    for (let at = 0; at + 6 < segment.length; at++) {
      if (segment[at] === 0 && segment[at + 1] === 0 && segment[at + 2] === 1 && (segment[at + 3]! & 0x1f) === 7) {
        codec = `avc1.${segment.subarray(at + 4, at + 7).toString('hex')}`;
        break;
      }
    }
    lines.push(`#EXT-X-STREAM-INF:BANDWIDTH=1,RESOLUTION=${SIZES[i]},CODECS="${codec},mp4a.40.2"`, `v${i}.m3u8`, '');
  }
  writeFileSync(join(dir, 'master.m3u8'), `${lines.join('\n')}\n`);
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
      'content-type': file.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t',
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
