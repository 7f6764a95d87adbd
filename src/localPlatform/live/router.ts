/**
 * GET/HEAD `/live/...` of the platform's HTTP port (addresses.ts names them):
 *   /live/<stream>.flv                           HTTP-FLV of the incoming stream (node-media-server)
 *   /live/thumbnail/<channelId>.jpg              the picture, refreshed every few seconds
 *   /live/hls/<channelId>/<groupId>.m3u8         master playlist (written here, from the templates)
 *   /live/hls/<channelId>/<groupId>-<n>.m3u8     child n (1-based, template order)
 *   /live/hls/<channelId>/<file>.ts | <group>.key segments and the AES-128 key
 * A key is served only with the short-lived token that the child playlist's key address carries, written in
 * each time the playlist is served (media/tokens.ts, as for on-demand keys): a key fetched alone is refused.
 * Names are matched against fixed patterns and files are read only from the channel's own folder, so
 * no request names a path. Every answer carries `Access-Control-Allow-Origin: *` (web players).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultHook } from '../faults/board';
import type { Served } from '../faults/match';
import { keyToken, keyTokenValid } from '../media/tokens';
import type { LiveChannel } from './liveChannel';
import type { LiveMedia } from './liveMedia';

const NAME = '[A-Za-z0-9_-]{1,64}';
const FLV = new RegExp(`^/live/(${NAME})\\.flv$`);
const THUMB = new RegExp(`^/live/thumbnail/(${NAME})\\.jpg$`);
const HLS = new RegExp(`^/live/hls/(${NAME})/(${NAME})\\.(m3u8|ts|key)$`);

const TYPES: Record<string, string> = {
  m3u8: 'application/vnd.apple.mpegurl',
  ts: 'video/mp2t',
  key: 'application/octet-stream',
  jpg: 'image/jpeg',
};

function notFound(res: ServerResponse, why: string): void {
  const body = `${why}\n`;
  res.writeHead(404, {
    'Content-Type': 'text/plain;charset=UTF-8',
    'Content-Length': Buffer.byteLength(body),
    'Access-Control-Allow-Origin': '*',
  });
  res.end(body);
}

async function sendFile(req: IncomingMessage, res: ServerResponse, file: string, type: string): Promise<void> {
  let size: number;
  try {
    const s = await stat(file);
    if (!s.isFile()) throw new Error('not a file');
    size = s.size;
  } catch {
    notFound(res, 'not available (yet)');
    return;
  }
  res.writeHead(200, {
    'Content-Type': TYPES[type],
    'Content-Length': size,
    'Cache-Control': type === 'ts' ? 'max-age=60' : 'no-cache',
    'Access-Control-Allow-Origin': '*',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}

function sendBytes(req: IncomingMessage, res: ServerResponse, bytes: Buffer, type: string): void {
  res.writeHead(200, {
    'Content-Type': TYPES[type],
    'Content-Length': bytes.length,
    'Cache-Control': 'max-age=60',
    'Access-Control-Allow-Origin': '*',
  });
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

function sendText(req: IncomingMessage, res: ServerResponse, text: string, type: string): void {
  res.writeHead(200, {
    'Content-Type': TYPES[type],
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-cache',
    'Access-Control-Allow-Origin': '*',
  });
  res.end(req.method === 'HEAD' ? undefined : text);
}

/** Answers a `/live/...` request; false when the path is not one of these (the caller goes on). */
export async function serveLive(
  live: LiveMedia,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  faults?: FaultHook,
): Promise<boolean> {
  if (!path.startsWith('/live/')) return false;
  req.resume();
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD', 'Access-Control-Allow-Origin': '*' });
    res.end();
    return true;
  }
  let m = THUMB.exec(path);
  if (m) {
    const media = live.mediaOf(m[1]);
    if (!media?.thumbnailReady) notFound(res, media ? 'no picture yet' : 'the channel is not live');
    else await sendFile(req, res, media.thumbnailFile, 'jpg');
    return true;
  }
  m = HLS.exec(path);
  if (m) {
    const media = live.mediaOf(m[1]);
    if (!media) {
      notFound(res, 'the channel is not live');
      return true;
    }
    // Stream faults (src/localPlatform/faults/) see the answer first when a profile names this channel.
    const served = faults && servedOf(media, m[2], m[3], path);
    if (faults && served)
      await faults.serve(req, res, media.store, served, (out) => serveHls(media, req, out, path, m!));
    else await serveHls(media, req, res, path, m);
    return true;
  }
  m = FLV.exec(path);
  if (m) {
    const media = live.mediaOfStream(m[1]);
    if (!media?.publishing) notFound(res, 'the stream has no source now');
    else if (req.method === 'HEAD') {
      res.writeHead(200, { 'Content-Type': 'video/x-flv', 'Access-Control-Allow-Origin': '*' });
      res.end();
    } else live.rtmp.playFlv(req, res, m[1]);
    return true;
  }
  notFound(res, 'no such live address');
  return true;
}

