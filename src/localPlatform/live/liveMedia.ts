/**
 * Live media of a platform: the RTMP server, the media of every started channel, the limit on how
 * many run at once, and the `/live/...` files. Created by startLocalPlatform when real media is on
 * (the `live` option and ffmpeg found); channel operations reach it through `Account.live`.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Codes } from '../../api/errorCodes';
import { ChannelStatuses } from '../../api/types';
import type { MediaTools } from '../../media/tools';
import type { Account } from '../actions/context';
import { PlatformFault } from '../http/faults';
import type { ChannelRec } from '../store/records';
import { Tx } from '../store/store';
import { ChannelMedia, renditionsOf } from './channelMedia';
import { channelHealth, type ChannelHealth } from './health';
import type { LiveChannel } from './liveChannel';
import { isLoopable, PatternLoop } from './patternLoop';
import {
  outputAddressProblem,
  outputUrlProblem,
  pullAddressProblem,
  pullStreamProblem,
  type AddressPolicy,
} from './pullSource';
import { recordingToVideo } from './recording';
import { RtmpServer, RTMP_APP } from './rtmpServer';
import { Watchdog } from './watchdog';

export const DEFAULT_MAX_LIVE_CHANNELS = 2;

export interface LiveOptions {
  /** 1935 where free, else a free port, when not given. */
  rtmpPort?: number;
  /** Channels whose ffmpeg ladder runs at once (a source pushed or pulled; default 2, suited to 2 cores). */
  maxLiveChannels?: number;
  /** Folder of ffmpeg and ffprobe. */
  ffmpegDir?: string;
  /** Also look for ffmpeg in the npm packages that carry it. */
  npmFallback?: boolean;
  /** Seconds one hour of time shift lasts: 3600; tests shorten it. */
  timeShiftHourSeconds?: number;
  /**
   * Pull sources and third-party RTMP outputs on loopback, private and link-local addresses are allowed
   * (default false; live/pullSource.ts).
   */
  allowPrivateSources?: boolean;
  /**
   * For tests only: exact `address:port` pairs (`127.0.0.1:8080`) that count as public addresses, so that a test
   * server on loopback can stand in for a public source; every other private address stays refused.
   */
  publicAddressesForTests?: string[];
}

/** What channel operations call (actions/channels.ts). */
export interface LiveHooks {
  /** Throws the envelope error when one more channel would pass the limit. */
  reserve(channel: ChannelRec): void;
  /** Starts the media of a channel whose record says it is starting (status 5). */
  start(channelId: string): void;
  /** Stops every process of the channel and hands over its recording. */
  stop(channelId: string): Promise<void>;
  /** The channel's thumbnail is on disk (its ladder wrote one since the channel started): lists name it. */
  thumbnail(channelId: string): boolean;
  /** The started channel's health (live/health.ts); undefined when this account has no such started channel. */
  health(channelId: string): Promise<ChannelHealth | undefined>;
  /** Why the platform will not pull from this address (its host is not public), or undefined. */
  pullProblem(pullStream: string): Promise<string | undefined>;
  /** Why the platform will not send an RTMP group to this address (`rtmpThirdPartyOutputUrl`), or undefined. */
  outputProblem(url: string): Promise<string | undefined>;
}

export class LiveMedia {
  private readonly channels = new Map<string, LiveChannel>();
  private readonly byStream = new Map<string, LiveChannel>();
  private readonly watchdog = new Watchdog();
  private readonly internalAuth = randomBytes(16).toString('hex');
  private readonly max: number;
  /** Which addresses pulls and outputs may reach. */
  readonly policy: AddressPolicy;

  private constructor(
    readonly tools: MediaTools,
    readonly rtmp: RtmpServer,
    private readonly rtmpLocal: string,
    private readonly dataDir: string,
    private readonly options: LiveOptions,
    private readonly log: (line: string) => void,
  ) {
    this.max = options.maxLiveChannels ?? DEFAULT_MAX_LIVE_CHANNELS;
    this.policy = {
      allowPrivate: options.allowPrivateSources === true,
      publicForTests: new Set(options.publicAddressesForTests ?? []),
    };
  }

