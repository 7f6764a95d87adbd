/**
 * HLS: reading a master playlist's variants and renditions (or one media playlist) into the stream model
 * (model.ts), then the registered checks (registry.ts, checks/) over it, then the report's rows.
 *
 * What is read: every playlist (at most `maxPlaylistBytes` / `maxPlaylistLines`): the master, each variant, each
 * EXT-X-MEDIA rendition with a URI and each I-frame playlist; the size of at most `SIZED_SEGMENTS` segments per
 * variant by HEAD (Content-Length), or a file's size, 8 at a time (all of them when there are no more, else spread
 * evenly); and at most `READ_SEGMENTS` segments per variant and audio rendition (every segment when there are no
 * more, else spread evenly, the first and the last included), at most `maxSegmentBytes` of each (a Range request),
 * decrypted when AES-128, and read in-process (src/media/read.ts) for codecs, picture, timestamps and keyframes.
 * Live playlists are read again every half target duration (RFC 8216 6.3.4) for `liveSeconds`, never past the
 * run's deadline. Reading records what it found; it judges only what it could not read.
 */
import { createDecipheriv } from 'node:crypto';
import type * as HLS from 'hls-parser';
import { l10n } from '../l10n/l10n';
import './checks/index';
import { leadingType } from './checks/media';
import { liveEdgeSeconds } from './checks/live';
import { isLowLatency, probeLowLatency, READ_PARTS } from './lowLatency';
import { finding, type Finding } from './findings';
import { measure } from './measures';
import { mediaFacts, UnreadableMedia, type MediaFacts } from './mediaFacts';
import {
  isLive,
  mediaSpan,
  type Declared,
  type MediaPlaylistModel,
  type PlaylistRole,
  type StreamModel,
} from './model';
import { runChecks } from './registry';
import type { VariantRow } from './report';
import { ReadError, displayAddress, mapLimit, resolveUri, type Reader } from './source';

let parser: typeof HLS | undefined;

/**
 * hls-parser, loaded on the first playlist read: the extension's bundle keeps it in a file of its own
 * (scripts/build.mjs), so that activation does not load it.
 */
function hlsParser(): typeof HLS {
  if (!parser) {
    parser = require('hls-parser') as typeof HLS;
    parser.setOptions({ silent: true, strictMode: false });
  }
  return parser;
}

/** At most this many segments per variant are sized (HEAD) for the bandwidth figures; the rest are sampled. */
export const SIZED_SEGMENTS = 200;
/** At most this many segments per variant or audio rendition are downloaded and read as media. */
export const READ_SEGMENTS = 30;
/** Live playlists are watched at most this long unless asked for more (`liveSeconds`). */
export const LIVE_SECONDS_CAP = 60;

export interface HlsContext {
  readonly reader: Reader;
  /** How long to watch a live playlist (s); undefined: 3 target durations, at least 10 s, at most 60 s; 0: read once. */
  readonly liveSeconds: number | undefined;
  /** At most this much of a segment is read (bytes). */
  readonly maxSegmentBytes: number;
  /** When the run must end (ms on `now`'s clock): live watching stops before it. */
  readonly deadlineAt: number;
  readonly signal?: AbortSignal;
  readonly now: () => number;
  readonly progress: (text: string) => void;
  readonly counters: { segmentsProbed: number; reloads: number; liveEdgeSeconds?: number; watchedSeconds?: number };
}

export function parsePlaylist(text: string): HLS.types.MasterPlaylist | HLS.types.MediaPlaylist | undefined {
  try {
    return hlsParser().parse(text) as HLS.types.MasterPlaylist | HLS.types.MediaPlaylist;
  } catch {
    return undefined;
  }
}

export async function inspectHls(
  address: string,
  text: string,
  ctx: HlsContext,
): Promise<{
  kind: 'hls-master' | 'hls-media';
  live: boolean;
  variants: VariantRow[];
  findings: Finding[];
  notChecked: string[];
}> {
  const { model, findings } = await readStream(address, text, ctx);
  findings.push(...runChecks({ ...model, checkedAt: ctx.now() }));
  for (const p of model.playlists) {
    if (!p.playlist || !isLive(p) || p.readAt === undefined) continue;
    const edge = liveEdgeSeconds(p.playlist, p.readAt);
    if (edge !== undefined) {
      ctx.counters.liveEdgeSeconds = Math.max(ctx.counters.liveEdgeSeconds ?? -Infinity, round3(edge));
    }
  }
  const shown = model.playlists.filter((p) => p.role === 'variant');
  return {
    kind: model.master ? 'hls-master' : 'hls-media',
    live: shown.some((p) => isLive(p)),
    variants: shown.map(variantRow),
    findings,
    notChecked: notChecked(model),
  };
}

