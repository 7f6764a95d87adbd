/**
 * HLS inspection: a master playlist's variants (or one media playlist) against what their segments hold.
 *
 * Sampling (what is read): every playlist (at most `maxPlaylistBytes` / `maxPlaylistLines`); the size of at most
 * `SIZED_SEGMENTS` segments per variant by HEAD (Content-Length), or a file's size, 8 at a time, for the bandwidth
 * figures (all of them when there are no more, else spread evenly); and three segments per variant (the first, the
 * middle and the last), at most `maxSegmentBytes` of each (a Range request), decrypted when AES-128, and read
 * in-process (src/media/read.ts) for codecs, resolution, duration, the IDR at their start and their keyframes. Live
 * playlists are read again every half target duration (RFC 8216 6.3.4) for `liveSeconds`, never past the run's
 * deadline.
 */
import { createDecipheriv } from 'node:crypto';
import { l10n } from '../l10n/l10n';
import type * as HLS from 'hls-parser';
import { finding, type Finding } from './findings';
import {
  codecDifferences,
  describeCodecs,
  keyframeInterval,
  mediaFacts,
  UnreadableMedia,
  type MediaFacts,
} from './mediaFacts';
import { playlistProblems } from './playlistProblems';
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

interface Declared {
  /** The variant's audio comes from an EXT-X-MEDIA rendition with its own playlist. */
  externalAudio?: boolean;
  bandwidth?: number;
  averageBandwidth?: number;
  resolution?: string;
  codecs?: string;
  frameRate?: number;
}

interface VariantResult {
  row: VariantRow;
  findings: Finding[];
  /** Per sampled media sequence number: the segment's first packet time and its keyframes. */
  samples: Map<number, { start: number; keyframes: readonly number[]; frameRate: number }>;
}

export function parsePlaylist(text: string): HLS.types.MasterPlaylist | HLS.types.MediaPlaylist | undefined {
  try {
    return hlsParser().parse(text) as HLS.types.MasterPlaylist | HLS.types.MediaPlaylist;
  } catch {
    return undefined;
  }
}

/** The static problems of a playlist's text as findings about it. */
function textFindings(text: string, variant: string | undefined): Finding[] {
  return playlistProblems(text).map((p) =>
    finding(p.code, l10n.t('{0} (line {1})', p.message, p.line + 1), { ...(variant !== undefined ? { variant } : {}) }),
  );
}

const kbps = (bps: number): string => `${Math.round(bps / 1000)} kb/s`;
const seconds = (s: number): string => `${Math.round(s * 1000) / 1000} s`;

export async function inspectHls(
  address: string,
  text: string,
  ctx: HlsContext,
): Promise<{
  kind: 'hls-master' | 'hls-media';
  live: boolean;
  variants: VariantRow[];
  findings: Finding[];
}> {
  const findings: Finding[] = textFindings(text, undefined);
  const playlist = parsePlaylist(text);
  if (!playlist) return { kind: 'hls-media', live: false, variants: [], findings };
  if (!playlist.isMasterPlaylist) {
    const name = displayAddress(address).split('/').pop() ?? address;
    const result = await inspectVariant(name, address, {}, ctx, text);
    return {
      kind: 'hls-media',
      live: result.row.live ?? false,
      variants: [result.row],
      findings: [...findings, ...result.findings],
    };
  }
  const variants = playlist.variants.filter((v) => !v.isIFrameOnly);
  const results = await mapLimit(variants, 3, (v) =>
    inspectVariant(
      v.uri,
      resolveUri(v.uri, address),
      {
        bandwidth: v.bandwidth,
        ...(v.averageBandwidth ? { averageBandwidth: v.averageBandwidth } : {}),
        ...(v.resolution ? { resolution: `${v.resolution.width}x${v.resolution.height}` } : {}),
        ...(v.codecs ? { codecs: v.codecs } : {}),
        ...(v.frameRate ? { frameRate: v.frameRate } : {}),
        ...(v.audio.some((a) => a.uri) ? { externalAudio: true } : {}),
      },
      ctx,
    ),
  );
  for (const r of results) findings.push(...r.findings);
  findings.push(...alignment(results));
  return {
    kind: 'hls-master',
    live: results.some((r) => r.row.live),
    variants: results.map((r) => r.row),
    findings,
  };
}