  static async start(
    tools: MediaTools,
    host: string,
    dataDir: string,
    options: LiveOptions,
    log: (line: string) => void,
  ): Promise<LiveMedia> {
    let media: LiveMedia | undefined;
    const rtmp = await RtmpServer.start(host, options.rtmpPort, {
      authorize: (p) => media?.authorize(p.stream, p.query) ?? 'the platform is starting',
      published: (stream, session) => media?.byStream.get(stream)?.published(session),
      unpublished: (stream, session) => media?.byStream.get(stream)?.unpublished(session),
      log,
    });
    // The platform's own processes reach the RTMP server at the bound address (loopback for a wildcard).
    const local = ['0.0.0.0', '::', ''].includes(host) ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
    media = new LiveMedia(tools, rtmp, `rtmp://${local}:${rtmp.port}/${RTMP_APP}`, dataDir, options, log);
    return media;
  }

  get rtmpPort(): number {
    return this.rtmp.port;
  }

  private authorize(stream: string, query: Record<string, string>): true | string {
    // Outputs of the platform's own processes (RTMP groups, pull relays): a random token of this run.
    if (query.auth === this.internalAuth) return true;
    const media = this.byStream.get(stream);
    if (!media) return `no started channel has stream ${stream.slice(0, 40)}`;
    const ch = media.channelRecord();
    if (!ch) return 'the channel is gone';
    if (ch.signalType === '2') return 'the channel pulls its source; it takes no push';
    if (query.auth !== ch.authCode) return 'the auth code is wrong or missing';
    if (media.publishing) return 'the stream already has a publisher';
    const busy = this.encodingCount();
    if (busy >= this.max) {
      return `${busy} channels already have a source (the limit is ${this.max}: maxLiveChannels / --max-live-channels)`;
    }
    return true;
  }

  /** The hooks of one account's channel operations. */
  hooksFor(account: Account): LiveHooks {
    return {
      reserve: (channel) => {
        // Addresses name a channel by its id or stream only: one running channel per id and stream
        // in a platform (accounts seeded with the same demo data share them).
        if (this.channels.has(channel.id) || this.byStream.has(channel.stream)) {
          throw new PlatformFault(
            Codes.channelStateConflict,
            `channel ${channel.id} cannot start: a channel with the same id or stream name is live in another account`,
          );
        }
        // A pushed channel costs nothing until its encoder connects (the publish is refused at the limit then);
        // a pulled one runs its relay and ladder from the start; the looped test pattern runs nothing.
        const busy = this.encodingCount();
        if (pullsWithProcess(channel) && busy >= this.max) {
          throw new PlatformFault(
            Codes.channelStateConflict,
            `channel ${channel.id} cannot start: ${busy} channels with a source are already live ` +
              `and the limit is ${this.max} (maxLiveChannels / --max-live-channels); stop one first`,
          );
        }
      },
      start: (channelId) => this.startChannel(account, channelId),
      pullProblem: (pullStream) => pullAddressProblem(pullStream, this.policy),
      outputProblem: (url) => outputAddressProblem(url, this.policy),
      stop: (channelId) => this.stopChannel(channelId),
      thumbnail: (channelId) => {
        const media = this.channels.get(channelId);
        // Of this account's channel only: ids are per account (data seeded by older versions may repeat one).
        return media !== undefined && media.store === account.store && media.thumbnailReady;
      },
      health: async (channelId) => {
        const media = this.channels.get(channelId);
        return media !== undefined && media.store === account.store ? channelHealth(media) : undefined;
      },
    };
  }

  /** Channels whose ffmpeg runs now: what the limit counts. */
  private encodingCount(): number {
    let n = 0;
    for (const media of this.channels.values()) if (media.encoding) n++;
    return n;
  }

  private startChannel(account: Account, channelId: string): void {
    const ch = account.store.get('channels', channelId);
    if (!ch || this.channels.has(channelId)) return;
    const media = isLoopable(ch)
      ? new PatternLoop(channelId, ch.stream, (outputs) => renditionsOf(account.store, outputs), {
          tools: this.tools,
          store: account.store,
          watchdog: this.watchdog,
          cacheDir: join(this.dataDir, 'live-loops'),
          log: (line) => this.log(line),
        })
      : this.channelMedia(account, channelId, ch.stream);
    this.channels.set(channelId, media);
    this.byStream.set(ch.stream, media);
    media.start().catch((error: unknown) => this.log(`channel ${channelId}: ${String(error)}`));
  }

