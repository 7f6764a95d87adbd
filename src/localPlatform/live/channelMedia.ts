/**
 * The real media of one started channel: for a pull channel a relay ffmpeg that publishes the source
 * into the RTMP server (so pushed and pulled channels share one path), and per publish one ladder
 * ffmpeg (ladder.ts) writing the channel's outputs. The channel record follows what happens:
 * status 5 while starting, 3 while a pull source connects, 2 when live; streamStatus 1 while a
 * source delivers, 2 when it stops; the stream fields read in-process from the incoming stream.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MediaTools } from '../../media/tools';
import { ChannelStatuses } from '../../api/types';
import { readMedia } from '../../media/read';
import { DIR_MODE, FILE_MODE } from '../store/permissions';
import type { ChannelRec } from '../store/records';
import { Tx, type AccountStore } from '../store/store';
import {
  hlsChildFile,
  ladderArgs,
  PLAYLIST_SEGMENTS,
  SEGMENT_SECONDS,
  type LadderGroup,
  type LogoBox,
  type Rendition,
} from './ladder';
import { IngestMeter, meterPublisher, type SourceFigures } from './ingestMeter';
import type { HlsGroupInfo, LiveChannel } from './liveChannel';
import type { NmsSession } from './nms';
import {
  outputAddressProblem,
  outputUrlProblem,
  pinnedRoute,
  pullInputArgs,
  readsThroughProxy,
  relayEnvironment,
  type AddressPolicy,
} from './pullSource';
import { SourceProxy } from './sourceProxy';
import { Supervised } from './supervisor';
import type { Watchdog } from './watchdog';

export interface ChannelMediaEnv {
  tools: MediaTools;
  store: AccountStore;
  watchdog: Watchdog;
  /** Which addresses the relay may reach (pullSource.ts): checked for every connection it makes. */
  policy: AddressPolicy;
  /** The RTMP server's address for the platform's own processes: `rtmp://127.0.0.1:PORT/live`. */
  rtmpLocal: string;
  /** Token that lets the platform's own processes publish. */
  internalAuth: string;
  /** Folder of this channel's live files. */
  dir: string;
  /** Seconds one "hour" of time shift lasts (3600; tests use less). */
  timeShiftHourSeconds: number;
  log: (line: string) => void;
  /** The recording of a run, when the channel records: called after the channel stops. */
  onRecording?: (file: string, channel: ChannelRec) => Promise<void>;
}

export class ChannelMedia implements LiveChannel {
  private relay: Supervised | undefined;
  /** The forward proxy the relay reads http(s) and rtmps through (sourceProxy.ts). */
  private proxy: SourceProxy | undefined;
  private ladder: Supervised | undefined;
  private publisher: NmsSession | undefined;
  /** Measures the connected publisher's packets (the channel's health); a new one per publish. */
  private meter: IngestMeter | undefined;
  private stopped = false;
  /** Ladders finishing after their source left. */
  private readonly finishing = new Set<Promise<void>>();
  /** The ladder has written the thumbnail; it stays on disk (the last picture) until the channel stops. */
  thumbnailReady = false;
  private thumbnailTimer: NodeJS.Timeout | undefined;
  private recordFiles: string[] = [];
  hlsGroups: HlsGroupInfo[] = [];
  /** A pull channel: its relay runs from the start (counted from the moment it is started). */
  private readonly pulls: boolean;

  constructor(
    readonly channelId: string,
    readonly stream: string,
    private readonly env: ChannelMediaEnv,
  ) {
    const ch = this.channel();
    this.pulls = ch?.signalType === '2' && !!ch.pullStream;
  }

  get publishing(): boolean {
    return this.publisher !== undefined;
  }

  /** A pull channel's relay runs from the start; a pushed channel's ladder only while its encoder is connected. */
  get encoding(): boolean {
    return !this.stopped && (this.pulls || this.publisher !== undefined);
  }

  get thumbnailFile(): string {
    return join(this.env.dir, 'thumbnail.jpg');
  }

  async childPlaylist(groupId: string, n: number): Promise<string | undefined> {
    return readFile(join(this.env.dir, hlsChildFile(groupId, n)), 'utf8').catch(() => undefined);
  }

  mediaFile(name: string, ext: 'ts' | 'key'): string | undefined {
    return join(this.env.dir, `${name}.${ext}`);
  }

  sourceFigures(): SourceFigures | undefined {
    return this.publisher ? this.meter?.figures() : undefined;
  }