/** Keyframes (and so segment starts) at the same times in every video variant, for each sampled segment. */
function alignment(results: VariantResult[]): Finding[] {
  const video = results.filter((r) => [...r.samples.values()].some((s) => s.keyframes.length > 0));
  if (video.length < 2) return [];
  const [first, ...others] = video;
  const out: Finding[] = [];
  for (const [sequence, reference] of first!.samples) {
    for (const other of others) {
      const sample = other.samples.get(sequence);
      if (!sample) continue;
      // A frame's duration is the tolerance: encoders of one ladder share timestamps.
      const tolerance = 1 / Math.max(reference.frameRate || 25, sample.frameRate || 25) + 0.001;
      const startsDiffer = Math.abs(reference.start - sample.start) > tolerance;
      const keyframesDiffer =
        reference.keyframes.length !== sample.keyframes.length ||
        reference.keyframes.some((k, i) => Math.abs(k - sample.keyframes[i]!) > tolerance);
      if (startsDiffer || keyframesDiffer) {
        out.push(
          finding(
            'HLS-KEYFRAMES-NOT-ALIGNED',
            l10n.t(
              'Segment {0} starts at {1} with keyframes at {2} in {3}, but at {4} with keyframes at {5} in {6}: players cannot switch between them cleanly.',
              sequence,
              seconds(reference.start),
              list(reference.keyframes),
              first!.row.name,
              seconds(sample.start),
              list(sample.keyframes),
              other.row.name,
            ),
            { variant: other.row.name, segment: String(sequence) },
          ),
        );
      }
    }
  }
  return out;
}

