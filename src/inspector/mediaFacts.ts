/**
 * What one media file (a segment, or a whole MP4/FLV/TS) really holds, read in-process (src/media/read.ts, no
 * ffprobe): codecs, size, frame rate, duration, and where the video keyframes are (key packets, checked in the
 * bitstream for bytes in memory: an IDR for H.264).
 */
import { NotMediaError, readMedia, type Container, type ReadOptions } from '../media/read';
import { l10n } from '../l10n/l10n';

export interface VideoFacts {
  readonly codec: string;
  /** RFC 6381, e.g. `avc1.64001f`. */
  readonly codecString?: string;
  readonly profile?: string;
  readonly level?: number;
  readonly width: number;
  readonly height: number;
  readonly frameRate: number;
}

export interface AudioFacts {
  readonly codec: string;
  /** RFC 6381, e.g. `mp4a.40.2`. */
  readonly codecString?: string;
  readonly profile?: string;
  readonly sampleRate?: number;
  readonly channels?: number;
}

export interface MediaFacts {
  readonly formatName: Container;
  readonly video?: VideoFacts;
  readonly audio?: AudioFacts;
  /** First and last presentation time of all packets (s); the end includes the last packet's duration. */
  readonly start: number;
  readonly end: number;
  /** First and last presentation time of the video packets (s), when there is video. */
  readonly videoStart?: number;
  readonly videoEnd?: number;
  /** First presentation time of the audio packets (s), when there is audio. */
  readonly audioStart?: number;
  /** Where the last audio frame ends (its presentation time plus its duration, s), when there is audio. */
  readonly audioEnd?: number;
  /** The mean audio frame's duration (s): 1024 samples for AAC, 1152 for MP3, as the packets show. */
  readonly audioFrame?: number;
  /** Whether the first video packet in decode order is a keyframe (IDR). */
  readonly startsWithKeyframe: boolean;
  /** Presentation times of the video keyframes (s), ascending. */
  readonly keyframes: readonly number[];
  /** Video packets seen. */
  readonly videoPackets: number;
  /** Bytes read (the init section included). */
  readonly bytes: number;
  /** Overall bit rate (b/s), when the whole input was read. */
  readonly bitRate?: number;
  /** The whole input's duration (s): measured when it was read to its end, else from the container's metadata. */
  readonly duration?: number;
}

/** Media that could not be read: the message names the input's problem. */
export class UnreadableMedia extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableMedia';
  }
}

/**
 * Reads a file (a path) or bytes. `readSeconds` limits how much of a long file is read, from its start; `init` is
 * an fMP4 segment's initialization section.
 */
export async function mediaFacts(
  input: string | Uint8Array,
  options: Pick<ReadOptions, 'init' | 'signal'> & { readSeconds?: number } = {},
): Promise<MediaFacts> {
  let r;
  try {
    r = await readMedia(input, {
      ...(options.init ? { init: options.init } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.readSeconds ? { maxSeconds: options.readSeconds } : {}),
    });
  } catch (error) {
    if (error instanceof NotMediaError) throw new UnreadableMedia(error.message);
    throw error;
  }
  const v = r.video;
  const a = r.audio;
  return {
    formatName: r.container,
    ...(v
      ? {
          video: {
            codec: v.codec,
            ...(v.codecString ? { codecString: v.codecString } : {}),
            ...(v.profile ? { profile: v.profile } : {}),
            ...(v.level ? { level: v.level } : {}),
            width: v.width,
            height: v.height,
            frameRate: v.frameRate,
          },
        }
      : {}),
    ...(a
      ? {
          audio: {
            codec: a.codec,
            ...(a.codecString ? { codecString: a.codecString } : {}),
            ...(a.profile ? { profile: a.profile } : {}),
            ...(a.sampleRate ? { sampleRate: a.sampleRate } : {}),
            ...(a.channels ? { channels: a.channels } : {}),
          },
        }
      : {}),
    start: r.start,
    end: r.end,
    ...(v && v.packets > 0 ? { videoStart: v.start, videoEnd: v.end } : {}),
    ...(a && a.packets > 0 ? { audioStart: a.start, audioEnd: a.end, audioFrame: (a.end - a.start) / a.packets } : {}),
    startsWithKeyframe: v?.startsWithKeyframe ?? false,
    keyframes: v?.keyframes ?? [],
    videoPackets: v?.packets ?? 0,
    bytes: r.bytes,
    ...(r.bitRate ? { bitRate: r.bitRate } : {}),
    ...(r.complete ? { duration: r.duration } : r.wholeDuration ? { duration: r.wholeDuration } : {}),
  };
}

/** The codecs in words and as RFC 6381 writes them: `h264 High L3.0 (avc1.64001e), aac LC (mp4a.40.2)`. */
export function describeCodecs(f: Pick<MediaFacts, 'video' | 'audio'>): string {
  const parts: string[] = [];
  const withString = (words: string, codecString: string | undefined): string =>
    codecString ? `${words} (${codecString})` : words;
  if (f.video) {
    const level = f.video.level ? `L${(f.video.level / 10).toFixed(1)}` : undefined;
    const words = [f.video.codec, f.video.profile, level].filter(Boolean).join(' ');
    parts.push(withString(words, f.video.codecString));
  }
  if (f.audio) parts.push(withString([f.audio.codec, f.audio.profile].filter(Boolean).join(' '), f.audio.codecString));
  return parts.join(', ');
}

