/**
 * What one media file (a segment, or a whole MP4/FLV/TS) really holds, read with one ffprobe run that lists
 * the streams and the packets without decoding: codecs, size, frame rate, duration, and where the video
 * keyframes are (the packet `K` flag, which the H.264/HEVC parsers set on IDR access units).
 */
import { runTool, frameRate, type MediaTools, type RunOptions } from '../media/tools';
import { l10n } from '../l10n/l10n';

export interface VideoFacts {
  readonly codec: string;
  readonly profile?: string;
  readonly level?: number;
  readonly width: number;
  readonly height: number;
  readonly frameRate: number;
}

export interface AudioFacts {
  readonly codec: string;
  readonly profile?: string;
  readonly sampleRate?: number;
  readonly channels?: number;
}

export interface MediaFacts {
  readonly formatName: string;
  readonly video?: VideoFacts;
  readonly audio?: AudioFacts;
  /** First and last presentation time of all packets (s); the end includes the last packet's duration. */
  readonly start: number;
  readonly end: number;
  /** First and last presentation time of the video packets (s), when there is video. */
  readonly videoStart?: number;
  readonly videoEnd?: number;
  /** Whether the first video packet in decode order is a keyframe (IDR). */
  readonly startsWithKeyframe: boolean;
  /** Presentation times of the video keyframes (s), ascending. */
  readonly keyframes: readonly number[];
  /** Video packets seen. */
  readonly videoPackets: number;
  /** Overall bit rate as ffprobe reports it (b/s), when known. */
  readonly bitRate?: number;
}

interface RawStream {
  index: number;
  codec_type?: string;
  codec_name?: string;
  profile?: string;
  level?: number;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  sample_rate?: string;
  channels?: number;
}

interface RawPacket {
  stream_index: number;
  pts_time?: string;
  dts_time?: string;
  duration_time?: string;
  flags?: string;
}

/**
 * Probes a file. `readSeconds` limits how much of a long file is read (MP4s and recordings), from its start.
 */
export async function mediaFacts(
  tools: Pick<MediaTools, 'ffprobe'>,
  file: string,
  options: RunOptions & { readSeconds?: number } = {},
): Promise<MediaFacts> {
  const args = [
    '-v',
    'error',
    '-show_entries',
    'stream=index,codec_type,codec_name,profile,level,width,height,avg_frame_rate,r_frame_rate,sample_rate,channels:' +
      'packet=stream_index,pts_time,dts_time,duration_time,flags:format=format_name,bit_rate',
    '-of',
    'json',
  ];
  if (options.readSeconds) args.push('-read_intervals', `%+${options.readSeconds}`);
  args.push(file);
  if (!tools.ffprobe) throw new Error('measuring media needs ffprobe beside ffmpeg');
  const { stdout } = await runTool(tools.ffprobe, args, { timeoutMs: 60_000, ...options });
  const parsed = JSON.parse(stdout.toString('utf8')) as {
    streams?: RawStream[];
    packets?: RawPacket[];
    format?: { format_name?: string; bit_rate?: string };
  };
  const streams = parsed.streams ?? [];
  const packets = parsed.packets ?? [];
  const v = streams.find((s) => s.codec_type === 'video' && s.codec_name !== 'mjpeg' && s.codec_name !== 'png');
  const a = streams.find((s) => s.codec_type === 'audio');
  let start = Infinity;
  let end = -Infinity;
  const keyframes: number[] = [];
  let firstVideo: RawPacket | undefined;
  let videoPackets = 0;
  let videoStart = Infinity;
  let videoEnd = -Infinity;
  for (const p of packets) {
    const pts = Number(p.pts_time ?? p.dts_time);
    if (!Number.isFinite(pts)) continue;
    start = Math.min(start, pts);
    end = Math.max(end, pts + (Number(p.duration_time) || 0));
    if (v && p.stream_index === v.index) {
      videoPackets++;
      videoStart = Math.min(videoStart, pts);
      videoEnd = Math.max(videoEnd, pts + (Number(p.duration_time) || 0));
      firstVideo ??= p;
      if (p.flags?.startsWith('K')) keyframes.push(pts);
    }
  }
  keyframes.sort((x, y) => x - y);
  const bitRate = Number(parsed.format?.bit_rate);
  return {
    formatName: parsed.format?.format_name ?? 'unknown',
    ...(v
      ? {
          video: {
            codec: v.codec_name ?? 'unknown',
            ...(v.profile ? { profile: v.profile } : {}),
            ...(typeof v.level === 'number' && v.level > 0 ? { level: v.level } : {}),
            width: v.width ?? 0,
            height: v.height ?? 0,
            frameRate: frameRate(v.avg_frame_rate) || frameRate(v.r_frame_rate),
          },
        }
      : {}),
    ...(a
      ? {
          audio: {
            codec: a.codec_name ?? 'unknown',
            ...(a.profile ? { profile: a.profile } : {}),
            ...(a.sample_rate ? { sampleRate: Number(a.sample_rate) } : {}),
            ...(a.channels ? { channels: a.channels } : {}),
          },
        }
      : {}),
    start: Number.isFinite(start) ? start : 0,
    end: Number.isFinite(end) ? end : 0,
    ...(Number.isFinite(videoStart) ? { videoStart, videoEnd } : {}),
    startsWithKeyframe: firstVideo?.flags?.startsWith('K') ?? false,
    keyframes,
    videoPackets,
    ...(Number.isFinite(bitRate) && bitRate > 0 ? { bitRate } : {}),
  };
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