/** What a stream fault needs to know of an HLS answer: the channel, which file, its variant and segment number. */
function servedOf(media: LiveChannel, name: string, ext: string, path: string): Served | undefined {
  const ch = media.channelRecord();
  if (!ch) return undefined;
  const item = { kind: 'channel' as const, id: ch.id, name: ch.name };
  const variantsOf = (groupId: string) =>
    (media.hlsGroups.find((g) => g.id === groupId)?.renditions ?? []).map((r, i) => ({
      index: i + 1,
      width: r.width,
      height: r.height,
      videoBitrate: r.videoBitrate,
    }));
  if (ext === 'key') return { item, file: 'key', path };
  if (ext === 'm3u8' && media.hlsGroups.some((g) => g.id === name)) {
    return { item, file: 'master', path, variants: variantsOf(name) };
  }
  // Children are `<group>-<n>`; segments `<group>_<n - 1>_<media sequence>` (ladder.ts, patternLoop.ts).
  const child = ext === 'm3u8' ? /^(.+)-(\d{1,3})$/.exec(name) : /^(.+)_(\d{1,3})_(\d{1,15})$/.exec(name);
  if (!child) return undefined;
  const n = ext === 'm3u8' ? Number(child[2]) : Number(child[2]) + 1;
  const variant = variantsOf(child[1])[n - 1];
  if (ext === 'm3u8') return { item, file: 'playlist', path, variant };
  return { item, file: 'segment', path, variant, sequence: Number(child[3]) };
}

