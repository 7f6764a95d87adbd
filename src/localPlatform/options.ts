/** What startLocalPlatform takes and gives, and the checks of what it takes. */
import type { MediaMode } from '../media/tools';
import type { LiveOptions } from './live/liveMedia';
import type { MediaOptions } from './media/engine';
import type { PlatformAccount } from './accounts';
import type { CallbackOptions, PlatformCallbacks } from './callbacks/callbacks';
import { callbackUrlProblem } from './callbacks/urlRules';

export interface LocalPlatformOptions {
  dataDir: string;
  accounts: PlatformAccount[];
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Seed demo data for accounts that have no data yet. */
  demo?: boolean;
  /** Simulated clock multiplier for transcoding (default 1: a run takes about 10 s). */
  clockSpeed?: number;
  /** Allowed skew of a request's `timestamp` (default 15 minutes). */
  timestampWindowMs?: number;
  /** Largest accepted request body (default 1 MiB); larger ones get bodyTooLarge. */
  maxBodyBytes?: number;
  /** Time for a `/rest` request's whole body to arrive (default 60 s); a slower one gets HTTP 408. */
  bodyTimeoutMs?: number;
  /**
   * A connection that sends and receives nothing this long is closed (default 60 s). There is no limit on
   * a whole request, so a large upload on a slow line goes on as long as it keeps sending.
   */
  idleTimeoutMs?: number;
  /**
   * Host names served besides loopback and the bound address (a request naming another host, as a
   * web page reaching the platform through DNS rebinding does, is refused).
   */
  allowedHosts?: string[];
  /** Refuse a signed request seen before within the timestamp window (default off). */
  replayGuard?: boolean;
  /** Real media with ffmpeg (src/localPlatform/README.md "Media"); absent: the simulated clock. */
  media?: MediaOptions;
  /** Called once per answered request (no parameters, no secrets): for logs. */
  onRequest?: (entry: { action: string; code: number; durationMs: number }) => void;
  /** Real live media (RTMP ingest, ffmpeg outputs; live/liveMedia.ts) when ffmpeg is found; simulated otherwise. */
  live?: LiveOptions;
  /** How the callbacks are delivered and where they may go (callbacks/callbacks.ts); the URLs are per account. */
  callbacks?: CallbackOptions;
  /**
   * A stream fault profile (faults/profile.ts: a JSON array of rules), read at start (a bad one refuses the start)
   * and again each time the file changes; a removed or empty file turns its faults off.
   */
  faultsFile?: string;
}

export interface LocalPlatform {
  /** `http://127.0.0.1:PORT` */
  readonly baseUrl: string;
  /** `http://127.0.0.1:PORT/rest` */
  readonly restUrl: string;
  readonly port: number;
  /** `rtmp://HOST:PORT/live` when real live media runs. */
  readonly rtmpUrl?: string;
  /** Why live media is simulated, when `live` was asked for and ffmpeg is missing. */
  readonly liveSimulatedReason?: string;
  /** Which media mode runs: real (ffmpeg's version and path) or simulated (and why). */
  readonly mediaMode: MediaMode;
  /** One line saying the media mode, for banners. */
  readonly mediaDescription: string;
  /** The accounts' callbacks: URLs, delivery log, resend, trigger, receiver faults (callbacks/). */
  readonly callbacks: PlatformCallbacks;
  close(): Promise<void>;
}

export function checkOptions(options: LocalPlatformOptions): void {
  if (!options.dataDir) throw new Error('dataDir is required');
  if (!Array.isArray(options.accounts) || options.accounts.length === 0)
    throw new Error('at least one account is required');
  const keys = new Set<string>();
  for (const [i, a] of options.accounts.entries()) {
    if (!a.accessKey || !a.secretKey) throw new Error(`accounts[${i}] needs an access key and a secret key`);
    if (keys.has(a.accessKey)) throw new Error(`accounts[${i}]: access key given twice`);
    keys.add(a.accessKey);
    if (a.userId !== undefined && (!Number.isSafeInteger(a.userId) || a.userId <= 0)) {
      throw new Error(`accounts[${i}].userId must be a positive integer`);
    }
    for (const [j, url] of (a.callbackUrls ?? []).entries()) {
      const problem = callbackUrlProblem(url, {
        allowRemote: options.callbacks?.allowRemote === true,
        allowPrivate: options.callbacks?.allowPrivate === true,
      });
      if (problem) throw new Error(`accounts[${i}].callbackUrls[${j}] ${problem}`);
    }
  }
  if (options.clockSpeed !== undefined && !(options.clockSpeed > 0 && Number.isFinite(options.clockSpeed))) {
    throw new Error('clockSpeed must be a positive number');
  }
  if (options.port !== undefined && !(Number.isInteger(options.port) && options.port >= 0 && options.port <= 65535)) {
    throw new Error('port must be an integer from 0 to 65535');
  }
  for (const name of options.allowedHosts ?? []) {
    if (typeof name !== 'string' || !/^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:.]+|[A-Za-z0-9._-]+)$/.test(name)) {
      throw new Error(`allowedHosts: ${JSON.stringify(name)} is not a host name or address`);
    }
  }
}