function list(times: readonly number[]): string {
  const shown = times.slice(0, 6).map((t) => t.toFixed(2));
  return `[${shown.join(', ')}${times.length > 6 ? ', …' : ''}]`;
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

/** Picks the first, the middle and the last segment. */
export function sampleIndexes(count: number): number[] {
  if (count === 0) return [];
  return [...new Set([0, Math.floor((count - 1) / 2), count - 1])];
}

async function inspectVariant(
  name: string,
  address: string,
  declared: Declared,
  ctx: HlsContext,
  alreadyRead?: string,
): Promise<VariantResult> {
  const findings: Finding[] = [];
  const { externalAudio: _external, ...shown } = declared;
  const row: VariantRow = { name, address: displayAddress(address), declared: shown, measured: {} };
  const samples: VariantResult['samples'] = new Map();
  const result: VariantResult = { row, findings, samples };
  let text: string;
  // When the playlist was read: the live edge is measured from then, not after the probing.
  let readAt = ctx.now();
  try {
    text = alreadyRead ?? (await ctx.reader.text(address));
    readAt = ctx.now();
  } catch (error) {
    if (!(error instanceof ReadError)) throw error;
    findings.push(finding(readCode(error), l10n.t('The media playlist {0}.', error.message), { variant: name }));
    return result;
  }
  if (alreadyRead === undefined) findings.push(...textFindings(text, name));
  const playlist = parsePlaylist(text);
  if (!playlist || playlist.isMasterPlaylist) {
    if (playlist?.isMasterPlaylist) {
      findings.push(
        finding('HLS-TAG-MISPLACED', l10n.t('A variant points at another master playlist, not a media playlist.'), {
          variant: name,
        }),
      );
    }
    return result;
  }
  ctx.progress(l10n.t('reading {0}', name));
  // An EXTINF without a URI names no segment (hls-parser gives it an empty URI, which would resolve to the
  // playlist itself): the text checks report it, nothing is read for it.
  const segments = playlist.segments.filter((seg) => seg.uri.trim() !== '');
  if (segments.length < playlist.segments.length && !findings.some((f) => f.code === 'HLS-URI-MISSING')) {
    findings.push(finding('HLS-URI-MISSING', l10n.t('An EXTINF is not followed by a URI line.'), { variant: name }));
  }
  const live = !playlist.endlist && playlist.playlistType !== 'VOD';
  row.live = live;
  row.segments = segments.length;
  row.targetDuration = playlist.targetDuration;
  row.duration = segments.reduce((s, seg) => s + seg.duration, 0);
  row.longestSegment = segments.reduce((m, seg) => Math.max(m, seg.duration), 0);
  const methods = new Set(segments.map((s) => s.key?.method ?? 'NONE'));
  row.encryption = [...methods].map((m) => (m === 'NONE' ? 'none' : m)).join(', ');

  // Sizes of at most SIZED_SEGMENTS segments, spread over the playlist, for the bandwidth figures.
  const sized = new Set(spreadIndexes(segments.length, SIZED_SEGMENTS));
  const sizes = await mapLimit(segments, 8, async (seg, i) => {
    if (seg.byterange) return seg.byterange.length;
    if (!sized.has(i)) return undefined;
    return ctx.reader.size(resolveUri(seg.uri, address));
  });

  // Sampled segments: downloaded (at most maxSegmentBytes of each), decrypted, read.
  const picks = sampleIndexes(segments.length);
  const keys = new Map<string, Promise<Buffer | Finding>>();
  const inits = new Map<string, Promise<Buffer | undefined>>();
  const facts: Array<{ index: number; facts: MediaFacts }> = [];
  // A TS segment without a keyframe carries no SPS/PPS: the first segment read describes its tracks.
  let describing: Buffer | undefined;
  for (const index of picks) {
    const seg = segments[index]!;
    const segAddress = resolveUri(seg.uri, address);
    let data: Buffer;
    try {
      const chunk = await ctx.reader.read(segAddress, {
        maxBytes: ctx.maxSegmentBytes,
        partial: true,
        ...(seg.byterange ? { range: { offset: seg.byterange.offset ?? 0, length: seg.byterange.length } } : {}),
      });
      data = chunk.data;
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
    sizes[index] ??= data.length;
    if (seg.key && seg.key.method !== 'NONE') {
      if (seg.key.method !== 'AES-128' || !seg.key.uri) {
        if (!findings.some((f) => f.code === 'HLS-ENCRYPTION-NOT-CHECKED')) {
          findings.push(
            finding(
              'HLS-ENCRYPTION-NOT-CHECKED',
              l10n.t('Segments are encrypted with {0}: not decrypted, so not probed.', seg.key.method),
              {
                variant: name,
              },
            ),
          );
        }
        continue;
      }
      // A key URI is relative to the media playlist that names it (RFC 8216 4.1).
      const keyAddress = resolveUri(seg.key.uri, address);
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
      const mapAddress = resolveUri(seg.map.uri, address);
      let init = inits.get(mapAddress);
      if (!init) {
        const range = seg.map.byterange;
        init = ctx.reader
          .read(mapAddress, {
            maxBytes: ctx.maxSegmentBytes,
            ...(range ? { range: { offset: range.offset ?? 0, length: range.length } } : {}),
          })
          .then((chunk) => chunk.data)
          .catch((error: unknown) => {
            if (error instanceof ReadError) {
              findings.push(
                finding(readCode(error), l10n.t('The initialization section {0}.', error.message), { variant: name }),
              );
              return undefined;
            }
            throw error;
          });
        inits.set(mapAddress, init);
      }
      initData = await init;
      if (!initData) continue;
    }
    try {
      ctx.counters.segmentsProbed++;
      const read = (init: Buffer | undefined): Promise<MediaFacts> =>
        mediaFacts(data, { ...(init ? { init } : {}), ...(ctx.signal ? { signal: ctx.signal } : {}) });
      let measured: MediaFacts;
      try {
        measured = await read(initData);
      } catch (error) {
        if (!(error instanceof UnreadableMedia) || initData || !describing) throw error;
        measured = await read(describing);
      }
      if (!initData) describing ??= data;
      facts.push({ index, facts: measured });
    } catch (error) {
      if (!(error instanceof UnreadableMedia)) throw error;
      findings.push(
        finding(
          seg.key && seg.key.method === 'AES-128' ? 'HLS-DECRYPT-FAILED' : 'MEDIA-UNDECODABLE',
          l10n.t('Segment {0} could not be read as media: {1}.', seg.uri, error.message),
          { variant: name, segment: seg.uri },
        ),
      );
    }
  }
  row.sampledSegments = facts.map((f) => String(segments[f.index]!.mediaSequenceNumber));

  // Bandwidth: every segment when their sizes are known, the sampled ones otherwise.
  const known = segments
    .map((seg, i) => ({ seg, size: sizes[i] }))
    .filter((s) => s.size !== undefined && s.seg.duration > 0);
  if (known.length > 0) {
    const rates = known.map((s) => (s.size! * 8) / s.seg.duration);
    const peakAt = rates.indexOf(Math.max(...rates));
    row.measured.peakBandwidth = Math.round(rates[peakAt]!);
    row.measured.averageBandwidth = Math.round(
      (known.reduce((s, k) => s + k.size!, 0) * 8) / known.reduce((s, k) => s + k.seg.duration, 0),
    );
    const all = known.length === segments.length;
    row.measured.bandwidthFrom = all ? 'all-segments' : 'sampled-segments';
    const peak = row.measured.peakBandwidth;
    if (declared.bandwidth !== undefined) {
      if (peak > declared.bandwidth * 1.1) {
        findings.push(
          finding(
            'HLS-BANDWIDTH-MISMATCH',
            l10n.t(
              'BANDWIDTH declares {0}, but segment {1} peaks at {2} ({3} % more; Apple allows 10 %).',
              kbps(declared.bandwidth),
              known[peakAt]!.seg.uri,
              kbps(peak),
              Math.round((peak / declared.bandwidth - 1) * 100),
            ),
            { variant: name, segment: known[peakAt]!.seg.uri },
          ),
        );
      } else if (all && declared.bandwidth > peak * 1.1) {
        findings.push(
          finding(
            'HLS-BANDWIDTH-OVERSTATED',
            l10n.t(
              'BANDWIDTH declares {0}, but the highest segment bit rate is {1}: players will choose this variant less often than they could.',
              kbps(declared.bandwidth),
              kbps(peak),
            ),
            { variant: name },
          ),
        );
      }
    }
    const average = row.measured.averageBandwidth;
    if (
      declared.averageBandwidth !== undefined &&
      all &&
      Math.abs(average - declared.averageBandwidth) > declared.averageBandwidth * 0.1
    ) {
      findings.push(
        finding(
          'HLS-AVERAGE-BANDWIDTH-MISMATCH',
          l10n.t(
            'AVERAGE-BANDWIDTH declares {0}, the segments average {1}.',
            kbps(declared.averageBandwidth),
            kbps(average),
          ),
          { variant: name },
        ),
      );
    }
  }

  // Durations against the target duration: the playlist's EXTINF and the sampled segments' own length.
  for (const { index, facts: f } of facts) {
    const seg = segments[index]!;
    // The video's span when there is video: audio packets of a TS segment overhang its edges.
    const measured = f.videoStart !== undefined ? f.videoEnd! - f.videoStart : f.end - f.start;
    if (Math.round(measured) > playlist.targetDuration && Math.round(seg.duration) <= playlist.targetDuration) {
      findings.push(
        finding(
          'HLS-SEGMENT-LONGER-THAN-TARGET',
          l10n.t(
            'Segment {0} holds {1} of media, longer than the target duration of {2} s (its EXTINF says {3} s).',
            seg.uri,
            seconds(measured),
            playlist.targetDuration,
            seg.duration,
          ),
          { variant: name, segment: seg.uri },
        ),
      );
    } else if (Math.abs(measured - seg.duration) > 0.5) {
      findings.push(
        finding(
          'HLS-EXTINF-MISMATCH',
          l10n.t('Segment {0} holds {1} of media, its EXTINF says {2} s.', seg.uri, seconds(measured), seg.duration),
          {
            variant: name,
            segment: seg.uri,
          },
        ),
      );
    }
  }
  // The text checks reported EXTINF over the target already for a media playlist read first; variants too.

  const withVideo = facts.filter((f) => f.facts.video);
  const withMedia = facts[facts.length - 1]?.facts;
  if (withMedia) {
    const v = withVideo[0]?.facts.video;
    if (v) {
      row.measured.resolution = `${v.width}x${v.height}`;
      row.measured.frameRate = Math.round(v.frameRate * 1000) / 1000;
    }
    row.measured.codecs = describeCodecs(withVideo[0]?.facts ?? withMedia);
    if (declared.resolution && v && declared.resolution !== row.measured.resolution) {
      findings.push(
        finding(
          'HLS-RESOLUTION-MISMATCH',
          l10n.t('RESOLUTION declares {0}, the video is {1}.', declared.resolution, String(row.measured.resolution)),
          {
            variant: name,
          },
        ),
      );
    }
    if (declared.codecs) {
      const differences = codecDifferences(declared.codecs, withVideo[0]?.facts ?? withMedia, {
        externalAudio: declared.externalAudio ?? false,
      });
      if (differences.length > 0) {
        findings.push(
          finding('HLS-CODECS-MISMATCH', l10n.t('CODECS="{0}": {1}.', declared.codecs, differences.join('; ')), {
            variant: name,
          }),
        );
      }
    } else if (Object.keys(declared).length > 0) {
      findings.push(
        finding(
          'HLS-CODECS-MISSING',
          l10n.t('The variant declares no CODECS, so players must download it to know if they can play it.'),
          { variant: name },
        ),
      );
    }
  }
  const allKeyframes: number[] = [];
  for (const { index, facts: f } of withVideo) {
    const seg = segments[index]!;
    if (!f.startsWithKeyframe) {
      findings.push(
        finding(
          'HLS-SEGMENT-NOT-IDR-START',
          f.keyframes.length > 0
            ? l10n.t(
                'Segment {0} does not start with an IDR frame (its first keyframe is {1} in).',
                seg.uri,
                seconds(f.keyframes[0]! - f.start),
              )
            : l10n.t('Segment {0} does not start with an IDR frame (it has no keyframe at all).', seg.uri),
          { variant: name, segment: seg.uri },
        ),
      );
    }
    samples.set(seg.mediaSequenceNumber, {
      start: f.videoStart ?? f.start,
      keyframes: f.keyframes,
      frameRate: f.video!.frameRate,
    });
    const interval = keyframeInterval(f.keyframes);
    if (interval) allKeyframes.push(...f.keyframes.slice(1).map((k, i) => k - f.keyframes[i]!));
  }
  if (allKeyframes.length > 0) {
    const mean = allKeyframes.reduce((s, g) => s + g, 0) / allKeyframes.length;
    const spread = Math.sqrt(allKeyframes.reduce((s, g) => s + (g - mean) ** 2, 0) / allKeyframes.length);
    row.measured.keyframeInterval = { mean: round3(mean), spread: round3(spread) };
  } else if (withVideo.length > 0) {
    // At most one keyframe per sampled segment: the video time per keyframe is the interval.
    const span = withVideo.reduce((t, f) => t + f.facts.videoEnd! - f.facts.videoStart!, 0);
    const count = withVideo.reduce((n, f) => n + f.facts.keyframes.length, 0);
    if (count > 0) row.measured.keyframeInterval = { mean: round3(span / count), spread: 0 };
  }
  if (row.measured.keyframeInterval && row.measured.keyframeInterval.mean > 2.1) {
    findings.push(
      finding(
        'HLS-KEYFRAME-INTERVAL',
        l10n.t(
          'Keyframes come every {0} s on average; Apple asks for every 2 s.',
          row.measured.keyframeInterval.mean.toFixed(2),
        ),
        {
          variant: name,
        },
      ),
    );
  }

  findings.push(...programDateTimeDrift(playlist, name));
  if (live) findings.push(...(await watchLive(name, address, playlist, text, readAt, ctx)));
  return result;
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

/** Each EXT-X-PROGRAM-DATE-TIME against the previous one plus the EXTINF durations between them. */
function programDateTimeDrift(playlist: HLS.types.MediaPlaylist, variant: string): Finding[] {
  let anchor: { time: number; at: number } | undefined;
  let elapsed = 0;
  let worst: { drift: number; uri: string } | undefined;
  for (const seg of playlist.segments) {
    if (seg.discontinuity) anchor = undefined;
    if (seg.programDateTime) {
      const time = seg.programDateTime.getTime() / 1000;
      if (anchor) {
        const drift = time - anchor.time - (elapsed - anchor.at);
        if (Math.abs(drift) > 0.5 && (!worst || Math.abs(drift) > Math.abs(worst.drift)))
          worst = { drift, uri: seg.uri };
      }
      anchor = { time, at: elapsed };
    }
    elapsed += seg.duration;
  }
  return worst
    ? [
        finding(
          'HLS-PROGRAM-DATE-TIME-DRIFT',
          l10n.t(
            'EXT-X-PROGRAM-DATE-TIME of segment {0} is {1} s off the sum of the EXTINF durations before it.',
            worst.uri,
            worst.drift.toFixed(2),
          ),
          { variant, segment: worst.uri },
        ),
      ]
    : [];
}

/** The distance from the newest segment's end (by its program date-time) to the clock, when it has one. */
function liveEdge(playlist: HLS.types.MediaPlaylist, now: number): number | undefined {
  let at: number | undefined;
  for (const seg of playlist.segments) {
    if (seg.programDateTime) at = seg.programDateTime.getTime() / 1000;
    if (at !== undefined) at += seg.duration;
  }
  return at === undefined ? undefined : now / 1000 - at;
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

/** Reads a live playlist again for `liveSeconds`: it must advance, within 1.5 target durations (RFC 8216 6.2.1). */
async function watchLive(
  name: string,
  address: string,
  first: HLS.types.MediaPlaylist,
  firstText: string,
  readAt: number,
  ctx: HlsContext,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const target = first.targetDuration || 1;
  const edge = liveEdge(first, readAt);
  if (edge !== undefined) {
    ctx.counters.liveEdgeSeconds = Math.max(ctx.counters.liveEdgeSeconds ?? -Infinity, round3(edge));
    if (edge > 3 * target + target) {
      findings.push(
        finding(
          'HLS-LIVE-EDGE-BEHIND',
          l10n.t(
            'The newest segment ends {0} s before the clock (by EXT-X-PROGRAM-DATE-TIME); expected within about {1} s.',
            edge.toFixed(1),
            3 * target,
          ),
          { variant: name },
        ),
      );
    }
  }
  const watchSeconds = liveWatchSeconds(target, ctx.liveSeconds, ctx.deadlineAt - ctx.now());
  if (watchSeconds <= 0) {
    findings.push(
      finding(
        'HLS-LIVE-NOT-WATCHED',
        l10n.t('A live playlist read once: run with --live-seconds N to check that it advances.'),
        { variant: name },
      ),
    );
    return findings;
  }
  const started = ctx.now();
  let lastChange = started;
  let last = first;
  let lastText = firstText;
  let staleFor = 0;
  let reported = false;
  const bySequence = new Map(first.segments.map((s) => [s.mediaSequenceNumber, s.uri]));
  const until = started + watchSeconds * 1000;
  while (ctx.now() < until) {
    await sleep(Math.min(Math.max(250, (target * 1000) / 2), until - ctx.now()), ctx.signal);
    if (ctx.now() >= until) break;
    let text: string;
    try {
      text = await ctx.reader.text(address);
      ctx.counters.reloads++;
    } catch (error) {
      if (!(error instanceof ReadError)) throw error;
      findings.push(
        finding(readCode(error), l10n.t('Reloading the live playlist: {0}.', error.message), { variant: name }),
      );
      break;
    }
    const now = ctx.now();
    const playlist = parsePlaylist(text);
    if (!playlist || playlist.isMasterPlaylist) break;
    if (text !== lastText) lastChange = now;
    lastText = text;
    const before = last.mediaSequenceBase ?? 0;
    const after = playlist.mediaSequenceBase ?? 0;
    if (after < before) {
      findings.push(
        finding(
          'HLS-MEDIA-SEQUENCE-REGRESSED',
          l10n.t('EXT-X-MEDIA-SEQUENCE went from {0} back to {1} between two reloads.', before, after),
          { variant: name },
        ),
      );
    }
    for (const seg of playlist.segments) {
      const known = bySequence.get(seg.mediaSequenceNumber);
      if (known !== undefined && known !== seg.uri) {
        findings.push(
          finding(
            'HLS-MEDIA-SEQUENCE-REGRESSED',
            l10n.t('Media sequence number {0} named {1} and now names {2}.', seg.mediaSequenceNumber, known, seg.uri),
            { variant: name, segment: seg.uri },
          ),
        );
        break;
      }
      bySequence.set(seg.mediaSequenceNumber, seg.uri);
    }
    staleFor = (now - lastChange) / 1000;
    if (playlist.endlist) break;
    if (!reported && staleFor > 1.5 * target) {
      reported = true;
      findings.push(
        finding(
          'HLS-LIVE-PLAYLIST-STALE',
          l10n.t(
            'The live playlist did not change for {0} s (more than 1.5 × the target duration of {1} s); its last segment is media sequence {2}.',
            staleFor.toFixed(1),
            target,
            after + playlist.segments.length - 1,
          ),
          { variant: name },
        ),
      );
    }
    last = playlist;
  }
  ctx.counters.watchedSeconds = Math.max(ctx.counters.watchedSeconds ?? 0, round3(watchSeconds));
  if (watchSeconds <= 1.5 * target) {
    findings.push(
      finding(
        'HLS-LIVE-NOT-WATCHED',
        l10n.t(
          'Watched for {0} s, not longer than 1.5 target durations ({1} s): too short to call the playlist stale.',
          watchSeconds,
          1.5 * target,
        ),
        { variant: name },
      ),
    );
  }
  return findings;
}
