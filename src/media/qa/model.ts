/**
 * What the content checks measure in a file (or a list of segment files played one after another): loudness as
 * ITU-R BS.1770 / EBU R128 measure it, the intervals of black video, frozen video and silence, and the audio/video
 * start offset. Plain data: measure.ts fills it from ffmpeg's filters, checks.ts judges it.
 */

/** A stretch of the input, in seconds from its start. */
export interface Interval {
  readonly start: number;
  readonly end: number;
}

export interface Loudness {
  /** Integrated loudness (LUFS; LKFS is the same unit under ATSC's name). */
  readonly integrated: number;
  /** Loudness range (LU), EBU Tech 3342. */
  readonly range: number;
  /** Maximum true peak over all channels (dBTP); absent when ffmpeg did not report one. */
  readonly truePeak?: number;
}

export interface StartOffset {
  /** First presentation time of the video and of the audio (s) from the container's timestamps, the earlier at 0. */
  readonly video: number;
  readonly audio: number;
  /** audio − video (s): positive when the sound starts after the picture. */
  readonly audioLag: number;
}

export interface ContentMeasurement {
  /** What was measured: the file, or the first of the segment files and how many there were. */
  readonly input: string;
  readonly files: number;
  /** Seconds of media the filters saw (the last timestamp they reported). */
  readonly duration: number;
  readonly hasVideo: boolean;
  readonly hasAudio: boolean;
  readonly loudness?: Loudness;
  readonly black: readonly Interval[];
  readonly frozen: readonly Interval[];
  readonly silence: readonly Interval[];
  readonly startOffset?: StartOffset;
  /** False when `maxSeconds` cut the measurement short. */
  readonly complete: boolean;
}

/** The detection thresholds, each a setting of the ffmpeg filter that measures it. */
export interface Thresholds {
  /** blackdetect: shortest black stretch reported (s). */
  readonly blackSeconds: number;
  /** blackdetect `pix_th`: a pixel is black below this fraction of the luma range. */
  readonly blackPixel: number;
  /** freezedetect: shortest frozen stretch reported (s). */
  readonly freezeSeconds: number;
  /** freezedetect `n`: pictures closer than this (dB) count as the same picture. */
  readonly freezeNoiseDb: number;
  /** silencedetect: shortest silence reported (s). */
  readonly silenceSeconds: number;
  /** silencedetect `n`: below this level (dBFS) is silence. */
  readonly silenceDb: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = {
  blackSeconds: 1,
  blackPixel: 0.1,
  freezeSeconds: 2,
  // -50 dB rather than freezedetect's -60: an encoder keeps refining a repeated picture for a second or so, and at
  // -60 dB that refinement reads as motion (measured: a 3 s freeze in x264 ultrafast was reported 1 s late).
  freezeNoiseDb: -50,
  silenceSeconds: 2,
  silenceDb: -60,
};
