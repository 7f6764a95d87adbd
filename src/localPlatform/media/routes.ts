/**
 * The media files the platform lists, served over HTTP beside `/rest`: renditions, covers,
 * thumbnails and keys below `/vod/<videoId>/`, logo images below `/logo/`. GET and HEAD, single
 * byte ranges (206 / 416), CORS for browser players. Anything else is 404; a request path never
 * names a file by itself (media/files.ts).
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname } from 'node:path';
import type { Account } from '../actions/context';
import { isHexId } from '../store/ids';
import { mediaRoot, servedFile } from './files';
import { keyToken, keyTokenValid } from './tokens';

const TYPES: Record<string, string> = {
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.ts': 'video/mp2t',
  '.mp4': 'video/mp4',
  '.flv': 'video/x-flv',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.key': 'application/octet-stream',
};

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
  'Access-Control-Allow-Headers': 'Range',
  'Access-Control-Expose-Headers': 'Content-Length, Content-Range, Accept-Ranges',
};

export interface MediaRouteContext {
  accounts: Iterable<{ account: Account; dir: string }>;
}

/** True when the path is one of the media routes (then `serveMedia` answers it). */
export function isMediaPath(path: string): boolean {
  return path.startsWith('/vod/') || path.startsWith('/logo/');
}

function notFound(res: ServerResponse, what: string): void {
  const body = `not found: ${what}\n`;
  res.writeHead(404, {
    ...CORS,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** Raw path segments, decoded one by one: an encoded `/` or `..` stays inside its segment (and is refused). */
function segmentsOf(path: string, prefix: string): string[] | undefined {
  try {
    return path
      .slice(prefix.length)
      .split('/')
      .map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}

async function locate(ctx: MediaRouteContext, rawPath: string): Promise<string | undefined> {
  if (rawPath.startsWith('/vod/')) {
    const segments = segmentsOf(rawPath, '/vod/');
    if (!segments || segments.length < 2 || !isHexId(segments[0])) return undefined;
    // The source is kept, never served; everything else the platform wrote below the video is.
    if (segments[1] === 'source') return undefined;
    for (const { account, dir } of ctx.accounts) {
      if (!account.store.get('videos', segments[0])) continue;
      return servedFile(mediaRoot(dir), segments);
    }
    return undefined;
  }
  const segments = segmentsOf(rawPath, '/logo/');
  if (!segments) return undefined;
  for (const { dir } of ctx.accounts) {
    const file = await servedFile(mediaRoot(dir), ['logos', ...segments]);
    if (file) return file;
  }
  return undefined;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * `playCode.previewUrl` (`/vod/<videoId>/preview`): a page with a player for the default MP4
 * rendition (browsers play MP4 natively; HLS needs a script player, so it is linked). Undefined when
 * the path is not a preview of a video of this platform.
 */
function previewPage(ctx: MediaRouteContext, rawPath: string): string | undefined {
  const m = /^\/vod\/([0-9a-f]{32})\/preview$/.exec(rawPath);
  if (!m) return undefined;
  for (const { account } of ctx.accounts) {
    const video = account.store.get('videos', m[1]);
    if (!video) continue;
    const full = video.streams.filter((s) => s.type === 0);
    const main = full.find((s) => s.defaultVideo === 1 && s.mp4Path) ?? full.find((s) => s.mp4Path);
    const hls = full.find((s) => s.hlsPath);
    const title = escapeHtml(video.title);
    // The cover only where it exists (a broken picture otherwise).
    const poster = video.covers ? ` poster="/vod/${video.id}/cover.jpg"` : '';
    const player = main?.mp4Path
      ? `<video controls preload="metadata"${poster} src="${escapeHtml(main.mp4Path)}" style="max-width:100%"></video>`
      : video.covers
        ? `<img src="/vod/${video.id}/cover.jpg" alt="" style="max-width:100%">`
        : `<p style="padding:1em">${title}: no picture or playable rendition yet</p>`;
    const link = hls?.hlsPath ? `<p><a href="${escapeHtml(hls.hlsPath)}">HLS playlist</a></p>` : '';
    return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body style="margin:0;background:#000;color:#ccc;font-family:sans-serif">${player}${link}</body></html>`;
  }
  return undefined;
}

function tokenOf(req: IncomingMessage): string | null {
  return new URL(req.url ?? '/', 'http://host').searchParams.get('token');
}

/**
 * A playlist, with each key address it names relatively given a token (tokens.ts): the one way to
 * read the key. Served whole (playlists are small; a Range is ignored, as RFC 9110 allows).
 */
async function servePlaylist(req: IncomingMessage, res: ServerResponse, file: string, rawPath: string): Promise<void> {
  const now = Date.now();
  const text = (await readFile(file, 'utf8')).replace(
    /URI="([A-Za-z0-9_][A-Za-z0-9._-]*\.key)"/g,
    (_, name: string) => {
      const keyPath = `${rawPath.slice(0, rawPath.lastIndexOf('/') + 1)}${name}`;
      return `URI="${name}?token=${keyToken(keyPath, now)}"`;
    },
  );
  res.writeHead(200, {
    ...CORS,
    'Content-Type': TYPES['.m3u8'],
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-cache',
  });
  res.end(req.method === 'HEAD' ? undefined : text);
}

/** Answers a media request (GET, HEAD, OPTIONS). */
export async function serveMedia(
  ctx: MediaRouteContext,
  req: IncomingMessage,
  res: ServerResponse,
  rawPath: string,
): Promise<void> {
  req.resume();
  if (req.method === 'OPTIONS') {
    res.writeHead(204, { ...CORS, 'Access-Control-Max-Age': '600' });
    res.end();
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { ...CORS, Allow: 'GET, HEAD, OPTIONS', 'Content-Length': 0 });
    res.end();
    return;
  }
  const preview = previewPage(ctx, rawPath);
  if (preview !== undefined) {
    res.writeHead(200, {
      ...CORS,
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': Buffer.byteLength(preview),
      'Content-Security-Policy': "default-src 'none'; media-src 'self'; img-src 'self'; style-src 'unsafe-inline'",
    });
    res.end(req.method === 'HEAD' ? undefined : preview);
    return;
  }
  const file = await locate(ctx, rawPath);
  if (!file) return notFound(res, rawPath.slice(0, 200));
  if (file.endsWith('.key') && !keyTokenValid(rawPath, tokenOf(req), Date.now())) {
    const body =
      'an AES-128 key is served only through the address its playlist names (token missing, wrong or expired)\n';
    res.writeHead(403, {
      ...CORS,
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  if (file.endsWith('.m3u8')) return servePlaylist(req, res, file, rawPath);
  const info = await stat(file);
  const size = info.size;
  const headers: Record<string, string | number> = {
    ...CORS,
    'Content-Type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'Accept-Ranges': 'bytes',
    'Last-Modified': info.mtime.toUTCString(),
    'Cache-Control': 'no-cache',
  };
  let start = 0;
  let end = size - 1;
  let status = 200;
  const range = req.headers.range;
  if (range !== undefined) {
    const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    // A malformed or multi-range header is ignored (the whole file), as RFC 9110 allows.
    if (m && (m[1] !== '' || m[2] !== '')) {
      if (m[1] === '') {
        start = Math.max(0, size - Number(m[2]));
      } else {
        start = Number(m[1]);
        if (m[2] !== '') end = Math.min(end, Number(m[2]));
      }
      if (start >= size || start > end || (m[1] === '' && Number(m[2]) === 0)) {
        res.writeHead(416, { ...headers, 'Content-Range': `bytes */${size}`, 'Content-Length': 0 });
        res.end();
        return;
      }
      status = 206;
      headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
    }
  }
  headers['Content-Length'] = size === 0 ? 0 : end - start + 1;
  res.writeHead(status, headers);
  if (req.method === 'HEAD' || size === 0) {
    res.end();
    return;
  }
  const stream = createReadStream(file, { start, end });
  stream.on('error', () => res.destroy());
  res.on('close', () => stream.destroy());
  stream.pipe(res);
}
