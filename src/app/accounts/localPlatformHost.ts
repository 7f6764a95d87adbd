import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { AccountCallbacks } from '../../localPlatform/callbacks/callbacks';
import type { LocalPlatform, LocalPlatformOptions } from '../../localPlatform/server';
import type { MediaMode } from '../../media/tools';
import type { LogSink } from '../log';
import type { RemoteCallbacks } from '../ports';
import { callbackUrlProblem } from '../../localPlatform/callbacks/urlRules';
import { Emitter } from '../util/emitter';
import type { AccountProfile, AccountStore, StateStore } from './accountStore';

const LOCAL_ACCOUNT_NAME = 'Local platform';

/** Where the port of the last start is remembered (global state). */
export const LOCAL_PORT_KEY = 'videoPlatform.localPlatform.port';

/** The setting naming the folder of ffmpeg and ffprobe. */
export const FFMPEG_PATH_SETTING = 'videoPlatform.ffmpegPath';

export type LocalPlatformStarter = (options: LocalPlatformOptions) => Promise<LocalPlatform>;

export interface LocalPlatformHostOptions {
  /** Global state: the port of the last start. */
  readonly state?: StateStore;
  /** `videoPlatform.ffmpegPath`, read at each start. */
  readonly ffmpegDir?: () => string | undefined;
  /** `videoPlatform.localPlatform.callbackUrls` and `.remoteCallbacks`, read at each start. */
  readonly callbackUrls?: () => string[];
  readonly remoteCallbacks?: () => RemoteCallbacks;
  /** Saves `videoPlatform.localPlatform.callbackUrls`. */
  readonly saveCallbackUrls?: (urls: string[]) => Promise<void>;
}

/** What the callbacks of the platform inside the editor may reach (src/localPlatform/callbacks/urls.ts). */
export function callbackPolicy(remote: RemoteCallbacks): { allowRemote: boolean; allowPrivate: boolean } {
  return { allowRemote: remote !== 'loopback', allowPrivate: remote === 'private' };
}

/** The options of the platform inside the editor (also what `npm run bench -- idle` starts). */
export function embeddedPlatformOptions(
  dataDir: string,
  account: { accessKey: string; secretKey: string; callbackUrls?: string[] },
  ffmpegDir: string | undefined,
): LocalPlatformOptions {
  return {
    dataDir,
    accounts: [account],
    host: '127.0.0.1',
    port: 0,
    demo: true,
    media: { npmFallback: false, ...(ffmpegDir ? { ffmpegDir } : {}) },
    // Live media is real here too: the demo's test pattern is a loop encoded once (no ffmpeg while it plays)
    // and a channel's ladder runs only while a source is pushed or pulled, so the idle editor stays quiet.
    live: { npmFallback: false, ...(ffmpegDir ? { ffmpegDir } : {}) },
  };
}

function addressInUse(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
}

/**
 * The bundled local platform, run inside the extension host on 127.0.0.1 with its data under the
 * extension's global storage (demo data on first run). Its account has a generated access key and a
 * random secret that lives only in secret storage. It keeps its port from one session to the next
 * where that port is free (remembered in global state), so addresses copied earlier keep working;
 * otherwise it takes a free one and the profile's address follows. Media are real with ffmpeg and
 * ffprobe from `videoPlatform.ffmpegPath` or the PATH (never the npm packages: the VSIX carries no
 * ffmpeg), else simulated; live channels too (RTMP ingest on 1935 where free). The extension's bundle loads the
 * platform from a file of its own on the first start (src/vscode/extension.ts).
 */
export class LocalPlatformHost {
  private running: Promise<LocalPlatform> | undefined;
  private readonly startedEmitter = new Emitter<string>();
  private media: string | undefined;
  private liveSimulated = false;

  /** Fires with the media mode's description each time the platform has started (the status bar shows it). */
  readonly onDidStart = this.startedEmitter.event;

  /** The running platform's media mode, for the status bar (undefined while it is not running). */
  get mediaDescription(): string | undefined {
    return this.running ? this.media : undefined;
  }

  constructor(
    private readonly store: AccountStore,
    private readonly storageDir: string,
    private readonly start: LocalPlatformStarter,
    private readonly log: LogSink,
    private readonly options: LocalPlatformHostOptions = {},
  ) {}