  private channelMedia(account: Account, channelId: string, stream: string): ChannelMedia {
    return new ChannelMedia(channelId, stream, {
      tools: this.tools,
      store: account.store,
      watchdog: this.watchdog,
      policy: this.policy,
      rtmpLocal: this.rtmpLocal,
      internalAuth: this.internalAuth,
      dir: this.channelDir(channelId),
      timeShiftHourSeconds: this.options.timeShiftHourSeconds ?? 3600,
      log: (line) => this.log(line),
      onRecording: (file, channel) =>
        recordingToVideo(this.tools, account, this.dataDir, file, channel, this.log, this.watchdog),
    });
  }

  private async stopChannel(channelId: string, handOver = true): Promise<void> {
    const media = this.channels.get(channelId);
    if (!media) return;
    this.channels.delete(channelId);
    if (this.byStream.get(media.stream) === media) this.byStream.delete(media.stream);
    await media.stop(handOver);
  }

  /** Channels whose record says they were live when the platform stopped start again. */
  async resume(account: Account): Promise<void> {
    for (const ch of [...account.store.values('channels')]) {
      if (
        ch.status !== ChannelStatuses.live &&
        ch.status !== ChannelStatuses.pulling &&
        ch.status !== ChannelStatuses.starting
      )
        continue;
      const taken = this.channels.has(ch.id) || this.byStream.has(ch.stream);
      const refused = await this.storedSourceProblem(ch);
      if ((pullsWithProcess(ch) && this.encodingCount() >= this.max) || taken || refused) {
        const why = refused
          ? `its ${refused}`
          : taken
            ? 'its id or stream is live in another account'
            : `the limit of ${this.max} channels is reached`;
        this.log(`channel ${ch.id} was live but is not started again: ${why}`);
        await account.store.commit(
          new Tx().put('channels', {
            ...ch,
            status: ChannelStatuses.ready,
            streamStatus: 2,
            endTime: Date.now(),
            updateTime: Date.now(),
          }),
        );
        continue;
      }
      await account.store.commit(
        new Tx().put('channels', { ...ch, status: ChannelStatuses.starting, streamStatus: 2 }),
      );
      this.startChannel(account, ch.id);
    }
  }

  /**
   * A pull source or a third-party RTMP output stored before the rules of live/pullSource.ts, or allowed by an
   * earlier start's options: the field and why.
   */
  private async storedSourceProblem(ch: ChannelRec): Promise<string | undefined> {
    for (const [i, g] of ch.groups.entries()) {
      const url = g.rtmpThirdPartyOutputUrl;
      const problem = url ? (outputUrlProblem(url) ?? (await outputAddressProblem(url, this.policy))) : undefined;
      if (problem) return `outputGroupList[${i}].rtmpThirdPartyOutputUrl ${problem}`;
    }
    if (ch.signalType !== '2' || !ch.pullStream) return undefined;
    const problem = pullStreamProblem(ch.pullStream) ?? (await pullAddressProblem(ch.pullStream, this.policy));
    return problem ? `pullStream ${problem}` : undefined;
  }

  channelDir(channelId: string): string {
    return join(this.dataDir, 'live', channelId);
  }

  mediaOf(channelId: string): LiveChannel | undefined {
    return this.channels.get(channelId);
  }

  mediaOfStream(stream: string): LiveChannel | undefined {
    return this.byStream.get(stream);
  }

  /** Stops every process; the records still say live, so the next start resumes them. */
  async close(): Promise<void> {
    await Promise.all([...this.channels.keys()].map((id) => this.stopChannel(id, false).catch(() => undefined)));
    await this.rtmp.close();
    this.watchdog.close();
  }
}

/** A pull channel other than the looped test pattern: its relay and ladder run from the start. */
function pullsWithProcess(channel: ChannelRec): boolean {
  return channel.signalType === '2' && !isLoopable(channel);
}