  channelRecord(): ChannelRec | undefined {
    return this.channel();
  }

  get store(): AccountStore {
    return this.env.store;
  }

  private channel(): ChannelRec | undefined {
    return this.env.store.get('channels', this.channelId);
  }

  /** Applies fields to the channel record while the channel is running (never after a stop). */
  private async update(fields: Partial<ChannelRec>): Promise<void> {
    const ch = this.channel();
    if (!ch || this.stopped || ch.status === ChannelStatuses.initialised || ch.status === ChannelStatuses.ready) return;
    await this.env.store.commit(new Tx().put('channels', { ...ch, ...fields, updateTime: Date.now() }));
  }

  async start(): Promise<void> {
    const ch = this.channel();
    if (!ch) return;
    await rm(this.env.dir, { recursive: true, force: true });
    // The folder holds the AES keys: the owner's only, as the rest of the data folder.
    await mkdir(this.env.dir, { recursive: true, mode: DIR_MODE });
    // Stopped meanwhile (a stop right after the start): start nothing that stop() would not see.
    if (this.stopped) return;
    this.hlsGroups = ch.groups
      .filter((g) => g.protocolType === 1)
      .map((g) => ({ id: g.id, renditions: this.renditions(g.outputs), encrypted: g.isLiveEncrypt === '1' }));
    if (ch.signalType === '2' && ch.pullStream) {
      const source = ch.pullStream;
      await this.update({ status: ChannelStatuses.pulling, streamStatus: 2 });
      if (this.stopped) return;
      const name = `channel ${this.channelId} pull`;
      if (readsThroughProxy(source)) {
        this.proxy = await SourceProxy.start(this.env.policy, (line) => this.env.log(`${name}: ${line}`));
        if (this.stopped) return void (await this.proxy.close());
      }
      const proxy = this.proxy?.url;
      this.relay = new Supervised({
        name,
        file: this.env.tools.ffmpeg,
        // rtmp and srt hosts are resolved and checked again at every (re)start, and reached at that address.
        args: async () => [
          '-hide_banner',
          '-loglevel',
          'error',
          '-nostats',
          ...pullInputArgs(source, proxy ? { proxy } : await pinnedRoute(source, this.env.policy)),
          '-f',
          'flv',
          `${this.env.rtmpLocal}/${this.stream}?auth=${this.env.internalAuth}`,
        ],
        env: relayEnvironment(proxy),
        watchdog: this.env.watchdog,
        log: this.env.log,
        onExit: () => void this.update({ status: ChannelStatuses.pulling, streamStatus: 2 }).catch(this.env.log),
      });
      this.relay.start();
    } else {
      await this.update({ status: ChannelStatuses.live, streamStatus: 2 });
    }
  }

  private renditions(outputs: ChannelRec['groups'][number]['outputs']): Rendition[] {
    return renditionsOf(this.env.store, outputs);
  }

  /** A publish of this channel's stream was accepted. */
  published(session: NmsSession): void {
    if (this.stopped) return;
    this.publisher = session;
    this.meter = new IngestMeter();
    meterPublisher(session, this.meter);
    // An encoder that stalls without closing its connection is no source either: after
    // STALL_MS without a byte its connection is closed (and reads as gone).
    let bytes = session.inBytes;
    let quietSince = Date.now();
    const timer = setInterval(() => {
      if (this.publisher !== session) {
        clearInterval(timer);
        return;
      }
      if (session.inBytes !== bytes) {
        bytes = session.inBytes;
        quietSince = Date.now();
      } else if (Date.now() - quietSince > STALL_MS) {
        this.env.log(`channel ${this.channelId}: the encoder sent nothing for ${STALL_MS / 1000} s; disconnected`);
        clearInterval(timer);
        session.socket.destroy();
      }
    }, 1000);
    timer.unref();
    void this.onPublished(session).catch((error: unknown) => this.env.log(String(error)));
  }

