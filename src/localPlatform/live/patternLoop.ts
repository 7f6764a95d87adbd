/**
 * The built-in test pattern (`pullStream: testsrc://WxH`) as a looped live channel: each rendition is
 * encoded once, LOOP_SEGMENTS segments of SEGMENT_SECONDS (cached in the data folder, shared by every
 * channel with the same picture and templates), and then served as a live window whose media sequence
 * and program date-time follow the clock: segment number `s` is `floor(epoch seconds / SEGMENT_SECONDS)`
 * and plays cached segment `s mod LOOP_SEGMENTS`. No ffmpeg runs after the first encode, so an
 * always-on demo channel costs nothing while nobody watches (a real ladder took ~30% of a core).
 *
 * The loop is continuous, with no EXT-X-DISCONTINUITY: a segment is served with its timestamps and continuity
 * counters moved on by its turn of the loop (tsShift.ts), so a player reads one stream that never restarts
 * (the cached segments, 800 kbit/s x 8 s for the demo's 480p, are held in memory).
 *
 * Only a channel whose every group is plain HLS is looped (no encryption, recording, time shift, logo
 * or RTMP output: those need the real ladder, which channelMedia.ts runs with a relay of the pattern).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { MediaTools } from '../../media/tools';
import { ChannelStatuses } from '../../api/types';
import { DIR_MODE } from '../store/permissions';
import type { ChannelRec } from '../store/records';
import { Tx, type AccountStore } from '../store/store';
import { PLAYLIST_SEGMENTS, SEGMENT_SECONDS, type Rendition } from './ladder';
import type { HlsGroupInfo, LiveChannel } from './liveChannel';
import { testPatternSize } from './pullSource';
import { Supervised } from './supervisor';
import { loopTurn, shiftSegment, type LoopTurn } from './tsShift';
import type { Watchdog } from './watchdog';

/** Segments in one turn of the loop: 8 s, a whole number of 25 fps frames and of 48 kHz AAC frames. */
export const LOOP_SEGMENTS = 4;
/** Bumped when the encoding changes, so older caches are not reused. */
const LOOP_VERSION = 2;
/** 48 kHz: a turn of 8 s is a whole number of 1024-sample AAC frames (375). */
const AUDIO_RATE = 48_000;
/** Segments before the window that still answer (a player a little behind). */
const KEPT_SEGMENTS = 30;

export interface PatternLoopEnv {
  tools: MediaTools;
  store: AccountStore;
  watchdog: Watchdog;
  /** The cache folder of encoded loops (`<data>/live-loops`). */
  cacheDir: string;
  log: (line: string) => void;
}

/** The channel can be looped: a test-pattern pull whose outputs are all plain HLS. */
export function isLoopable(ch: ChannelRec): boolean {
  if (ch.signalType !== '2' || !ch.pullStream || !testPatternSize(ch.pullStream)) return false;
  return (
    ch.groups.length > 0 &&
    ch.groups.every(
      (g) =>
        g.protocolType === 1 && g.isLiveEncrypt !== '1' && g.isRecord !== '1' && g.isTimeShift !== '1' && !g.logoId,
    )
  );
}

/** Builds of a cache folder under way in this process: one encode per folder, whoever asks. */
const building = new Map<string, Promise<void>>();

export class PatternLoop implements LiveChannel {
  hlsGroups: HlsGroupInfo[] = [];
  /** Each rendition's cached segments and what one turn of the loop advances. */
  private readonly loops = new Map<string, { segments: Buffer[]; turn: LoopTurn }>();
  private ready = false;
  private stopped = false;
  /** Encodes under way, with what ends their wait when the channel stops first. */
  private readonly encoders = new Map<Supervised, () => void>();
  private thumbnail = '';
  readonly publishing = false;

  constructor(
    readonly channelId: string,
    readonly stream: string,
    private readonly renditionsOf: (outputs: ChannelRec['groups'][number]['outputs']) => Rendition[],
    private readonly env: PatternLoopEnv,
  ) {}

  get store(): AccountStore {
    return this.env.store;
  }

  /** Only the first encode runs ffmpeg; it is not counted against the limit (seconds, once). */
  get encoding(): boolean {
    return false;
  }

  get thumbnailReady(): boolean {
    return this.ready && !this.stopped;
  }

  get thumbnailFile(): string {
    return this.thumbnail;
  }

  channelRecord(): ChannelRec | undefined {
    return this.env.store.get('channels', this.channelId);
  }