  /** The profile of the local platform, created on first use. */
  private async profile(): Promise<{ profile: AccountProfile; secretKey: string }> {
    const existing = this.store.list().find((account) => account.origin === 'local');
    if (existing) {
      let secretKey = await this.store.secretKey(existing.id);
      if (!secretKey) {
        // Secret storage was cleared: the local platform takes whatever secret we give it.
        secretKey = randomBytes(24).toString('base64url');
        await this.store.update(existing.id, {}, secretKey);
      }
      return { profile: existing, secretKey };
    }
    const secretKey = randomBytes(24).toString('base64url');
    const taken = new Set(this.store.list().map((account) => account.name.toLowerCase()));
    let name = LOCAL_ACCOUNT_NAME;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${LOCAL_ACCOUNT_NAME} (${n})`;
    const profile = await this.store.add(
      { name, baseUrl: 'http://127.0.0.1', accessKey: `local-${randomBytes(8).toString('hex')}`, origin: 'local' },
      secretKey,
    );
    return { profile, secretKey };
  }

  /** Starts the server (once) and returns the profile with its current address. */
  async ensure(): Promise<AccountProfile> {
    const { profile, secretKey } = await this.profile();
    if (!this.running) {
      const starting = this.launch(profile, secretKey);
      this.running = starting;
      starting.catch(() => {
        if (this.running === starting) this.running = undefined;
      });
    }
    const platform = await this.running;
    if (profile.baseUrl !== platform.baseUrl) return this.store.update(profile.id, { baseUrl: platform.baseUrl });
    return profile;
  }

  /** Starts on the remembered port, or a free one when it is taken; remembers the port; logs the media mode. */
  private async launch(profile: AccountProfile, secretKey: string): Promise<LocalPlatform> {
    const ffmpegDir = this.options.ffmpegDir?.();
    const policy = callbackPolicy(this.options.remoteCallbacks?.() ?? 'loopback');
    // A URL the setting holds that the platform would refuse is left out and said in the log, not a failed start.
    const callbackUrls = (this.options.callbackUrls?.() ?? []).filter((url) => {
      const problem = callbackUrlProblem(url, policy);
      if (problem) this.log.warn(`Local platform: callback URL ${url.slice(0, 200)} left out: it ${problem}`);
      return !problem;
    });
    const options = {
      ...embeddedPlatformOptions(
        join(this.storageDir, 'local-platform'),
        { accessKey: profile.accessKey, secretKey, callbackUrls },
        ffmpegDir,
      ),
      callbacks: policy,
    };
    const remembered = this.options.state?.get<number>(LOCAL_PORT_KEY);
    let platform: LocalPlatform;
    if (Number.isInteger(remembered) && remembered! > 0 && remembered! <= 65535) {
      try {
        platform = await this.start({ ...options, port: remembered });
      } catch (error) {
        if (!addressInUse(error)) throw error;
        this.log.warn(`Local platform: port ${remembered} is taken now; using a free one (earlier addresses change)`);
        platform = await this.start(options);
      }
    } else {
      platform = await this.start(options);
    }
    await this.options.state?.update(LOCAL_PORT_KEY, platform.port);
    const media = `${platform.mediaDescription}; ${liveDescription(platform)}`;
    this.log.info(`Local platform listening at ${platform.baseUrl}; media: ${media}`);
    this.media = media;
    this.liveSimulated = platform.rtmpUrl === undefined;
    this.startedEmitter.fire(media);
    return platform;
  }

  /** Live channels of the running platform are simulated (no ffmpeg): the views say so and offer no player. */
  get isLiveSimulated(): boolean {
    return this.running !== undefined && this.liveSimulated;
  }

  /** Which media mode the running platform uses (undefined before it started). */
  async mediaMode(): Promise<{ mode: MediaMode; description: string } | undefined> {
    const platform = await this.running?.catch(() => undefined);
    return platform ? { mode: platform.mediaMode, description: platform.mediaDescription } : undefined;
  }

  /** For "Connect to Local Platform": the account, its address and the media mode. */
  async connect(): Promise<{ accountId: string; baseUrl: string; media: MediaMode; mediaDescription: string }> {
    const profile = await this.ensure();
    const platform = await this.running!;
    return {
      accountId: profile.id,
      baseUrl: profile.baseUrl,
      media: platform.mediaMode,
      mediaDescription: platform.mediaDescription,
    };
  }

  /** The callbacks of the running platform's account (started if need be). */
  async callbacks(): Promise<AccountCallbacks> {
    const profile = await this.ensure();
    const platform = await this.running!;
    return platform.callbacks.of(profile.accessKey);
  }

  /** The callback URLs of the setting, and which hosts they may name. */
  get callbackSettings(): { urls: string[]; remote: RemoteCallbacks } {
    return { urls: this.options.callbackUrls?.() ?? [], remote: this.options.remoteCallbacks?.() ?? 'loopback' };
  }

  /** Saves the callback URLs (the setting) and applies them at once when the platform runs (checked there too). */
  async setCallbackUrls(urls: string[]): Promise<void> {
    if (this.running) {
      const platform = await this.running;
      const profile = this.store.list().find((account) => account.origin === 'local');
      if (profile) platform.callbacks.of(profile.accessKey).setUrls(urls);
    }
    await this.options.saveCallbackUrls?.(urls);
  }

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  async dispose(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    if (running) await running.then((platform) => platform.close()).catch(() => undefined);
  }
}

/** What the media description says when live media is simulated (the status bar looks for it). */
export const SIMULATED_LIVE = 'simulated live: needs ffmpeg';

/** The live half of the media mode, for the status bar and the log. */
function liveDescription(platform: LocalPlatform): string {
  return platform.rtmpUrl ? `real live (RTMP ingest ${platform.rtmpUrl})` : SIMULATED_LIVE;
}