  private async onPublished(session: NmsSession): Promise<void> {
    await this.update({ status: ChannelStatuses.live, streamStatus: 1 });
    // The incoming stream is read in-process: node-media-server keeps the FLV of what was pushed (its header,
    // the codec configurations and the current GOP); read as FLV they give the picture size (from the SPS), the
    // audio and the frame rate. The encoder's onMetaData fills in what they do not tell (bit rates).
    interface FlvBroadcast {
      flvHeader?: Buffer | null;
      flvMetaData?: Buffer | null;
      flvVideoHeader?: Buffer | null;
      flvAudioHeader?: Buffer | null;
      flvGopCache?: Set<Buffer> | null;
    }
    const pushed = session.broadcast as unknown as FlvBroadcast;
    const ready = (): boolean =>
      Boolean(pushed.flvVideoHeader) &&
      (Boolean(pushed.flvAudioHeader) || !session.audioCodec) &&
      (pushed.flvGopCache?.size ?? 0) >= 12;
    for (let waited = 0; waited < 5000 && !ready() && this.publisher === session; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (this.publisher !== session) return;
    let hasAudio = Boolean(pushed.flvAudioHeader) || Boolean(session.audioCodec);
    let fps = session.videoFramerate || 25;
    try {
      const flv = Buffer.concat(
        [
          pushed.flvHeader,
          pushed.flvMetaData,
          pushed.flvVideoHeader,
          pushed.flvAudioHeader,
          ...(pushed.flvGopCache ?? []),
        ].filter((part): part is Buffer => Buffer.isBuffer(part)),
      );
      const { video: v, audio: a } = await readMedia(flv);
      hasAudio = a !== undefined || hasAudio;
      fps = (v && v.packets >= 12 ? v.frameRate : 0) || fps;
      await this.update({
        streamWidth: v?.width || session.videoWidth || null,
        streamHeight: v?.height || session.videoHeight || null,
        streamBitrate: Math.round(session.videoDatarate) || kbps(v?.bitRate),
        streamAudioBitrate: hasAudio ? Math.round(session.audioDatarate) || kbps(a?.bitRate) : null,
        streamFrameRate: Math.round(fps * 100) / 100,
      });
    } catch (error) {
      this.env.log(`channel ${this.channelId}: the incoming stream cannot be read (${String(error).slice(0, 300)})`);
    }
    await this.startLadder(hasAudio, fps);
  }

  /**
   * The third-party RTMP output, checked again as the ladder starts (its name's answer may have changed since the
   * channel started): left out, and logged, when it now names a private address.
   */
  private async allowedOutput(url: string | null): Promise<string[]> {
    if (!url) return [];
    const problem = outputUrlProblem(url) ?? (await outputAddressProblem(url, this.env.policy));
    if (!problem) return [url];
    this.env.log(
      `channel ${this.channelId}: no copy to the third-party RTMP server: rtmpThirdPartyOutputUrl ${problem}`,
    );
    return [];
  }

  private async startLadder(hasAudio: boolean, fps: number): Promise<void> {
    const ch = this.channel();
    if (!ch || this.stopped) return;
    const groups: LadderGroup[] = [];
    for (const g of ch.groups) {
      const renditions = this.renditions(g.outputs);
      if (renditions.length === 0) continue;
      if (g.protocolType === 1) {
        let listSize = PLAYLIST_SEGMENTS;
        if (g.isTimeShift === '1' && g.timeShiftDuration) {
          const seconds = Number(g.timeShiftDuration) * this.env.timeShiftHourSeconds;
          listSize = Math.max(PLAYLIST_SEGMENTS, Math.ceil(seconds / SEGMENT_SECONDS));
        }
        let keyInfoFile: string | undefined;
        if (g.isLiveEncrypt === '1') keyInfoFile = await this.writeKey(g.id);
        groups.push({ id: g.id, kind: 'hls', renditions, listSize, keyInfoFile, logo: this.logoOf(g.logoId) });
      } else {
        const base = `${this.env.rtmpLocal}/${this.stream}_${g.id}`;
        const auth = `?auth=${this.env.internalAuth}`;
        const third = await this.allowedOutput(g.rtmpThirdPartyOutputUrl);
        groups.push({
          id: g.id,
          kind: 'rtmp',
          renditions,
          rtmpUrls: renditions.map((_, n) => `${base}-${n + 1}${auth}`),
          rtmpDefaultUrls: [`${base}${auth}`, ...third],
          logo: this.logoOf(g.logoId),
        });
      }
    }
    const recording = ch.groups.some((g) => g.isRecord === '1');
    this.ladder = new Supervised({
      name: `channel ${this.channelId} ladder`,
      file: this.env.tools.ffmpeg,
      args: () => {
        const recordFile = recording ? join(this.env.dir, `record-${Date.now()}.ts`) : undefined;
        if (recordFile) this.recordFiles.push(recordFile);
        return ladderArgs({
          source: `${this.env.rtmpLocal}/${this.stream}`,
          hasAudio,
          sourceFrameRate: fps,
          dir: this.env.dir,
          groups,
          thumbnailFile: this.thumbnailFile,
          recordFile,
        });
      },
      watchdog: this.env.watchdog,
      log: this.env.log,
    });
    this.ladder.start();
    this.watchThumbnail(this.thumbnailFile);
  }

  /**
   * Looks (a few times a second, not per request) until the ladder's first thumbnail is on disk, so that lists
   * name the thumbnail only once it answers.
   */
  private watchThumbnail(file: string): void {
    if (this.thumbnailReady || this.thumbnailTimer) return;
    const timer = setInterval(() => {
      if (this.stopped || this.thumbnailReady) {
        clearInterval(timer);
        this.thumbnailTimer = undefined;
        return;
      }
      stat(file).then(
        (info) => {
          if (info.size > 0) this.thumbnailReady = true;
        },
        () => undefined,
      );
    }, 250);
    timer.unref();
    this.thumbnailTimer = timer;
  }

  private logoOf(logoId: string | null): LogoBox | undefined {
    const logo = logoId ? this.env.store.get('liveLogos', logoId) : undefined;
    if (!logo) return undefined;
    const scale = (logo.resize || 100) / 100;
    return {
      left: logo.offsetWidth,
      top: logo.offsetHeight,
      width: logo.width * scale,
      height: logo.height * scale,
      opacity: logo.opacity ?? 100,
    };
  }

  /** AES-128 key of an encrypted group, served at `/live/hls/<channel>/<group>.key`. */
  private async writeKey(groupId: string): Promise<string> {
    const keyFile = join(this.env.dir, `${groupId}.key`);
    await writeFile(keyFile, randomBytes(16), { mode: FILE_MODE });
    const info = join(this.env.dir, `${groupId}.keyinfo`);
    await writeFile(info, `${groupId}.key\n${keyFile}\n`, { mode: FILE_MODE });
    return info;
  }

  /** The publisher's connection closed: no source until it comes back. */
  unpublished(session: NmsSession): void {
    if (this.publisher !== session) return;
    this.publisher = undefined;
    const ladder = this.ladder;
    this.ladder = undefined;
    // The source is gone: its players (the ladder among them) get the end of the stream, so the
    // ladder finishes its files and exits by itself.
    for (const player of session.broadcast.subscribers.values()) player.close();
    if (ladder) {
      const done = ladder.stop(5000);
      this.finishing.add(done);
      void done.finally(() => this.finishing.delete(done));
    }
    if (this.stopped) return;
    const pull = this.relay !== undefined;
    void this.update(pull ? { status: ChannelStatuses.pulling, streamStatus: 2 } : { streamStatus: 2 }).catch(
      this.env.log,
    );
  }

  /** Stops every process, then hands over the recording. The caller sets the record's status. */
  async stop(handOver = true): Promise<void> {
    this.stopped = true;
    this.thumbnailReady = false;
    clearInterval(this.thumbnailTimer);
    const ch = this.channel();
    await Promise.all([this.relay?.stop(1000), this.ladder?.stop(5000), ...this.finishing]);
    await this.proxy?.close();
    this.publisher?.close();
    this.publisher = undefined;
    if (ch && handOver && this.env.onRecording) {
      for (const file of this.recordFiles) await this.env.onRecording(file, ch).catch(this.env.log);
    }
    await rm(this.env.dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

const STALL_MS = 5000;

/** The renditions of a group's outputs, from their live templates (sizes made even for x264). */
export function renditionsOf(store: AccountStore, outputs: ChannelRec['groups'][number]['outputs']): Rendition[] {
  const out: Rendition[] = [];
  for (const o of outputs) {
    const t = store.get('liveTemplates', o.templateId);
    if (!t) continue;
    out.push({
      width: even(t.videoWidth),
      height: even(t.videoHeight),
      videoBitrate: t.videoBitrate,
      audioBitrate: t.audioBitrate,
      frameRate: t.frameRate,
      isDefault: o.isDefault === '1',
    });
  }
  return out;
}

function even(n: number): number {
  return Math.max(2, Math.round(n / 2) * 2);
}

function kbps(bitRate: number | undefined): number | null {
  return bitRate !== undefined && Number.isFinite(bitRate) && bitRate > 0 ? Math.round(bitRate / 1000) : null;
}