  async start(): Promise<void> {
    const ch = this.channelRecord();
    if (!ch) return;
    const size = testPatternSize(ch.pullStream ?? '') ?? '640x360';
    this.hlsGroups = ch.groups.map((g) => ({ id: g.id, renditions: this.renditionsOf(g.outputs), encrypted: false }));
    await mkdir(this.env.cacheDir, { recursive: true, mode: DIR_MODE });
    try {
      for (const g of this.hlsGroups) {
        for (const r of g.renditions) {
          const folder = join(this.env.cacheDir, cacheKey(size, r));
          await this.ensure(folder, (part) => loopArgs(size, r, part));
          const segments = await Promise.all(
            Array.from({ length: LOOP_SEGMENTS }, (_, n) => readFile(join(folder, `${n}.ts`))),
          );
          this.loops.set(folderKey(r), { segments, turn: loopTurn(segments, LOOP_SEGMENTS * SEGMENT_SECONDS) });
        }
      }
      this.thumbnail = join(this.env.cacheDir, cacheKey(size, 'thumbnail'), 'thumbnail.jpg');
      await this.ensure(join(this.env.cacheDir, cacheKey(size, 'thumbnail')), (part) =>
        thumbnailArgs(size, join(part, 'thumbnail.jpg')),
      );
    } catch (error) {
      if (this.stopped) return;
      this.env.log(`channel ${this.channelId}: the test pattern cannot be encoded (${String(error).slice(0, 300)})`);
      await this.update({ status: ChannelStatuses.pulling, streamStatus: 2 });
      return;
    }
    if (this.stopped) return;
    this.ready = true;
    const top = this.hlsGroups.flatMap((g) => g.renditions).sort((a, b) => b.width * b.height - a.width * a.height)[0];
    const [w, h] = size.split('x').map(Number);
    await this.update({
      status: ChannelStatuses.live,
      streamStatus: 1,
      streamWidth: w,
      streamHeight: h,
      streamBitrate: top?.videoBitrate ?? null,
      streamAudioBitrate: top ? top.audioBitrate || 64 : null,
      streamFrameRate: top?.frameRate || 25,
    });
  }

  /** Makes a cache folder once: encoded into a folder of its own, renamed when complete. */
  private async ensure(folder: string, args: (part: string) => string[]): Promise<void> {
    if (existsSync(folder)) return;
    let pending = building.get(folder);
    if (!pending) {
      pending = this.encode(folder, args).finally(() => building.delete(folder));
      building.set(folder, pending);
    }
    await pending;
  }

  private async encode(folder: string, args: (part: string) => string[]): Promise<void> {
    const part = `${folder}.part-${randomBytes(4).toString('hex')}`;
    await mkdir(part, { recursive: true, mode: DIR_MODE });
    try {
      const { code, tail } = await new Promise<{ code: number | string | null; tail: string }>((resolve) => {
        const encoder = new Supervised({
          name: `channel ${this.channelId} test pattern encode`,
          file: this.env.tools.ffmpeg,
          args: () => args(part),
          watchdog: this.env.watchdog,
          // Its end is reported here, with ffmpeg's last words when it failed.
          log: () => undefined,
          restart: false,
          onExit: (exit, stderr) => resolve({ code: exit, tail: stderr }),
        });
        this.encoders.set(encoder, () => resolve({ code: 'stopped', tail: '' }));
        encoder.start();
      });
      if (code !== 0) throw new Error(`ffmpeg ended with ${code}: ${tail.trim().slice(-300)}`);
      if ((await readdir(part)).length === 0) throw new Error('ffmpeg wrote nothing');
      await rename(part, folder).catch(async (error: unknown) => {
        // Made meanwhile by another process on the same data folder: theirs is as good.
        if (!existsSync(folder)) throw error;
      });
    } finally {
      await rm(part, { recursive: true, force: true });
    }
  }

  private async update(fields: Partial<ChannelRec>): Promise<void> {
    const ch = this.channelRecord();
    if (!ch || this.stopped || ch.status === ChannelStatuses.initialised || ch.status === ChannelStatuses.ready) return;
    await this.env.store.commit(new Tx().put('channels', { ...ch, ...fields, updateTime: Date.now() }));
  }

  /** The window of segment numbers that a playlist lists now: the last one has fully elapsed. */
  private window(): { first: number; last: number } {
    const last = Math.floor(Date.now() / 1000 / SEGMENT_SECONDS) - 1;
    return { first: last - PLAYLIST_SEGMENTS + 1, last };
  }