async function serveHls(
  media: LiveChannel,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  m: RegExpExecArray,
): Promise<void> {
  const [, channelId, name, ext] = m;
  const group = media.hlsGroups.find((g) => g.id === name);
  if (ext === 'm3u8' && group) {
    // The master is listed only once the children exist, so a player never gets a dead child.
    const text = await media.childPlaylist(group.id, 0);
    if (text === undefined) notFound(res, 'no segment yet: is a source delivering?');
    else {
      const ch = media.channelRecord();
      const source = { frameRate: ch?.streamFrameRate ?? 0, audio: ch?.streamAudioBitrate != null };
      const rates = await Promise.all(group.renditions.map((_, i) => measuredRates(media, group.id, i)));
      sendText(req, res, master(group, source, rates), 'm3u8');
    }
    return;
  }
  const child = /^(.+)-(\d{1,3})$/.exec(name);
  if (ext === 'm3u8' && child) {
    const g = media.hlsGroups.find((x) => x.id === child[1]);
    const n = Number(child[2]);
    const text = g && n >= 1 && n <= g.renditions.length ? await media.childPlaylist(g.id, n - 1) : undefined;
    if (text === undefined) notFound(res, g ? 'not available (yet)' : 'no such playlist');
    else sendText(req, res, withKeyTokens(text, `/live/hls/${channelId}/`), 'm3u8');
    return;
  }
  if (ext === 'key' && !media.hlsGroups.some((g) => g.id === name && g.encrypted)) {
    notFound(res, 'no such key');
    return;
  }
  if (ext === 'key' && !keyTokenValid(path, tokenOf(req), Date.now())) {
    const body =
      'an AES-128 key is served only through the address its playlist names (token missing, wrong or expired)\n';
    res.writeHead(403, {
      'Content-Type': 'text/plain;charset=UTF-8',
      'Content-Length': Buffer.byteLength(body),
      'Access-Control-Allow-Origin': '*',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  const file = ext === 'm3u8' ? undefined : media.mediaFile(name, ext as 'ts' | 'key');
  if (!file) notFound(res, ext === 'm3u8' ? 'no such playlist' : 'no such segment');
  else if (typeof file === 'string') await sendFile(req, res, file, ext);
  else sendBytes(req, res, file, ext);
}

function tokenOf(req: IncomingMessage): string | null {
  return new URL(req.url ?? '/', 'http://host').searchParams.get('token');
}

/** The child playlist with each key address it names (relatively, `<group>.key`) given a token for `folder`. */
function withKeyTokens(text: string, folder: string): string {
  const now = Date.now();
  return text.replace(
    new RegExp(`URI="(${NAME}\\.key)"`, 'g'),
    (_, name: string) => `URI="${name}?token=${keyToken(`${folder}${name}`, now)}"`,
  );
}

/**
 * H.264 levels (ITU-T H.264 Table A-1): level_idc, largest frame (macroblocks), macroblocks per second, and
 * bit rate (kbit/s, Baseline/Main; High allows 1.25 times). x264 picks the lowest level that fits, as here.
 */
const H264_LEVELS: [number, number, number, number][] = [
  [10, 99, 1485, 64],
  [11, 396, 3000, 192],
  [12, 396, 6000, 384],
  [13, 396, 11880, 768],
  [20, 396, 11880, 2000],
  [21, 792, 19800, 4000],
  [22, 1620, 20250, 4000],
  [30, 1620, 40500, 10000],
  [31, 3600, 108000, 14000],
  [32, 5120, 216000, 20000],
  [40, 8192, 245760, 20000],
  [41, 8192, 245760, 50000],
  [42, 8704, 522240, 50000],
  [50, 22080, 589824, 135000],
  [51, 36864, 983040, 240000],
  [52, 36864, 2073600, 240000],
];

/**
 * The CODECS of a rendition as the ladder encodes it (ladder.ts, patternLoop.ts): libx264 in yuv420p is High
 * profile (avc1.64), at the level its size, frame rate and maxrate need; audio AAC-LC (mp4a.40.2) when the
 * channel's source has audio.
 */
export function renditionCodecs(
  r: { width: number; height: number; videoBitrate: number },
  fps: number,
  audio: boolean,
): string {
  const mbs = Math.ceil(r.width / 16) * Math.ceil(r.height / 16);
  const level =
    H264_LEVELS.find(
      ([, fs, mbps, br]) =>
        mbs <= fs &&
        mbs * fps <= mbps &&
        r.videoBitrate <= br * 1.25 &&
        Math.max(Math.ceil(r.width / 16), Math.ceil(r.height / 16)) <= Math.sqrt(fs * 8),
    )?.[0] ?? 52;
  const video = `avc1.6400${level.toString(16).padStart(2, '0')}`;
  return audio ? `${video},mp4a.40.2` : video;
}

/** Bit rates a rendition's listed segments measure (b/s): size × 8 / EXTINF, as players and the inspector do. */
interface MeasuredRates {
  average: number;
  peak: number;
}

const SEGMENT_URI = new RegExp(`^(${NAME})\\.ts$`);

/**
 * What the segments child playlist `n` lists now measure; undefined while none is listed. A segment removed
 * between the playlist and its size (the window moved on) is left out.
 */
async function measuredRates(media: LiveChannel, groupId: string, n: number): Promise<MeasuredRates | undefined> {
  const text = await media.childPlaylist(groupId, n);
  if (text === undefined) return undefined;
  let seconds = 0;
  let bits = 0;
  let peak = 0;
  let extinf = NaN;
  for (const line of text.split('\n')) {
    if (line.startsWith('#EXTINF:')) extinf = parseFloat(line.slice(8));
    const name = SEGMENT_URI.exec(line)?.[1];
    if (!name || !(extinf > 0)) continue;
    const size = await segmentSize(media.mediaFile(name, 'ts'));
    if (size === undefined) continue;
    seconds += extinf;
    bits += size * 8;
    peak = Math.max(peak, (size * 8) / extinf);
  }
  return seconds > 0 ? { average: Math.round(bits / seconds), peak: Math.ceil(peak) } : undefined;
}

async function segmentSize(file: string | Buffer | undefined): Promise<number | undefined> {
  if (file === undefined || Buffer.isBuffer(file)) return file?.length;
  return stat(file).then(
    (s) => s.size,
    () => undefined,
  );
}

/**
 * BANDWIDTH is the peak and AVERAGE-BANDWIDTH the average that the listed segments measure (RFC 8216 4.3.4.2):
 * a looped test pattern averages well under its template's bit rate, and an encoder's rate control strays from
 * it. A rendition with no segment yet declares its template's rate with 10 % headroom, and no average.
 */
function master(
  group: {
    id: string;
    renditions: { width: number; height: number; videoBitrate: number; audioBitrate: number; frameRate: number }[];
  },
  source: { frameRate: number; audio: boolean },
  measured: readonly (MeasuredRates | undefined)[],
): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS'];
  group.renditions.forEach((r, i) => {
    const rates = measured[i];
    const bandwidth = rates
      ? `BANDWIDTH=${rates.peak},AVERAGE-BANDWIDTH=${rates.average}`
      : `BANDWIDTH=${Math.round((r.videoBitrate + (r.audioBitrate || 64)) * 1000 * 1.1)}`;
    // The frame rate the ladder encodes: the template's, else the source's, else 25 (ladder.ts).
    const fps = r.frameRate || source.frameRate || 25;
    lines.push(
      `#EXT-X-STREAM-INF:${bandwidth},RESOLUTION=${r.width}x${r.height},FRAME-RATE=${fps.toFixed(3)},CODECS="${renditionCodecs(r, fps, source.audio)}"`,
      `${group.id}-${i + 1}.m3u8`,
    );
  });
  return `${lines.join('\n')}\n`;
}
