/**
 * The media engine of one local platform: which mode runs (real media with ffmpeg, or the simulated
 * clock), and the slots that bound how many ffmpeg jobs run at once across all accounts.
 */
import { availableParallelism } from 'node:os';
import { describeMediaMode, findMediaTools, type MediaMode, type MediaTools } from '../../media/tools';

export interface MediaOptions {
  /** `simulated` forces the simulated clock; `auto` (default) uses ffmpeg when it is found. */
  mode?: 'auto' | 'simulated';
  /** A folder holding ffmpeg and ffprobe (`--ffmpeg DIR`). */
  ffmpegDir?: string;
  /** Also use the npm packages that carry ffmpeg (the CLI and the tests allow it). */
  npmFallback?: boolean;
  /** ffmpeg jobs at once, across accounts (default: one per 2 cores, at least 1). */
  maxJobs?: number;
  /** Largest accepted upload in bytes (default 2 GiB). */
  maxUploadBytes?: number;
  /** x264 preset of renditions (default `veryfast`). */
  preset?: string;
  /** Bounds on an uploaded video (defaults: DEFAULT_MEDIA_LIMITS). */
  limits?: Partial<MediaLimits>;
}

/** What one uploaded video may ask of the machine; an upload beyond one is refused (media/upload.ts). */
export interface MediaLimits {
  /** Width x height of a frame. */
  maxFramePixels: number;
  /** Frames per second. */
  maxFrameRate: number;
  /** Duration in seconds. */
  maxDurationSeconds: number;
  /** Frames (duration x frame rate) x pixels per frame: the decoding work of one pass. */
  maxTotalPixels: number;
}

export const DEFAULT_MEDIA_LIMITS: MediaLimits = {
  // 8K UHD (7680x4320), the largest template size.
  maxFramePixels: 7680 * 4320,
  maxFrameRate: 240,
  maxDurationSeconds: 6 * 3600,
  // Six hours of 1080p at 60 frames per second.
  maxTotalPixels: 6 * 3600 * 60 * 1920 * 1080,
};

export const DEFAULT_MAX_UPLOAD_BYTES = 2 * 1024 ** 3;

export function defaultMaxJobs(): number {
  return Math.max(1, Math.floor(availableParallelism() / 2));
}

export class MediaEngine {
  private running = 0;
  private readonly waiting = new Set<() => void>();

  private constructor(
    readonly mode: MediaMode,
    readonly maxJobs: number,
    readonly maxUploadBytes: number,
    readonly preset: string,
    readonly limits: MediaLimits,
  ) {}

  /** Finds the tools (unless simulation is forced); never throws for missing tools. */
  static async start(options: MediaOptions | undefined): Promise<MediaEngine> {
    const maxJobs = options?.maxJobs ?? defaultMaxJobs();
    if (!(Number.isInteger(maxJobs) && maxJobs >= 1 && maxJobs <= 64))
      throw new Error('media.maxJobs must be an integer from 1 to 64');
    const maxUpload = options?.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
    if (!(Number.isSafeInteger(maxUpload) && maxUpload >= 1))
      throw new Error('media.maxUploadBytes must be a positive integer');
    const mode: MediaMode =
      options === undefined || options.mode === 'simulated'
        ? { kind: 'simulated', reason: 'simulation chosen by the caller' }
        : await findMediaTools({ dir: options.ffmpegDir, npmFallback: options.npmFallback });
    const limits = { ...DEFAULT_MEDIA_LIMITS, ...options?.limits };
    for (const [name, value] of Object.entries(limits)) {
      if (!(typeof value === 'number' && value > 0 && Number.isFinite(value)))
        throw new Error(`media.limits.${name} must be a positive number`);
    }
    return new MediaEngine(mode, maxJobs, maxUpload, options?.preset ?? 'veryfast', limits);
  }

  get tools(): MediaTools | undefined {
    return this.mode.kind === 'real' ? this.mode.tools : undefined;
  }

  describe(): string {
    return describeMediaMode(this.mode);
  }

  /** Takes a job slot if one is free. */
  tryAcquire(): boolean {
    if (this.running >= this.maxJobs) return false;
    this.running++;
    return true;
  }

  /** Gives a slot back and lets the queues that wait for one try again. */
  release(): void {
    this.running = Math.max(0, this.running - 1);
    for (const wake of [...this.waiting]) wake();
  }

  /** A queue's "try again" callback, called whenever a slot frees. */
  onSlotFree(wake: () => void): () => void {
    this.waiting.add(wake);
    return () => this.waiting.delete(wake);
  }
}
