/**
 * Low-latency HLS, read beyond its playlist (rfc8216bis 6.2.5): one blocking playlist reload for the part after
 * the playlist's last (`_HLS_msn`/`_HLS_part`), timed; one playlist delta update (`_HLS_skip`) with the full
 * playlist read just before it; and at most `READ_PARTS` INDEPENDENT=YES parts downloaded (their byte ranges) and
 * read in-process. Reading only records what came back (model.ts, `lowLatency`); checks/llhls.ts judges it.
 */
import type * as HLS from 'hls-parser';
import { mediaFacts, UnreadableMedia } from './mediaFacts';
import type { IndependentPartProbe, LowLatencyProbe, MediaPlaylistModel } from './model';
import { parseAttributes } from './checks/tags';
import { ReadError, resolveUri, type Reader } from './source';

/** At most this many INDEPENDENT=YES parts per playlist are downloaded and read (the newest ones). */
export const READ_PARTS = 4;

export interface LowLatencyContext {
  readonly reader: Reader;
  readonly maxSegmentBytes: number;
  readonly signal?: AbortSignal;
  readonly parse: (text: string) => HLS.types.MasterPlaylist | HLS.types.MediaPlaylist | undefined;
}

/** Whether a playlist is one to probe: live, with parts (EXT-X-PART-INF). */
export function isLowLatency(p: MediaPlaylistModel): boolean {
  const pl = p.playlist;
  return pl !== undefined && !pl.endlist && pl.playlistType !== 'VOD' && pl.partTargetDuration !== undefined;
}

/** Asks the server what a low-latency player would, into `p.lowLatency`. */
export async function probeLowLatency(p: MediaPlaylistModel, ctx: LowLatencyContext): Promise<void> {
  const playlist = p.playlist!;
  const probe: LowLatencyProbe = {
    partTarget: playlist.partTargetDuration!,
    targetDuration: playlist.targetDuration,
    parts: [],
  };
  p.lowLatency = probe;
  const control = serverControl(p.text ?? '');
  probe.parts = await readIndependentParts(p, playlist, ctx);
  if (control.get('CAN-BLOCK-RELOAD') === 'YES') {
    const next = nextPart(playlist);
    if (next) probe.blocking = await blockingReload(p.address, next, ctx);
  }
  if (control.has('CAN-SKIP-UNTIL')) {
    probe.delta = await deltaUpdate(p.address, control.get('CAN-SKIP-DATERANGES') === 'YES' ? 'v2' : 'YES', ctx);
  }
}

function serverControl(text: string): Map<string, string> {
  const line = text.split(/\r?\n/).find((l) => l.startsWith('#EXT-X-SERVER-CONTROL:'));
  return line ? parseAttributes(line.slice(line.indexOf(':') + 1)) : new Map();
}

/** The part after the playlist's last one: the next of the segment in progress, or the first of the next. */
export function nextPart(playlist: HLS.types.MediaPlaylist): { msn: number; part: number } | undefined {
  const last = playlist.segments[playlist.segments.length - 1];
  if (!last) return undefined;
  const published = last.parts.filter((part) => !part.hint).length;
  return last.uri.trim() === ''
    ? { msn: last.mediaSequenceNumber, part: published }
    : { msn: last.mediaSequenceNumber + 1, part: 0 };
}

/**
 * Whether a playlist lists part `part` of segment `msn` or something later (rfc8216bis 6.2.5.2: a part index past
 * the segment's last means part 0 of the next segment).
 */
export function listsPart(playlist: HLS.types.MediaPlaylist, msn: number, part: number): boolean {
  return playlist.segments.some((s) => {
    const parts = s.parts.filter((x) => !x.hint).length;
    const complete = s.uri.trim() !== '';
    if (s.mediaSequenceNumber > msn) return complete || parts > 0;
    // A complete segment whose part tags are gone (far from the live edge) holds all of its parts.
    return s.mediaSequenceNumber === msn && (parts > part || (complete && parts === 0));
  });
}

/** The last segment and the number of its parts a playlist lists. */
function lastListed(playlist: HLS.types.MediaPlaylist): { msn: number; parts: number } | undefined {
  const last = playlist.segments[playlist.segments.length - 1];
  return last && { msn: last.mediaSequenceNumber, parts: last.parts.filter((x) => !x.hint).length };
}

function withDirectives(address: string, directives: Record<string, string>): string {
  const url = new URL(address);
  for (const [name, value] of Object.entries(directives)) url.searchParams.set(name, value);
  return url.href;
}

function failureOf(error: unknown): string {
  if (error instanceof ReadError) return error.status !== undefined ? `HTTP ${error.status}` : error.reason;
  throw error;
}

