/**
 * Figures derived from a media playlist's model: bit rates, picture, codecs, keyframe interval. Pure; the checks
 * and the report's rows both read them, so the table and the findings never disagree.
 */
import { describeCodecs } from './mediaFacts';
import type { MediaFacts } from './mediaFacts';
import { readSegments, type MediaPlaylistModel } from './model';

export interface Measures {
  /** Highest segment bit rate (b/s, size × 8 / EXTINF) and the segment that has it. */
  peak?: { bps: number; uri: string; sequence: number };
  /** Total bits / total EXTINF (b/s). */
  averageBandwidth?: number;
  bandwidthFrom?: 'all-segments' | 'sampled-segments';
  /** The first read segment with video, else the last read one. */
  describing?: MediaFacts;
  resolution?: string;
  frameRate?: number;
  codecs?: string;
  keyframeInterval?: { mean: number; spread: number; from: string };
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

export function measure(p: MediaPlaylistModel): Measures {
  const out: Measures = {};
  const known = p.segments.filter((s) => s.size !== undefined && s.duration > 0);
  if (known.length > 0) {
    let peak = known[0]!;
    for (const s of known) if (s.size! / s.duration > peak.size! / peak.duration) peak = s;
    out.peak = { bps: Math.round((peak.size! * 8) / peak.duration), uri: peak.uri, sequence: peak.sequence };
    const bits = known.reduce((t, s) => t + s.size! * 8, 0);
    out.averageBandwidth = Math.round(bits / known.reduce((t, s) => t + s.duration, 0));
    out.bandwidthFrom = known.length === p.segments.length ? 'all-segments' : 'sampled-segments';
  }
  const read = readSegments(p);
  const withVideo = read.filter((r) => r.media.video);
  out.describing = withVideo[0]?.media ?? read[read.length - 1]?.media;
  const v = withVideo[0]?.media.video;
  if (v) {
    out.resolution = `${v.width}x${v.height}`;
    out.frameRate = round3(v.frameRate);
  }
  if (out.describing) out.codecs = describeCodecs(out.describing);
  const gaps: number[] = [];
  for (const { media } of withVideo) gaps.push(...media.keyframes.slice(1).map((k, i) => k - media.keyframes[i]!));
  const from = `${withVideo.length} of ${p.segments.length} segment(s)`;
  if (gaps.length > 0) {
    const mean = gaps.reduce((s, g) => s + g, 0) / gaps.length;
    const spread = Math.sqrt(gaps.reduce((s, g) => s + (g - mean) ** 2, 0) / gaps.length);
    out.keyframeInterval = { mean: round3(mean), spread: round3(spread), from };
  } else if (withVideo.length > 0) {
    // At most one keyframe per read segment: the video time per keyframe is the interval.
    const span = withVideo.reduce((t, r) => t + r.media.videoEnd! - r.media.videoStart!, 0);
    const count = withVideo.reduce((n, r) => n + r.media.keyframes.length, 0);
    if (count > 0) out.keyframeInterval = { mean: round3(span / count), spread: 0, from };
  }
  return out;
}
