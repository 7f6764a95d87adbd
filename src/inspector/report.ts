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
    /** Mean and spread of the gaps between keyframes (s), and what they were measured from (`3 of 20 segment(s)`). */
    keyframeInterval?: { mean: number; spread: number; from?: string };
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
  /** Every segment of the playlist: EXTINF, bytes when sized, and when read the media's length and keyframes. */
  timeline?: TimelineSegment[];
  /** The initialization section's URI as written (EXT-X-MAP of the first segment), for fMP4 segments. */
  init?: string;
}

export interface TimelineSegment {
  readonly sequence: number;
  /** As written in the playlist (findings name segments by it). */
  readonly uri: string;
  /** EXTINF (s). */
  readonly duration: number;
  readonly bytes?: number;
  /** The media's own length (s), when the segment was read. */
  readonly measured?: number;
  /** Keyframe times from the segment's start (s), when read. */
  readonly keyframes?: readonly number[];
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
    /** What was not read or not checked, in words (so that a clean report is not read as more than it is). */
    notChecked?: string[];
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