async function blockingReload(
  address: string,
  asked: { msn: number; part: number },
  ctx: LowLatencyContext,
): Promise<NonNullable<LowLatencyProbe['blocking']>> {
  const url = withDirectives(address, { _HLS_msn: String(asked.msn), _HLS_part: String(asked.part) });
  const started = Date.now();
  let text: string;
  try {
    // The reader's idle and read limits bound the wait: a server that holds past them gets no longer.
    text = await ctx.reader.text(url);
  } catch (error) {
    return { ...asked, waitedMs: Date.now() - started, failure: failureOf(error) };
  }
  const waitedMs = Date.now() - started;
  const answer = ctx.parse(text);
  if (!answer || answer.isMasterPlaylist) return { ...asked, waitedMs, failure: 'not a media playlist' };
  const upTo = lastListed(answer);
  return {
    ...asked,
    waitedMs,
    holdsAsked: listsPart(answer, asked.msn, asked.part),
    ...(upTo ? { answeredUpTo: upTo } : {}),
  };
}

async function deltaUpdate(
  address: string,
  skip: 'YES' | 'v2',
  ctx: LowLatencyContext,
): Promise<NonNullable<LowLatencyProbe['delta']>> {
  let fullText: string;
  try {
    fullText = await ctx.reader.text(address);
  } catch (error) {
    return { skip, fullText: '', failure: failureOf(error) };
  }
  const media = (text: string): HLS.types.MediaPlaylist | undefined => {
    const parsed = ctx.parse(text);
    return parsed && !parsed.isMasterPlaylist ? parsed : undefined;
  };
  const full = media(fullText);
  const read = { skip, fullText, ...(full ? { full } : {}) };
  try {
    const deltaText = await ctx.reader.text(withDirectives(address, { _HLS_skip: skip }));
    const delta = media(deltaText);
    return { ...read, deltaText, ...(delta ? { delta } : {}) };
  } catch (error) {
    return { ...read, failure: failureOf(error) };
  }
}

/** The newest INDEPENDENT=YES parts, each with its resource and byte range (an offset left out continues the last). */
function independentParts(playlist: HLS.types.MediaPlaylist): Array<{
  part: HLS.types.PartialSegment;
  segment: HLS.types.Segment;
  index: number;
  range?: { offset: number; length: number };
  map?: HLS.types.MediaInitializationSection;
}> {
  const found: ReturnType<typeof independentParts> = [];
  const ends = new Map<string, number>();
  let map: HLS.types.MediaInitializationSection | undefined;
  for (const segment of playlist.segments) {
    // EXT-X-MAP applies until the next one; hls-parser leaves it off the segment in progress (parts only).
    map = segment.map ?? map;
    segment.parts.forEach((part, index) => {
      if (part.hint) return;
      let range: { offset: number; length: number } | undefined;
      if (part.byterange) {
        const offset = part.byterange.offset ?? ends.get(part.uri) ?? 0;
        range = { offset, length: part.byterange.length };
        ends.set(part.uri, offset + part.byterange.length);
      }
      if (part.independent) found.push({ part, segment, index, ...(range ? { range } : {}), ...(map ? { map } : {}) });
    });
  }
  return found.slice(-READ_PARTS);
}

async function readIndependentParts(
  p: MediaPlaylistModel,
  playlist: HLS.types.MediaPlaylist,
  ctx: LowLatencyContext,
): Promise<IndependentPartProbe[]> {
  const out: IndependentPartProbe[] = [];
  const inits = new Map<string, Promise<Buffer>>();
  for (const { part, segment, index, range, map } of independentParts(playlist)) {
    const at = { uri: part.uri, msn: segment.mediaSequenceNumber, index };
    try {
      const chunk = await ctx.reader.read(resolveUri(part.uri, p.address), {
        maxBytes: ctx.maxSegmentBytes,
        ...(range ? { range } : {}),
      });
      let init: Buffer | undefined;
      if (map?.uri) {
        const mapAddress = resolveUri(map.uri, p.address);
        const mapRange = map.byterange;
        if (!inits.has(mapAddress)) {
          inits.set(
            mapAddress,
            ctx.reader
              .read(mapAddress, {
                maxBytes: ctx.maxSegmentBytes,
                ...(mapRange ? { range: { offset: mapRange.offset ?? 0, length: mapRange.length } } : {}),
              })
              .then((c) => c.data),
          );
        }
        init = await inits.get(mapAddress)!;
      }
      const media = await mediaFacts(chunk.data, {
        ...(init ? { init } : {}),
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
      out.push({ ...at, media: { hasVideo: media.video !== undefined, startsWithKeyframe: media.startsWithKeyframe } });
    } catch (error) {
      if (error instanceof UnreadableMedia) out.push({ ...at, failure: error.message });
      else out.push({ ...at, failure: failureOf(error) });
    }
  }
  return out;
}