/** What this run did not read or judge, in words: a clean report says no more than was checked. */
export function notChecked(model: StreamModel): string[] {
  const out: string[] = [];
  for (const p of model.playlists) {
    const read = p.segments.filter((s) => s.media).length;
    if (p.segments.length > READ_SEGMENTS && (p.role === 'variant' || p.role === 'audio')) {
      out.push(
        l10n.t(
          '{0}: {1} of {2} segments read as media (the others only sized or listed)',
          p.name,
          read,
          p.segments.length,
        ),
      );
    }
  }
  const roles = new Set(model.playlists.map((p) => p.role));
  if (roles.has('subtitles')) out.push(l10n.t('subtitle renditions: playlists read, cues not read'));
  if (model.playlists.some((p) => p.role === 'iframe' && !p.allSized)) {
    out.push(l10n.t('I-frame playlists without byte ranges: their BANDWIDTH not measured'));
  }
  if (model.playlists.some((p) => p.text?.includes('#EXT-X-PART') && !p.lowLatency)) {
    out.push(
      l10n.t(
        'low-latency HLS without a live edge (EXT-X-ENDLIST or VOD): partial segments not downloaded, blocking reloads (_HLS_msn, _HLS_part) and delta updates (_HLS_skip) not requested',
      ),
    );
  }
  if (model.playlists.some((p) => p.lowLatency)) {
    out.push(
      l10n.t(
        'low-latency HLS: per live playlist one blocking reload for the next part, one delta update when CAN-SKIP-UNTIL is offered, and the newest {0} INDEPENDENT parts read; other parts not downloaded',
        READ_PARTS,
      ),
    );
  }
  if (model.playlists.some((p) => p.delivery) || model.master?.delivery) {
    out.push(l10n.t('CORS: read without an Origin header (a server may answer browsers differently)'));
  }
  return out;
}

/** Reads the whole stream into its model; the findings are what could not be read. */
export async function readStream(
  address: string,
  text: string,
  ctx: HlsContext,
): Promise<{ model: StreamModel; findings: Finding[] }> {
  const findings: Finding[] = [];
  const playlist = parsePlaylist(text);
  const base = { address, checkedAt: 0, segmentsReadPerPlaylist: READ_SEGMENTS };
  const delivery = ctx.reader.delivery(address);
  if (!playlist) return { model: { ...base, playlists: [] }, findings };
  if (!playlist.isMasterPlaylist) {
    const name = displayAddress(address).split('/').pop() ?? address;
    const p = newPlaylist(name, address, 'variant', {}, false);
    if (delivery) p.delivery = delivery;
    findings.push(...(await readPlaylist(p, ctx, text)));
    return { model: { ...base, playlists: [p] }, findings };
  }
  const list: MediaPlaylistModel[] = [];
  for (const v of playlist.variants) {
    const declared: Declared = {
      bandwidth: v.bandwidth,
      ...(v.averageBandwidth ? { averageBandwidth: v.averageBandwidth } : {}),
      ...(v.resolution ? { resolution: `${v.resolution.width}x${v.resolution.height}` } : {}),
      ...(v.codecs ? { codecs: v.codecs } : {}),
      ...(v.frameRate ? { frameRate: v.frameRate } : {}),
      ...(v.audio.some((a) => a.uri) ? { externalAudio: true } : {}),
    };
    list.push(newPlaylist(v.uri, resolveUri(v.uri, address), v.isIFrameOnly ? 'iframe' : 'variant', declared, true));
  }
  // Renditions with their own playlist, each once (a group is named by several variants).
  const renditions = new Map<string, MediaPlaylistModel>();
  for (const v of playlist.variants) {
    for (const r of [...v.audio, ...v.video, ...v.subtitles]) {
      if (!r.uri || renditions.has(r.uri) || list.some((p) => p.name === r.uri)) continue;
      const role: PlaylistRole = r.type === 'AUDIO' ? 'audio' : r.type === 'SUBTITLES' ? 'subtitles' : 'video';
      renditions.set(r.uri, newPlaylist(r.uri, resolveUri(r.uri, address), role, {}, true, r.groupId));
    }
  }
  list.push(...renditions.values());
  const results = await mapLimit(list, 3, (p) => readPlaylist(p, ctx));
  for (const r of results) findings.push(...r);
  return {
    model: { ...base, master: { text, playlist, ...(delivery ? { delivery } : {}) }, playlists: list },
    findings,
  };
}