/** Mean and spread (standard deviation) of the gaps between keyframes, in seconds. */
export function keyframeInterval(keyframes: readonly number[]): { mean: number; spread: number } | undefined {
  if (keyframes.length < 2) return undefined;
  const gaps: number[] = [];
  for (let i = 1; i < keyframes.length; i++) gaps.push(keyframes[i]! - keyframes[i - 1]!);
  const mean = gaps.reduce((s, g) => s + g, 0) / gaps.length;
  const spread = Math.sqrt(gaps.reduce((s, g) => s + (g - mean) ** 2, 0) / gaps.length);
  return { mean, spread };
}

const TEXT_FAMILIES = new Set(['wvtt', 'stpp', 'tx3g']);
const AUDIO_FAMILIES = new Set(['mp4a.40', 'mp4a.6b', 'ac-3', 'ec-3', 'opus', 'flac', 'alac']);

const H264_PROFILES: Record<string, number> = {
  Baseline: 66,
  'Constrained Baseline': 66,
  Main: 77,
  Extended: 88,
  High: 100,
  'High 10': 110,
  'High 4:2:2': 122,
  'High 4:4:4 Predictive': 244,
};

/** The RFC 6381 codec families the inspector compares (the part before the first dot, normalised). */
function familyOf(codecName: string): string {
  switch (codecName) {
    case 'h264':
      return 'avc1';
    case 'hevc':
      return 'hvc1';
    case 'aac':
      return 'mp4a.40';
    case 'mp3':
      return 'mp4a.6b';
    case 'ac3':
      return 'ac-3';
    case 'eac3':
      return 'ec-3';
    case 'vp9':
      return 'vp09';
    case 'av1':
      return 'av01';
    default:
      return codecName;
  }
}

function declaredFamily(entry: string): string {
  const e = entry.trim().toLowerCase();
  if (e.startsWith('avc1') || e.startsWith('avc3')) return 'avc1';
  if (e.startsWith('hvc1') || e.startsWith('hev1')) return 'hvc1';
  if (e === 'mp4a.40.34' || e === 'mp4a.6b' || e === 'mp4a.69') return 'mp4a.6b';
  if (e.startsWith('mp4a.40')) return 'mp4a.40';
  return e.split('.')[0] ?? e;
}

/** How the media differs from a CODECS attribute, in words (empty when it matches). */
export function codecDifferences(
  declared: string,
  facts: Pick<MediaFacts, 'video' | 'audio'>,
  options: { externalAudio?: boolean } = {},
): string[] {
  const entries = declared
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const families = entries.map(declaredFamily);
  const problems: string[] = [];
  const actual: Array<{ kind: string; codec: string }> = [];
  if (facts.video) actual.push({ kind: 'video', codec: facts.video.codec });
  if (facts.audio) actual.push({ kind: 'audio', codec: facts.audio.codec });
  for (const { kind, codec } of actual) {
    if (!families.includes(familyOf(codec)))
      problems.push(
        kind === 'video'
          ? l10n.t('the video is {0}, which CODECS does not declare', codec)
          : l10n.t('the audio is {0}, which CODECS does not declare', codec),
      );
  }
  const actualFamilies = actual.map((a) => familyOf(a.codec));
  for (const [i, family] of families.entries()) {
    // Subtitles are never in the media segments; audio may come from an EXT-X-MEDIA rendition instead.
    if (TEXT_FAMILIES.has(family)) continue;
    if (options.externalAudio && AUDIO_FAMILIES.has(family)) continue;
    if (!actualFamilies.includes(family))
      problems.push(l10n.t('CODECS declares {0}, which the media does not carry', entries[i]!));
  }
  // H.264: the profile byte of avc1.PPCCLL against the stream's profile; the level must not be understated.
  const avc = entries.find((e) => /^avc[13]\.[0-9a-f]{6}$/i.test(e));
  if (avc && facts.video?.codec === 'h264') {
    const profileIdc = parseInt(avc.slice(5, 7), 16);
    const levelIdc = parseInt(avc.slice(9, 11), 16);
    const actualProfile = facts.video.profile ? H264_PROFILES[facts.video.profile] : undefined;
    if (actualProfile !== undefined && actualProfile !== profileIdc) {
      problems.push(
        l10n.t(
          '{0} declares H.264 profile {1}, the stream is {2} ({3})',
          avc,
          profileIdc,
          String(facts.video.profile),
          actualProfile,
        ),
      );
    }
    if (facts.video.level !== undefined && levelIdc < facts.video.level) {
      problems.push(`${avc} declares H.264 level ${levelIdc / 10}, the stream needs level ${facts.video.level / 10}`);
    }
  }
  return problems;
}
