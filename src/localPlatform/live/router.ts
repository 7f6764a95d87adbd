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
import { keyToken, keyTokenValid } from '../media/tokens';
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
    const [, channelId, name, ext] = m;
    const media = live.mediaOf(channelId);
    if (!media) {
      notFound(res, 'the channel is not live');
      return true;
    }
    const group = media.hlsGroups.find((g) => g.id === name);
    if (ext === 'm3u8' && group) {
      // The master is listed only once the children exist, so a player never gets a dead child.
      const text = await media.childPlaylist(group.id, 0);
      if (text === undefined) notFound(res, 'no segment yet: is a source delivering?');
      else sendText(req, res, master(group), 'm3u8');
      return true;
    }
    const child = /^(.+)-(\d{1,3})$/.exec(name);
    if (ext === 'm3u8' && child) {
      const g = media.hlsGroups.find((x) => x.id === child[1]);
      const n = Number(child[2]);
      const text = g && n >= 1 && n <= g.renditions.length ? await media.childPlaylist(g.id, n - 1) : undefined;
      if (text === undefined) notFound(res, g ? 'not available (yet)' : 'no such playlist');
      else sendText(req, res, withKeyTokens(text, `/live/hls/${channelId}/`), 'm3u8');
      return true;
    }
    if (ext === 'key' && !media.hlsGroups.some((g) => g.id === name && g.encrypted)) {
      notFound(res, 'no such key');
      return true;
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
      return true;
    }
    const file = ext === 'm3u8' ? undefined : media.mediaFile(name, ext as 'ts' | 'key');
    if (!file) notFound(res, ext === 'm3u8' ? 'no such playlist' : 'no such segment');
    else if (typeof file === 'string') await sendFile(req, res, file, ext);
    else sendBytes(req, res, file, ext);
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

function master(group: {
  id: string;
  renditions: { width: number; height: number; videoBitrate: number; audioBitrate: number; frameRate: number }[];
}): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS'];
  group.renditions.forEach((r, i) => {
    const bandwidth = Math.round((r.videoBitrate + (r.audioBitrate || 64)) * 1000 * 1.1);
    lines.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${bandwidth},AVERAGE-BANDWIDTH=${Math.round(bandwidth / 1.1)},RESOLUTION=${r.width}x${r.height}${r.frameRate ? `,FRAME-RATE=${r.frameRate.toFixed(3)}` : ''}`,
      `${group.id}-${i + 1}.m3u8`,
    );
  });
  return `${lines.join('\n')}\n`;
}
