/**
 * A rendition of a platform's video fetched by its playback address into one local file, bounded in bytes: an MP4,
 * TS or FLV file as it is; an HLS playlist as its initialization section (EXT-X-MAP, fMP4) and its segments written
 * one after another (a TS or fMP4 stream that ffmpeg and the in-process reader read as one file). Only addresses of
 * the playlist's own origin are followed, and an encrypted playlist is refused (its key is the platform's).
 */
import { createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as HLS from 'hls-parser';
import type { TranscodedStream } from '../../api/types';
import { l10n } from '../../l10n/l10n';

/** One GET whose body is read as a stream (ProxyFetch.get in the extension, Node's fetch on the command line). */
export type FetchGet = (
  url: string,
  signal: AbortSignal,
) => Promise<{ readonly ok: boolean; readonly status: number; readonly body: unknown }>;

/** Most segments of one rendition fetched (120 s of 2 s segments is 60). */
const MAX_SEGMENTS = 1000;
/** A media playlist larger than this is not read. */
const MAX_PLAYLIST_BYTES = 1024 * 1024;

/** The address a rendition is fetched by: a single file first (MP4, TS, FLV), else its HLS playlist. */
export function playbackAddress(stream: TranscodedStream): { url: string; kind: 'file' | 'hls' } | undefined {
  const http = (url: string | null): url is string => typeof url === 'string' && /^https?:\/\//i.test(url);
  for (const url of [stream.mp4Url, stream.tsUrl, stream.flvUrl]) if (http(url)) return { url, kind: 'file' };
  return http(stream.hlsUrl) ? { url: stream.hlsUrl, kind: 'hls' } : undefined;
}

/** Bytes written so far into one file, against one limit. */
class Budget {
  used = 0;
  constructor(
    readonly limit: number,
    readonly label: string,
  ) {}

  counter(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        this.used += chunk.length;
        done(this.used > this.limit ? new Error(this.tooLarge()) : null, chunk);
      },
    });
  }

  tooLarge(): string {
    return l10n.t('{0} is larger than {1} MiB', this.label, Math.round(this.limit / 1024 ** 2));
  }
}

async function get(fetch: FetchGet, url: string, label: string, signal: AbortSignal): Promise<Readable> {
  const response = await fetch(url, signal);
  if (!response.ok || !response.body) throw new Error(l10n.t('{0} answered HTTP {1}', label, response.status));
  return Readable.fromWeb(response.body as never);
}

async function append(fetch: FetchGet, url: string, file: string, budget: Budget, signal: AbortSignal): Promise<void> {
  const body = await get(fetch, url, budget.label, signal);
  await pipeline(body, budget.counter(), createWriteStream(file, { flags: 'a' }), { signal });
}

async function playlistText(fetch: FetchGet, url: string, label: string, signal: AbortSignal): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of await get(fetch, url, label, signal)) {
    size += (chunk as Buffer).length;
    if (size > MAX_PLAYLIST_BYTES) throw new Error(l10n.t('{0}: the playlist is larger than 1 MiB', label));
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The playlist's files in playing order (initialization section first), each of the playlist's origin. */
function hlsFiles(text: string, url: string, label: string): string[] {
  const playlist = HLS.parse(text);
  if (playlist.isMasterPlaylist) throw new Error(l10n.t('{0}: a master playlist, not a rendition', label));
  const segments = (playlist as HLS.types.MediaPlaylist).segments;
  if (segments.some((s) => s.key && s.key.method !== 'NONE'))
    throw new Error(l10n.t('{0}: encrypted HLS is not measured', label));
  if (segments.length > MAX_SEGMENTS) throw new Error(l10n.t('{0}: more than {1} segments', label, MAX_SEGMENTS));
  const init = segments[0]?.map?.uri;
  const files = [...(init ? [init] : []), ...segments.map((s) => s.uri)].map((uri) => new URL(uri, url));
  const foreign = files.find((f) => f.origin !== new URL(url).origin);
  if (foreign) throw new Error(l10n.t('{0}: {1} is not of the playlist’s origin', label, foreign.href));
  return files.map((f) => f.href);
}

/** Fetches the rendition into `file` (created); at most `maxBytes` in all. */
export async function downloadRendition(
  fetch: FetchGet,
  stream: TranscodedStream,
  file: string,
  maxBytes: number,
  signal: AbortSignal,
): Promise<void> {
  const label = l10n.t('rendition "{0}"', stream.name);
  const address = playbackAddress(stream);
  if (!address) throw new Error(l10n.t('{0} has no http(s) playback address', label));
  const budget = new Budget(maxBytes, label);
  const files =
    address.kind === 'file'
      ? [address.url]
      : hlsFiles(await playlistText(fetch, address.url, label, signal), address.url, label);
  for (const url of files) await append(fetch, url, file, budget, signal);
}