function newPlaylist(
  name: string,
  address: string,
  role: PlaylistRole,
  declared: Declared,
  viaMaster: boolean,
  group?: string,
): MediaPlaylistModel {
  return { name, address, role, declared, viaMaster, segments: [], reloads: [], ...(group ? { group } : {}) };
}

/** The finding for a failed read: refused by the scheme rule, past a size limit, or unreadable. */
function readCode(error: ReadError): 'INPUT-REFUSED' | 'INPUT-TOO-LARGE' | 'INPUT-UNREADABLE' {
  return error.limit === 'refused'
    ? 'INPUT-REFUSED'
    : error.limit === 'too-large'
      ? 'INPUT-TOO-LARGE'
      : 'INPUT-UNREADABLE';
}

/** At most `limit` indexes out of `count`, spread evenly, the first and the last included. */
export function spreadIndexes(count: number, limit: number): number[] {
  if (count <= limit) return Array.from({ length: count }, (_, i) => i);
  return [...new Set(Array.from({ length: limit }, (_, i) => Math.round((i * (count - 1)) / (limit - 1))))];
}

/** Reads one media playlist into `p`: its text, its segments' sizes and media, its live reloads. */
async function readPlaylist(p: MediaPlaylistModel, ctx: HlsContext, alreadyRead?: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  const name = p.name;
  let text: string;
  try {
    text = alreadyRead ?? (await ctx.reader.text(p.address));
    // When the playlist was read: the live edge is measured from then, not after the reading of segments.
    p.readAt = ctx.now();
  } catch (error) {
    if (!(error instanceof ReadError)) throw error;
    findings.push(finding(readCode(error), l10n.t('The media playlist {0}.', error.message), { variant: name }));
    return findings;
  }
  p.text = text;
  const delivery = ctx.reader.delivery(p.address);
  if (delivery && alreadyRead === undefined) p.delivery = delivery;
  const playlist = parsePlaylist(text);
  if (!playlist || playlist.isMasterPlaylist) {
    if (playlist?.isMasterPlaylist) {
      findings.push(
        finding('HLS-TAG-MISPLACED', l10n.t('A variant points at another master playlist, not a media playlist.'), {
          variant: name,
        }),
      );
    }
    return findings;
  }
  p.playlist = playlist;
  ctx.progress(l10n.t('reading {0}', name));
  // An EXTINF without a URI names no segment (hls-parser gives it an empty URI, which would resolve to the
  // playlist itself): the text checks report it, nothing is read for it.
  const segments = playlist.segments.filter((seg) => seg.uri.trim() !== '');
  p.segments = segments.map((seg) => ({
    uri: seg.uri,
    sequence: seg.mediaSequenceNumber,
    duration: seg.duration,
    discontinuity: seg.discontinuity === true,
  }));
  if (p.role === 'iframe') {
    // An I-frame playlist names byte ranges of the video segments: their sizes are in its text.
    segments.forEach((seg, i) => {
      if (seg.byterange) p.segments[i]!.size = seg.byterange.length;
    });
    p.allSized = p.segments.every((s) => s.size !== undefined);
    return findings;
  }
  if (p.role === 'subtitles') return findings;

  if (p.role === 'variant') {
    // Sizes of at most SIZED_SEGMENTS segments, spread over the playlist, for the bandwidth figures.
    const sized = new Set(spreadIndexes(segments.length, SIZED_SEGMENTS));
    await mapLimit(segments, 8, async (seg, i) => {
      if (seg.byterange) p.segments[i]!.size = seg.byterange.length;
      else if (sized.has(i)) {
        const size = await ctx.reader.size(resolveUri(seg.uri, p.address));
        if (size !== undefined && Number.isFinite(size)) p.segments[i]!.size = size;
      }
    });
  }
  await readMediaOfSegments(p, segments, ctx, findings);
  p.allSized = p.segments.every((s) => s.size !== undefined);
  if (isLowLatency(p)) {
    await probeLowLatency(p, {
      reader: ctx.reader,
      maxSegmentBytes: ctx.maxSegmentBytes,
      parse: parsePlaylist,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
  }
  if (isLive(p)) await watchLive(p, ctx, findings);
  return findings;
}

/** Downloads (at most maxSegmentBytes of each), decrypts and reads the picked segments. */
async function readMediaOfSegments(
  p: MediaPlaylistModel,
  segments: HLS.types.Segment[],
  ctx: HlsContext,
  findings: Finding[],
): Promise<void> {
  const name = p.name;
  const keys = new Map<string, Promise<Buffer | Finding>>();
  const inits = new Map<string, Promise<Buffer | undefined>>();
  // A TS segment without a keyframe carries no SPS/PPS: the first segment read describes its tracks.
  let describing: Buffer | undefined;
  for (const index of spreadIndexes(segments.length, READ_SEGMENTS)) {
    const seg = segments[index]!;
    const model = p.segments[index]!;
    const segAddress = resolveUri(seg.uri, p.address);
    let data: Buffer;
    try {
      const chunk = await ctx.reader.read(segAddress, {
        maxBytes: ctx.maxSegmentBytes,
        partial: true,
        ...(seg.byterange ? { range: { offset: seg.byterange.offset ?? 0, length: seg.byterange.length } } : {}),
      });
      data = chunk.data;
      const delivery = ctx.reader.delivery(segAddress);
      if (delivery) model.delivery = delivery;
      if (!chunk.complete) {
        findings.push(
          finding(
            'INPUT-TOO-LARGE',
            l10n.t(
              'Segment {0} is larger than {1} bytes: only its start was read, so it was not measured.',
              seg.uri,
              ctx.maxSegmentBytes,
            ),
            { variant: name, segment: seg.uri },
          ),
        );
        continue;
      }
    } catch (error) {
      if (!(error instanceof ReadError)) throw error;
      findings.push(
        finding(readCode(error), l10n.t('Segment {0}.', error.message), { variant: name, segment: seg.uri }),
      );
      continue;
    }
    model.size ??= data.length;
    const encrypted = !!seg.key && seg.key.method !== 'NONE';
    if (seg.key && encrypted) {
      if (seg.key.method !== 'AES-128' || !seg.key.uri) {
        if (!findings.some((f) => f.code === 'HLS-ENCRYPTION-NOT-CHECKED' && f.variant === name)) {
          findings.push(
            finding(
              'HLS-ENCRYPTION-NOT-CHECKED',
              l10n.t('Segments are encrypted with {0}: not decrypted, so not probed.', seg.key.method),
              { variant: name },
            ),
          );
        }
        continue;
      }
      // A key URI is relative to the media playlist that names it (RFC 8216 4.1).
      const keyAddress = resolveUri(seg.key.uri, p.address);
      let key = keys.get(keyAddress);
      if (!key) {
        key = fetchKey(keyAddress, ctx, name);
        keys.set(keyAddress, key);
      }
      const got = await key;
      if (!Buffer.isBuffer(got)) {
        if (!findings.includes(got)) findings.push(got);
        continue;
      }
      const iv = seg.key.iv ? Buffer.from(seg.key.iv) : sequenceIv(seg.mediaSequenceNumber);
      const clear = decrypt(data, got, iv);
      if (!clear) {
        findings.push(
          finding(
            'HLS-DECRYPT-FAILED',
            seg.key.iv
              ? l10n.t(
                  'Segment {0} does not decrypt with the key from {1} and IV given (bad padding or not media).',
                  seg.uri,
                  displayAddress(keyAddress),
                )
              : l10n.t(
                  'Segment {0} does not decrypt with the key from {1} and IV from media sequence {2} (bad padding or not media).',
                  seg.uri,
                  displayAddress(keyAddress),
                  seg.mediaSequenceNumber,
                ),
            { variant: name, segment: seg.uri },
          ),
        );
        continue;
      }
      data = clear;
    }
    let initData: Buffer | undefined;
    if (seg.map?.uri) {
      const mapAddress = resolveUri(seg.map.uri, p.address);
      let init = inits.get(mapAddress);
      if (!init) {
        init = readInit(mapAddress, seg.map.byterange, ctx, name, findings);
        inits.set(mapAddress, init);
      }
      initData = await init;
      if (!initData) continue;
      p.initBytes = initData.length;
    }
    ctx.counters.segmentsProbed++;
    const read = (init: Buffer | undefined): Promise<MediaFacts> =>
      mediaFacts(data, { ...(init ? { init } : {}), ...(ctx.signal ? { signal: ctx.signal } : {}) });
    try {
      try {
        model.media = await read(initData);
      } catch (error) {
        if (!(error instanceof UnreadableMedia) || initData || !describing) throw error;
        model.media = await read(describing);
      }
      if (!initData) describing ??= data;
    } catch (error) {
      if (!(error instanceof UnreadableMedia)) throw error;
      const leading = leadingType(data);
      model.unreadable = {
        message: error.message,
        ...(leading ? { leading } : {}),
        withInit: initData !== undefined,
        decrypted: encrypted,
      };
    }
  }
}

function readInit(
  mapAddress: string,
  range: HLS.types.Byterange | undefined,
  ctx: HlsContext,
  variant: string,
  findings: Finding[],
): Promise<Buffer | undefined> {
  return ctx.reader
    .read(mapAddress, {
      maxBytes: ctx.maxSegmentBytes,
      ...(range ? { range: { offset: range.offset ?? 0, length: range.length } } : {}),
    })
    .then((chunk) => chunk.data)
    .catch((error: unknown) => {
      if (error instanceof ReadError) {
        findings.push(finding(readCode(error), l10n.t('The initialization section {0}.', error.message), { variant }));
        return undefined;
      }
      throw error;
    });
}

/** A row of the report's table: the declaration and the measured figures of a variant. */
export function variantRow(p: MediaPlaylistModel): VariantRow {
  const m = measure(p);
  const { externalAudio: _external, ...declared } = p.declared;
  const row: VariantRow = { name: p.name, address: displayAddress(p.address), declared, measured: {} };
  if (!p.playlist) return row;
  const segments = p.segments;
  row.live = isLive(p);
  row.segments = segments.length;
  row.targetDuration = p.playlist.targetDuration;
  row.duration = segments.reduce((s, seg) => s + seg.duration, 0);
  row.longestSegment = segments.reduce((longest, seg) => Math.max(longest, seg.duration), 0);
  const methods = new Set(p.playlist.segments.filter((s) => s.uri.trim() !== '').map((s) => s.key?.method ?? 'NONE'));
  row.encryption = [...methods].map((method) => (method === 'NONE' ? 'none' : method)).join(', ');
  row.sampledSegments = segments.filter((s) => s.media).map((s) => String(s.sequence));
  row.timeline = segments.map((s) => ({
    sequence: s.sequence,
    uri: s.uri,
    duration: s.duration,
    ...(s.size !== undefined ? { bytes: s.size } : {}),
    ...(s.media ? { measured: round3(spanLength(s.media)), keyframes: keyframesIn(s.media) } : {}),
  }));
  const init = p.playlist.segments[0]?.map?.uri;
  if (init) row.init = init;
  if (m.peak) row.measured.peakBandwidth = m.peak.bps;
  if (m.averageBandwidth !== undefined) row.measured.averageBandwidth = m.averageBandwidth;
  if (m.bandwidthFrom) row.measured.bandwidthFrom = m.bandwidthFrom;
  if (m.resolution) row.measured.resolution = m.resolution;
  if (m.frameRate !== undefined) row.measured.frameRate = m.frameRate;
  if (m.codecs) row.measured.codecs = m.codecs;
  if (m.keyframeInterval) row.measured.keyframeInterval = m.keyframeInterval;
  return row;
}

function spanLength(media: MediaFacts): number {
  const span = mediaSpan(media);
  return span.end - span.start;
}

/** Keyframe times from the segment's start (s). */
function keyframesIn(media: MediaFacts): number[] {
  const start = mediaSpan(media).start;
  return media.keyframes.map((k) => round3(k - start));
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

async function fetchKey(keyAddress: string, ctx: HlsContext, variant: string): Promise<Buffer | Finding> {
  try {
    // A key is 16 bytes: anything much larger is not one, and is not downloaded.
    const key = await ctx.reader.bytes(keyAddress, 1024);
    if (key.length !== 16) {
      return finding(
        'HLS-KEY-INVALID',
        l10n.t('The key at {0} is {1} bytes long; AES-128 needs 16.', displayAddress(keyAddress), key.length),
        { variant },
      );
    }
    return key;
  } catch (error) {
    if (!(error instanceof ReadError)) throw error;
    const code = error.limit === 'refused' ? 'INPUT-REFUSED' : 'HLS-KEY-UNAVAILABLE';
    return finding(code, l10n.t('The key {0}: no player can decrypt the segments.', error.message), {
      variant,
    });
  }
}

/** RFC 8216 5.2: without an IV attribute, the IV is the media sequence number as a 128-bit big-endian integer. */
export function sequenceIv(sequence: number): Buffer {
  const iv = Buffer.alloc(16);
  iv.writeBigUInt64BE(BigInt(sequence), 8);
  return iv;
}

/** AES-128-CBC with PKCS#7 padding; undefined when the padding is wrong or the result is not media. */
export function decrypt(data: Buffer, key: Buffer, iv: Buffer): Buffer | undefined {
  try {
    const decipher = createDecipheriv('aes-128-cbc', key, iv);
    const clear = Buffer.concat([decipher.update(data), decipher.final()]);
    // MPEG-TS packets start with 0x47 every 188 bytes; fMP4 and others are left to the media reader.
    if (
      clear.length >= 188 &&
      clear[0] === 0x47 &&
      clear.length % 188 === 0 &&
      clear[188] !== undefined &&
      clear[188] !== 0x47
    )
      return undefined;
    return clear;
  } catch {
    return undefined;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(Object.assign(new Error('cancelled'), { name: 'AbortError' }));
      },
      { once: true },
    );
  });
}

