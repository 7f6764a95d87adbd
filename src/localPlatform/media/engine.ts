/**
 * The media engine of one local platform: which mode runs (real media with ffmpeg, or the simulated
 * clock), and the slots that bound how many ffmpeg jobs run at once across all accounts.
 */
import { availableParallelism } from 'node:os';
import { describeMediaMode, findMediaTools, type MediaMode, type MediaTools, type RunOptions } from '../../media/tools';
import { Watchdog } from '../live/watchdog';

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

/** `options` with the process listed and marked with `watchdog` (live/watchdog.ts). */
export function watched(watchdog: Watchdog, options: RunOptions = {}): RunOptions {
  return { ...options, env: { ...options.env, ...watchdog.env }, track: watchdog };
}

export function defaultMaxJobs(): number {
  return Math.max(1, Math.floor(availableParallelism() / 2));
}

/** One account's transcoding queue as the engine sees it (media/jobs.ts). */
export interface JobQueue {
  /** Starts the queue's next waiting job in a slot the engine has taken for it; false when none waits. */
  startNext(): boolean;
}

export class MediaEngine {
  private running = 0;
  private readonly queues: JobQueue[] = [];
  /** Where the round of queues goes on: the queue after the one served last. */
  private turn = 0;
  /**
   * Every ffmpeg of the media (transcodes, covers, demo clips) is listed with it: killed when the
   * platform ends, `kill -9` included (the live media's mechanism, live/watchdog.ts).
   */
  readonly watchdog = new Watchdog();

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
    const limits = { ...DEFAULT_MEDIA_LIMITS, ...options?.limits };
    for (const [name, value] of Object.entries(limits)) {
      if (!(typeof value === 'number' && value > 0 && Number.isFinite(value)))
        throw new Error(`media.limits.${name} must be a positive number`);
    }
    const mode: MediaMode =
      options === undefined || options.mode === 'simulated'
        ? { kind: 'simulated', reason: 'simulation chosen by the caller' }
        : await findMediaTools({ dir: options.ffmpegDir, npmFallback: options.npmFallback });
    const engine = new MediaEngine(mode, maxJobs, maxUpload, options?.preset ?? 'veryfast', limits);
    // Started with real media, so that no request waits for it (an upload's answer would).
    if (mode.kind === 'real') engine.watchdog.start();
    return engine;
  }

  get tools(): MediaTools | undefined {
    return this.mode.kind === 'real' ? this.mode.tools : undefined;
  }

  describe(): string {
    return describeMediaMode(this.mode);
  }

  /** Options of every media tool run: its process listed and marked with the watchdog while it runs. */
  runOptions(options: RunOptions = {}): RunOptions {
    return watched(this.watchdog, options);
  }

  /** Adds an account's queue to the round; the returned function takes it out. */
  register(queue: JobQueue): () => void {
    this.queues.push(queue);
    return () => {
      const i = this.queues.indexOf(queue);
      if (i >= 0) this.queues.splice(i, 1);
      if (this.turn > i) this.turn--;
    };
  }

  /**
   * Hands free slots to the accounts' queues in turn, one job per queue per round (round-robin), so
   * one account's uploads cannot keep every slot while another account's jobs wait.
   */
  schedule(): void {
    let idle = 0;
    while (this.running < this.maxJobs && this.queues.length > 0 && idle < this.queues.length) {
      this.turn %= this.queues.length;
      const queue = this.queues[this.turn];
      this.turn = (this.turn + 1) % this.queues.length;
      this.running++;
      if (queue.startNext()) {
        idle = 0;
      } else {
        this.running--;
        idle++;
      }
    }
  }

  /** A job ended: its slot goes to the next queue in the round. */
  release(): void {
    this.running = Math.max(0, this.running - 1);
    this.schedule();
  }

  /** Stops the watchdog (the processes it lists were stopped by their owners). */
  close(): void {
    this.watchdog.close();
  }
}