  async childPlaylist(groupId: string, n: number): Promise<string | undefined> {
    const group = this.hlsGroups.find((g) => g.id === groupId);
    if (!this.ready || !group || n < 0 || n >= group.renditions.length) return undefined;
    const { first, last } = this.window();
    const lines = [
      '#EXTM3U',
      '#EXT-X-VERSION:3',
      `#EXT-X-TARGETDURATION:${SEGMENT_SECONDS}`,
      `#EXT-X-MEDIA-SEQUENCE:${first}`,
      '#EXT-X-INDEPENDENT-SEGMENTS',
    ];
    for (let s = first; s <= last; s++) {
      lines.push(
        `#EXT-X-PROGRAM-DATE-TIME:${new Date(s * SEGMENT_SECONDS * 1000).toISOString()}`,
        `#EXTINF:${SEGMENT_SECONDS.toFixed(3)},`,
        `${groupId}_${n}_${s}.ts`,
      );
    }
    return `${lines.join('\n')}\n`;
  }

  mediaFile(name: string, ext: 'ts' | 'key'): Buffer | undefined {
    const m = /^(.+)_(\d{1,2})_(\d{1,15})$/.exec(name);
    if (!this.ready || ext !== 'ts' || !m) return undefined;
    const rendition = this.hlsGroups.find((g) => g.id === m[1])?.renditions[Number(m[2])];
    const loop = rendition && this.loops.get(folderKey(rendition));
    const s = Number(m[3]);
    const { last } = this.window();
    // Only segments a playlist listed a moment ago, or the next one: a live window, not every number.
    if (!loop || s < last - PLAYLIST_SEGMENTS - KEPT_SEGMENTS || s > last + 1) return undefined;
    return shiftSegment(loop.segments[s % LOOP_SEGMENTS], Math.floor(s / LOOP_SEGMENTS), loop.turn);
  }

  /** A loop made once and served from memory: nothing is received. */
  sourceFigures(): undefined {
    return undefined;
  }

  published(): void {
    // A pull channel takes no push (LiveMedia.authorize refuses it).
  }

  unpublished(): void {}

  async stop(): Promise<void> {
    this.stopped = true;
    this.ready = false;
    await Promise.all(
      [...this.encoders].map(async ([encoder, resolve]) => {
        await encoder.stop(1000);
        resolve();
      }),
    );
  }
}

function folderKey(r: Rendition): string {
  return `${r.width}x${r.height}/${r.videoBitrate}/${r.audioBitrate}/${r.frameRate}`;
}

/** The cache folder's name: what the encoding depends on, hashed (numbers from templates only). */
function cacheKey(size: string, what: Rendition | 'thumbnail'): string {
  const text = JSON.stringify({ v: LOOP_VERSION, size, seconds: SEGMENT_SECONDS, n: LOOP_SEGMENTS, what });
  return `pattern-${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
}

/** The generated picture and tone: testsrc2 at the channel's size, 440 Hz. */
function sourceArgs(size: string, fps: number): string[] {
  return [
    ...['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=${fps}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=${AUDIO_RATE}`],
  ];
}

/** One rendition's turn of the loop as HLS segments `0.ts`...: fixed GOP of one segment, as the ladder's. */
function loopArgs(size: string, r: Rendition, dir: string): string[] {
  const fps = r.frameRate || 25;
  const gop = String(Math.round(fps * SEGMENT_SECONDS));
  return [
    ...['-hide_banner', '-loglevel', 'error', '-nostats', '-y'],
    ...sourceArgs(size, fps),
    ...['-t', String(LOOP_SEGMENTS * SEGMENT_SECONDS), '-map', '0:v', '-map', '1:a'],
    ...['-vf', `scale=${r.width}:${r.height},setsar=1`],
    // The AAC encoder puts 1024 samples of its own in front: one frame fewer of the tone makes a turn exactly
    // LOOP_SECONDS of audio frames, so the next turn's first frame follows the last one without overlap.
    ...['-af', `atrim=end_sample=${LOOP_SEGMENTS * SEGMENT_SECONDS * AUDIO_RATE - 1024}`],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-b:v', `${r.videoBitrate}k`, '-maxrate', `${r.videoBitrate}k`],
    ...['-bufsize', `${r.videoBitrate * 2}k`, '-g', gop, '-keyint_min', gop, '-sc_threshold', '0'],
    ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', `${r.audioBitrate || 64}k`, '-ar', String(AUDIO_RATE)],
    ...['-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_list_size', '0', '-hls_playlist_type', 'vod'],
    ...['-hls_flags', 'independent_segments', '-hls_segment_filename', join(dir, '%d.ts'), join(dir, 'index.m3u8')],
  ];
}

function thumbnailArgs(size: string, file: string): string[] {
  return [
    ...['-hide_banner', '-loglevel', 'error', '-nostats', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25`],
    ...['-frames:v', '1', '-vf', 'scale=320:-2', '-q:v', '5', file],
  ];
}