/**
 * How long to watch a live playlist (s): as asked, else 3 target durations (at least 10 s); a huge TARGETDURATION
 * must not keep the run going for hours, so 60 s at most unless asked for more; and never past the run's deadline
 * (`leftMs` from now; a second is kept to finish the report).
 */
export function liveWatchSeconds(target: number, asked: number | undefined, leftMs: number): number {
  const wanted = asked ?? Math.min(LIVE_SECONDS_CAP, Math.max(10, 3 * target));
  return Math.max(0, Math.min(wanted, (leftMs - 1000) / 1000));
}

/** Reads a live playlist again every half target duration for the watching time, recording each reload. */
async function watchLive(p: MediaPlaylistModel, ctx: HlsContext, findings: Finding[]): Promise<void> {
  const target = p.playlist!.targetDuration || 1;
  const watchSeconds = liveWatchSeconds(target, ctx.liveSeconds, ctx.deadlineAt - ctx.now());
  p.watchedSeconds = 0;
  if (watchSeconds <= 0) return;
  const until = ctx.now() + watchSeconds * 1000;
  while (ctx.now() < until) {
    await sleep(Math.min(Math.max(250, (target * 1000) / 2), until - ctx.now()), ctx.signal);
    if (ctx.now() >= until) break;
    let text: string;
    try {
      text = await ctx.reader.text(p.address);
      ctx.counters.reloads++;
    } catch (error) {
      if (!(error instanceof ReadError)) throw error;
      findings.push(
        finding(readCode(error), l10n.t('Reloading the live playlist: {0}.', error.message), { variant: p.name }),
      );
      break;
    }
    const playlist = parsePlaylist(text);
    if (!playlist || playlist.isMasterPlaylist) break;
    p.reloads.push({ at: ctx.now(), text, playlist });
    if (playlist.endlist) break;
  }
  p.watchedSeconds = round3(watchSeconds);
  ctx.counters.watchedSeconds = Math.max(ctx.counters.watchedSeconds ?? 0, p.watchedSeconds);
}
