/**
 * The ladder lab's data: the rungs of a template group, the reference they were made from, and what was measured
 * per rung. Plain data, exported as JSON and CSV as it is.
 */

/** One rendition of a template group (templates that share a name are one rendition in several formats). */
export interface Rung {
  readonly name: string;
  readonly width: number;
  readonly height: number;
  /** kbps, as the group gives it. */
  readonly videoKbps: number;
  /** bits per second, as the group gives it. */
  readonly audioBps: number;
  /** The template's advancedArguments JSON text, when it has one. */
  readonly advancedArguments?: string;
}

export interface Ladder {
  /** The group's name (the file's, or the platform's). */
  readonly name: string;
  readonly rungs: readonly Rung[];
  /** The platform's id of the group, when it is an account's (a document's group has none). */
  readonly groupId?: number;
}

export interface ReferenceInfo {
  /** What the user picked: a file's path, `built-in test clip`, or a video's title. */
  readonly label: string;
  readonly file: string;
  readonly width: number;
  readonly height: number;
  readonly frameRate: number;
  /** Seconds of it that were encoded and compared. */
  readonly seconds: number;
}

export interface RungResult {
  readonly rung: Rung;
  /** Picture of the encoded rendition (x264 rounds odd sizes down to even). */
  readonly width: number;
  readonly height: number;
  /** Video only, measured from the packets (b/s): the average and the highest 2 s window (one HLS segment). */
  readonly averageBitrate: number;
  readonly peakBitrate: number;
  /** Video and audio together (b/s), what a player's bandwidth estimate sees. */
  readonly totalBitrate: number;
  /** Luma PSNR (dB) and SSIM (all planes) against the reference scaled to the rendition's size. */
  readonly psnr: number;
  readonly ssim: number;
  /**
   * The same against the reference at its own size, the rendition scaled up (bicubic) as a player shows it: the
   * figures that compare rungs of different sizes, drawn on the chart.
   */
  readonly psnrAtReference: number;
  readonly ssimAtReference: number;
  /** VMAF (0–100) at the reference's size, when the ffmpeg in use has a working libvmaf. */
  readonly vmaf?: number;
  /**
   * Wall time of the encode (s) and media seconds encoded per second; absent when the platform encoded the rung (its
   * job says no times: "not measured through the platform").
   */
  readonly encodeSeconds?: number;
  readonly speed?: number;
}

export type LadderFindingCode = 'LADDER-RUNG-NO-GAIN' | 'LADDER-RUNGS-TOO-CLOSE' | 'LADDER-RUNG-ABOVE-SOURCE';

export interface LadderFinding {
  readonly code: LadderFindingCode;
  readonly severity: 'error' | 'warning' | 'info';
  readonly message: string;
  readonly clause: string;
  /** The rung it concerns (its name). */
  readonly rung: string;
}

export interface LadderEvaluation {
  readonly ladder: Ladder;
  readonly reference: ReferenceInfo;
  readonly results: readonly RungResult[];
  readonly findings: readonly LadderFinding[];
  /** ffmpeg's version, and why VMAF is missing when it is. */
  readonly ffmpegVersion: string;
  readonly vmafUnavailable?: string;
  /** x264 preset the rungs were encoded with (the local platform's). */
  readonly preset: string;
  /** Which way the rungs were encoded. */
  readonly encodedBy: EncodedBy;
}

/**
 * `ffmpeg`: this machine's ffmpeg with the local platform's encode command (a file group, a real platform's group);
 * `platform`: a local platform transcoded the reference, uploaded as a video of the account, with the group itself.
 */
export type EncodedBy =
  | { readonly way: 'ffmpeg'; readonly why?: string }
  | { readonly way: 'platform'; readonly videoId: string; readonly title: string; readonly groupId: number };
