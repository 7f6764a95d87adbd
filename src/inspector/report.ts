/** The inspector's report: what `--json` prints and what the report view renders. */
import type { Finding } from './findings';

export type InputKind = 'hls-master' | 'hls-media' | 'mp4' | 'flv' | 'ts' | 'media';

export interface VariantRow {
  /** The variant's playlist address as written in the master playlist (or the input's name). */
  readonly name: string;
  /** The absolute address it was read from (query stripped). */
  readonly address: string;
  readonly declared: {
    readonly bandwidth?: number;
    readonly averageBandwidth?: number;
    readonly resolution?: string;
    readonly codecs?: string;
    readonly frameRate?: number;
  };
  readonly measured: {
    /** Highest segment bit rate (b/s): size × 8 / EXTINF. */
    peakBandwidth?: number;
    /** Total bits / total EXTINF (b/s). */
    averageBandwidth?: number;
    /** How the figures above were made: every segment's size, or only the sampled segments. */
    bandwidthFrom?: 'all-segments' | 'sampled-segments' | 'file';
    resolution?: string;
    /** e.g. `h264 High L3.0, aac LC`. */
    codecs?: string;
    frameRate?: number;
    keyframeInterval?: { mean: number; spread: number };
  };
  segments?: number;
  targetDuration?: number;
  longestSegment?: number;
  /** Seconds of media the playlist (or file) holds. */
  duration?: number;
  encryption?: string;
  live?: boolean;
  /** Media sequence numbers of the segments that were downloaded and probed. */
  sampledSegments?: string[];
}

export interface Report {
  readonly input: string;
  readonly kind: InputKind;
  readonly live: boolean;
  readonly variants: VariantRow[];
  readonly findings: Finding[];
  readonly sampled: {
    /** The rule in words. */
    rule: string;
    segmentsProbed: number;
    requests: { get: number; head: number };
    bytesRead: number;
    liveSeconds?: number;
    playlistReloads?: number;
    /** Seconds from the newest segment's end (program date-time) to the clock, when live. */
    liveEdgeSeconds?: number;
    elapsedMs: number;
    ffprobe?: string;
    /** What read the media (the in-process reader). */
    reader?: string;
  };
}
