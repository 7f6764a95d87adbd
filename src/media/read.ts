/**
 * Media read in-process, without ffprobe: the container, the codecs (names as ffprobe writes them and strings as
 * RFC 6381 writes them), the picture, the frame rate, every packet's timing and size, and the keyframes. The
 * inspector measures segments and files with it; the local platform measures uploads, renditions and recordings.
 *
 * mediabunny (pure TypeScript, MPL-2.0) reads MP4/MOV (fragmented too, with the init segment in front), MPEG-TS,
 * Matroska/WebM, ADTS, MP3, Ogg, WAVE and FLAC; FLV has a reader of its own (readFlv.ts), and the packets of an
 * H.264/AAC MPEG-TS segment in memory are read in one pass (readTs.ts). HLS is deliberately not
 * one of the formats: a playlist, a concat list or any other file that names other files is "not media" here,
 * so nothing read through this module ever follows a reference to another file or address.
 */
import type * as Mediabunny from 'mediabunny';
import { open, stat } from 'node:fs/promises';
import { looksLikeFlv, readFlv, type FlvContents } from './readFlv';
import { avcProfileName } from './readSps';
import { readTsPackets, type TsPackets, type TsTrackPackets } from './readTs';

export type Container =
  'mp4' | 'mov' | 'mpegts' | 'flv' | 'matroska' | 'webm' | 'adts' | 'mp3' | 'ogg' | 'wav' | 'flac';

export interface ReadOptions {
  /**
   * What the input's tracks are described by when it does not describe them itself: the initialization section of
   * an fMP4 segment (HLS EXT-X-MAP), or for an MPEG-TS segment without parameter sets (no keyframe in it) an
   * earlier segment of the same stream.
   */
  readonly init?: Uint8Array;
  /** Reads packets only this many seconds past the first one (the start of a long file); all by default. */
  readonly maxSeconds?: number;
  /** Keeps every packet's timing and size in the result (`packets`). */
  readonly packets?: boolean;
  /**
   * Checks each video key packet in its bitstream (an IDR for H.264) instead of trusting the container's flag.
   * Loads every video packet's bytes: the default for bytes in memory, not for files on disk.
   */
  readonly verifyKeyframes?: boolean;
  readonly signal?: AbortSignal;
}

export interface TrackReading {
  /** The codec as ffprobe names it: `h264`, `hevc`, `aac`, `mp3`, ... */
  readonly codec: string;
  /** RFC 6381: `avc1.64001f`, `mp4a.40.2`; absent when the container does not tell. */
  readonly codecString?: string;
  /** `High`, `Main`, `LC`, ... as ffprobe names them. */
  readonly profile?: string;
  /** First and last presentation time (s); the end includes the last packet's duration. */
  readonly start: number;
  readonly end: number;
  /** The first packet's time in decode order (s). */
  readonly firstDecodeTime: number;
  readonly packets: number;
  /** Bytes of the track's packets. */
  readonly bytes: number;
  /** Bytes × 8 / (end − start), b/s; absent when the span is 0. */
  readonly bitRate?: number;
}

export interface VideoReading extends TrackReading {
  /** H.264 `level_idc` (31 for 3.1). */
  readonly level?: number;
  readonly width: number;
  readonly height: number;
  /** Frames per second from the packets' timestamps (not the container's claim). */
  readonly frameRate: number;
  /** Presentation times of the key packets (s), ascending. */
  readonly keyframes: readonly number[];
  /** The first packet in decode order is a key packet. */
  readonly startsWithKeyframe: boolean;
}

export interface AudioReading extends TrackReading {
  readonly sampleRate?: number;
  readonly channels?: number;
}

export interface PacketReading {
  readonly track: 'video' | 'audio';
  /** Presentation time (s). */
  readonly pts: number;
  /**
   * Decode time (s). FLV carries it; for other containers it is what the decode order implies: the sorted
   * presentation times, shifted so that no packet decodes after it is shown.
   */
  readonly dts: number;
  readonly duration: number;
  readonly size: number;
  readonly key: boolean;
}

export interface MediaReading {
  readonly container: Container;
  /** Size of what was read (bytes), the init segment included. */
  readonly bytes: number;
  /** The primary video and audio tracks. */
  readonly video?: VideoReading;
  readonly audio?: AudioReading;
  /** Earliest start (0 when packets start before 0) and latest end of the tracks (s); `duration` is their difference. */
  readonly start: number;
  readonly end: number;
  readonly duration: number;
  /** bytes × 8 / duration (b/s), when the duration is known. */
  readonly bitRate?: number;
  /** Video frames read (the video track's packets). */
  readonly frameCount: number;
  /** False when `maxSeconds` (or a cut FLV) stopped the reading before the end. */
  readonly complete: boolean;
  /** When not complete: the duration the container's metadata gives for the whole input (s), if it gives one. */
  readonly wholeDuration?: number;
  /** Every packet, in decode order per track, when asked for (`packets: true`). */
  readonly packets?: readonly PacketReading[];
}

/** The input is not media this reader knows (or is damaged): the message says which. */
export class NotMediaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotMediaError';
  }
}

let loaded: typeof Mediabunny | undefined;

/**
 * mediabunny, loaded on the first media read: the extension's bundle keeps it in a file of its own
 * (scripts/build.mjs), so that activation does not load it.
 */
function mediabunny(): typeof Mediabunny {
  loaded ??= require('mediabunny') as typeof Mediabunny;
  return loaded;
}

/** Media formats read through mediabunny; never HLS (a playlist names other files). */
function formats(): Array<[Mediabunny.InputFormat, Container]> {
  const mb = mediabunny();
  return [
    [mb.MP4, 'mp4'],
    [mb.QTFF, 'mov'],
    [mb.MPEG_TS, 'mpegts'],
    [mb.WEBM, 'webm'],
    [mb.MATROSKA, 'matroska'],
    [mb.ADTS, 'adts'],
    [mb.MP3, 'mp3'],
    [mb.OGG, 'ogg'],
    [mb.WAVE, 'wav'],
    [mb.FLAC, 'flac'],
  ];
}

/** FLV files are read into memory: at most this much of one. */
const MAX_FLV_BYTES = 256 * 1024 * 1024;

/** Reads a file (a path) or bytes in memory. Throws `NotMediaError` when it is not media. */
export async function readMedia(input: string | Uint8Array, options: ReadOptions = {}): Promise<MediaReading> {
  checkAborted(options.signal);
  const head = typeof input === 'string' ? await fileHead(input, 16) : input.subarray(0, 16);
  if (looksLikeFlv(head)) {
    const data = typeof input === 'string' ? await fileHead(input, MAX_FLV_BYTES) : input;
    return fromFlv(readFlv(data, options.maxSeconds), data.length, options);
  }
  return readWithMediabunny(input, options);
}

async function fileHead(path: string, length: number): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    const buffer = Buffer.alloc(Math.min(length, size));
    await handle.read(buffer, 0, buffer.length, 0);
    return buffer;
  } finally {
    await handle.close();
  }
}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw Object.assign(new Error('cancelled'), { name: 'AbortError' });
}

function sourceOf(input: string | Uint8Array): Mediabunny.Source {
  const mb = mediabunny();
  return typeof input === 'string' ? new mb.FilePathSource(input) : new mb.BufferSource(input);
}

async function readWithMediabunny(input: string | Uint8Array, options: ReadOptions): Promise<MediaReading> {
  const mb = mediabunny();
  const known = formats();
  const init = options.init
    ? new mb.Input({ source: new mb.BufferSource(options.init), formats: [mb.MP4, mb.QTFF, mb.MPEG_TS] })
    : undefined;
  const reader = new mb.Input({
    source: sourceOf(input),
    formats: known.map(([format]) => format),
    ...(init ? { initInput: init } : {}),
  });
  try {
    if (!(await reader.canRead().catch(() => false))) {
      throw new NotMediaError(
        'not a media container this reader knows (MP4, MOV, MPEG-TS, FLV, Matroska, WebM, ADTS, MP3, Ogg, WAVE, FLAC)',
      );
    }
    // The init input's tracks are read first: an MPEG-TS input looks for its streams' descriptions there.
    if (init) await init.getTracks();
    const format = await reader.getFormat();
    const container = known.find(([f]) => f === format)?.[1] ?? 'mp4';
    const bytes = (typeof input === 'string' ? (await stat(input)).size : input.length) + (options.init?.length ?? 0);
    const videoTrack = await reader.getPrimaryVideoTrack();
    const audioTrack = await reader.getPrimaryAudioTrack();
    const verify = options.verifyKeyframes ?? typeof input !== 'string';
    const packets: PacketReading[] = [];
    const ts = container === 'mpegts' ? await tsFastPath(input, options, verify, videoTrack, audioTrack) : undefined;
    const video = videoTrack
      ? await readVideo(
          videoTrack,
          options,
          ts?.video ? tsPackets(ts.video) : mediabunnyPackets(videoTrack, verify),
          packets,
        )
      : undefined;
    const audio = audioTrack
      ? await readAudio(
          audioTrack,
          options,
          ts?.audio ? tsPackets(ts.audio) : mediabunnyPackets(audioTrack, false),
          packets,
        )
      : undefined;
    const reading = summary(container, bytes, video, audio, packets, options);
    if (reading.complete) return reading;
    // Read in part: the whole input's length from the container's metadata (the MP4 moov), not by reading on.
    const whole = await reader.getDurationFromMetadata(undefined, { skipLiveWait: true }).catch(() => null);
    return whole && whole > 0 ? { ...reading, wholeDuration: whole - reading.start } : reading;
  } catch (error) {
    if (error instanceof NotMediaError || (error as Error).name === 'AbortError') throw error;
    throw new NotMediaError(`damaged or unreadable media (${error instanceof Error ? error.message : String(error)})`);
  } finally {
    reader.dispose();
    init?.dispose();
  }
}

/**
 * An MPEG-TS segment in memory of the common shape (readTs.ts) has its packets read in one pass; the tracks'
 * descriptions still come from mediabunny. Undefined when it is read through mediabunny alone.
 */
async function tsFastPath(
  input: string | Uint8Array,
  options: ReadOptions,
  verify: boolean,
  video: Mediabunny.InputVideoTrack | null,
  audio: Mediabunny.InputAudioTrack | null,
): Promise<TsPackets | undefined> {
  if (typeof input === 'string' || options.init) return undefined;
  if (video && (await video.getCodec()) !== 'avc') return undefined;
  if (audio && (await audio.getCodec()) !== 'aac') return undefined;
  const packets = readTsPackets(input, { verify, ...(audio ? { sampleRate: await audio.getSampleRate() } : {}) });
  // Both tracks from one reader or neither: a track this reader did not find is not read from mediabunny's.
  if (!packets || Boolean(packets.video) !== Boolean(video) || Boolean(packets.audio) !== Boolean(audio))
    return undefined;
  return packets;
}

interface Collected {
  start: number;
  end: number;
  firstDecodeTime: number;
  count: number;
  bytes: number;
  keyframes: number[];
  firstIsKey: boolean;
  complete: boolean;
  /** Presentation times in decode order, for the frame rate and the DTS. */
  times: number[];
}

/** What the walk needs of a packet, from mediabunny's `EncodedPacket` or from readTs.ts. */
interface PacketFacts {
  readonly timestamp: number;
  readonly duration: number;
  readonly byteLength: number;
  readonly key: boolean;
}

/** A track's packets as mediabunny reads them. */
async function* mediabunnyPackets(track: Mediabunny.InputTrack, verify: boolean): AsyncGenerator<PacketFacts> {
  const sink = new (mediabunny().EncodedPacketSink)(track);
  const retrieval: Mediabunny.PacketRetrievalOptions = verify ? { verifyKeyPackets: true } : { metadataOnly: true };
  for await (const packet of sink.packets(undefined, undefined, retrieval)) {
    yield {
      timestamp: packet.timestamp,
      duration: packet.duration,
      byteLength: packet.byteLength,
      key: packet.type === 'key',
    };
  }
}

/** A track's packets as readTs.ts read them. */
function* tsPackets(track: TsTrackPackets): Generator<PacketFacts> {
  for (let i = 0; i < track.timestamps.length; i++) {
    yield {
      timestamp: track.timestamps[i]!,
      duration: track.durations[i]!,
      byteLength: track.sizes[i]!,
      key: track.keys[i]!,
    };
  }
}

/** Walks a track's packets in decode order, up to `maxSeconds` past its first. */
async function collect(
  source: AsyncIterable<PacketFacts> | Iterable<PacketFacts>,
  options: ReadOptions,
  kind: 'video' | 'audio',
  out: PacketReading[],
): Promise<Collected> {
  const c: Collected = {
    start: Infinity,
    end: -Infinity,
    firstDecodeTime: 0,
    count: 0,
    bytes: 0,
    keyframes: [],
    firstIsKey: false,
    complete: true,
    times: [],
  };
  const durations: number[] = [];
  const keys: boolean[] = [];
  for await (const packet of source) {
    if (c.count === 0) {
      c.firstDecodeTime = packet.timestamp;
      c.firstIsKey = packet.key;
    } else if (options.maxSeconds !== undefined && packet.timestamp - c.firstDecodeTime > options.maxSeconds) {
      c.complete = false;
      break;
    }
    if (c.count % 256 === 0) checkAborted(options.signal);
    c.count++;
    c.bytes += packet.byteLength;
    c.start = Math.min(c.start, packet.timestamp);
    c.end = Math.max(c.end, packet.timestamp + packet.duration);
    if (packet.key) c.keyframes.push(packet.timestamp);
    c.times.push(packet.timestamp);
    durations.push(packet.duration);
    keys.push(packet.key);
    if (options.packets)
      out.push({
        track: kind,
        pts: packet.timestamp,
        dts: 0,
        duration: packet.duration,
        size: packet.byteLength,
        key: packet.key,
      });
  }
  if (options.packets) fillDecodeTimes(out.slice(out.length - c.count), c.times);
  c.keyframes.sort((a, b) => a - b);
  if (c.count === 0) c.start = c.end = 0;
  return c;
}

/** DTS from decode order: the n-th smallest PTS, shifted by the largest reorder delay (so DTS <= PTS). */
function fillDecodeTimes(packets: PacketReading[], times: readonly number[]): void {
  const sorted = [...times].sort((a, b) => a - b);
  let shift = 0;
  for (let i = 0; i < times.length; i++) shift = Math.max(shift, sorted[i]! - times[i]!);
  packets.forEach((p, i) => ((p as { dts: number }).dts = sorted[i]! - shift));
}

/** Frames per second from the presentation times: frames over the span they cover (one frame's length added). */
function frameRateOf(times: readonly number[]): number {
  if (times.length < 2) return 0;
  const sorted = [...times].sort((a, b) => a - b);
  const gaps = sorted
    .slice(1)
    .map((t, i) => t - sorted[i]!)
    .filter((g) => g > 0)
    .sort((a, b) => a - b);
  const typical = gaps[Math.floor(gaps.length / 2)] ?? 0;
  const span = sorted[sorted.length - 1]! - sorted[0]! + typical;
  return span > 0 ? Math.round((sorted.length / span) * 1000) / 1000 : 0;
}

const VIDEO_NAMES: Record<string, string> = {
  avc: 'h264',
  hevc: 'hevc',
  vp8: 'vp8',
  vp9: 'vp9',
  av1: 'av1',
  prores: 'prores',
};

function audioName(codec: string): string {
  if (!codec.startsWith('pcm-')) return codec;
  // ffprobe: pcm_s16le, pcm_f32be, pcm_u8, pcm_mulaw...
  const base = codec.slice(4);
  if (base === 'u8' || base === 's8') return `pcm_${base}`;
  return `pcm_${base.replace(/be$/, '')}${base.endsWith('be') ? 'be' : 'le'}`;
}

function avcDetails(codecString: string | undefined): { profile?: string; level?: number } {
  const match = /^avc[13]\.([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(codecString ?? '');
  if (!match) return {};
  const profile = avcProfileName(parseInt(match[1]!, 16), parseInt(match[2]!, 16));
  return { ...(profile ? { profile } : {}), level: parseInt(match[3]!, 16) };
}

const AAC_PROFILES: Record<string, string> = {
  'mp4a.40.1': 'Main',
  'mp4a.40.2': 'LC',
  'mp4a.40.5': 'HE-AAC',
  'mp4a.40.29': 'HE-AACv2',
};

function rate(bytes: number, start: number, end: number): { bitRate?: number } {
  return end > start ? { bitRate: Math.round((bytes * 8) / (end - start)) } : {};
}

async function readVideo(
  track: Mediabunny.InputVideoTrack,
  options: ReadOptions,
  packets: AsyncIterable<PacketFacts> | Iterable<PacketFacts>,
  out: PacketReading[],
): Promise<VideoReading> {
  const codec = await track.getCodec();
  const codecString = (await track.getCodecParameterString().catch(() => null)) ?? undefined;
  const c = await collect(packets, options, 'video', out);
  return {
    codec: codec ? (VIDEO_NAMES[codec] ?? codec) : 'unknown',
    ...(codecString ? { codecString } : {}),
    ...(codec === 'avc' ? avcDetails(codecString) : {}),
    width: await track.getDisplayWidth(),
    height: await track.getDisplayHeight(),
    frameRate: frameRateOf(c.times),
    keyframes: c.keyframes,
    startsWithKeyframe: c.firstIsKey,
    start: c.start,
    end: c.end,
    firstDecodeTime: c.firstDecodeTime,
    packets: c.count,
    bytes: c.bytes,
    ...rate(c.bytes, c.start, c.end),
    ...(c.complete ? {} : { incomplete: true }),
  };
}

async function readAudio(
  track: Mediabunny.InputAudioTrack,
  options: ReadOptions,
  packets: AsyncIterable<PacketFacts> | Iterable<PacketFacts>,
  out: PacketReading[],
): Promise<AudioReading> {
  const codec = await track.getCodec();
  const codecString = (await track.getCodecParameterString().catch(() => null)) ?? undefined;
  const c = await collect(packets, options, 'audio', out);
  const profile = codecString ? AAC_PROFILES[codecString] : undefined;
  return {
    codec: codec ? audioName(codec) : 'unknown',
    ...(codecString ? { codecString } : {}),
    ...(profile ? { profile } : {}),
    sampleRate: await track.getSampleRate(),
    channels: await track.getNumberOfChannels(),
    start: c.start,
    end: c.end,
    firstDecodeTime: c.firstDecodeTime,
    packets: c.count,
    bytes: c.bytes,
    ...rate(c.bytes, c.start, c.end),
    ...(c.complete ? {} : { incomplete: true }),
  };
}

function summary(
  container: Container,
  bytes: number,
  video: VideoReading | undefined,
  audio: AudioReading | undefined,
  packets: PacketReading[],
  options: ReadOptions,
): MediaReading {
  const tracks = [video, audio].filter((t): t is VideoReading | AudioReading => t !== undefined && t.packets > 0);
  // Packets before 0 (an AAC encoder's priming, cut by the MP4 edit list) are never shown: not part of the length.
  const first = tracks.length > 0 ? Math.min(...tracks.map((t) => t.start)) : 0;
  const start = first < 0 ? 0 : first;
  const end = tracks.length > 0 ? Math.max(...tracks.map((t) => t.end)) : 0;
  const complete = ![video, audio].some((t) => t && 'incomplete' in t);
  const strip = <T extends object>(t: T | undefined): T | undefined => {
    if (!t) return undefined;
    const { incomplete: _incomplete, ...rest } = t as T & { incomplete?: boolean };
    return rest as T;
  };
  const v = strip(video);
  const a = strip(audio);
  return {
    container,
    bytes,
    ...(v ? { video: v } : {}),
    ...(a ? { audio: a } : {}),
    start,
    end,
    duration: end - start,
    ...(end > start && complete ? { bitRate: Math.round((bytes * 8) / (end - start)) } : {}),
    frameCount: v?.packets ?? 0,
    complete,
    ...(options.packets ? { packets } : {}),
  };
}

/** The FLV reader's tags as the same reading. */
function fromFlv(flv: FlvContents, bytes: number, options: ReadOptions): MediaReading {
  const track = (kind: 'video' | 'audio') => flv.packets.filter((p) => p.track === kind);
  const span = (list: typeof flv.packets): { start: number; end: number; bytes: number; first: number } => {
    const times = list.map((p) => p.pts).sort((a, b) => a - b);
    const gaps = times
      .slice(1)
      .map((t, i) => t - times[i]!)
      .filter((g) => g > 0)
      .sort((a, b) => a - b);
    const last = gaps[Math.floor(gaps.length / 2)] ?? 0;
    return {
      start: times[0] ?? 0,
      end: times.length > 0 ? times[times.length - 1]! + last : 0,
      bytes: list.reduce((s, p) => s + p.size, 0),
      first: list[0]?.dts ?? 0,
    };
  };
  let video: VideoReading | undefined;
  if (flv.video) {
    const list = track('video');
    const s = span(list);
    const profile = flv.video.sps
      ? avcProfileName(flv.video.sps.profileIdc, parseInt(flv.video.codecString?.slice(7, 9) ?? '0', 16))
      : undefined;
    video = {
      codec: flv.video.codec,
      ...(flv.video.codecString ? { codecString: flv.video.codecString } : {}),
      ...(profile ? { profile } : {}),
      ...(flv.video.sps ? { level: flv.video.sps.levelIdc } : {}),
      width: flv.video.sps?.width ?? 0,
      height: flv.video.sps?.height ?? 0,
      frameRate: frameRateOf(list.map((p) => p.pts)),
      keyframes: list
        .filter((p) => p.key)
        .map((p) => p.pts)
        .sort((a, b) => a - b),
      startsWithKeyframe: list[0]?.key ?? false,
      start: s.start,
      end: s.end,
      firstDecodeTime: s.first,
      packets: list.length,
      bytes: s.bytes,
      ...rate(s.bytes, s.start, s.end),
    };
  }
  let audio: AudioReading | undefined;
  if (flv.audio) {
    const list = track('audio');
    const s = span(list);
    const profile = flv.audio.codecString ? AAC_PROFILES[flv.audio.codecString] : undefined;
    audio = {
      codec: flv.audio.codec,
      ...(flv.audio.codecString ? { codecString: flv.audio.codecString } : {}),
      ...(profile ? { profile } : {}),
      ...(flv.audio.sampleRate ? { sampleRate: flv.audio.sampleRate } : {}),
      ...(flv.audio.channels ? { channels: flv.audio.channels } : {}),
      start: s.start,
      end: s.end,
      firstDecodeTime: s.first,
      packets: list.length,
      bytes: s.bytes,
      ...rate(s.bytes, s.start, s.end),
    };
  }
  const reading = summary('flv', bytes, video, audio, [], {});
  const packets = flv.packets.map((p) => ({
    track: p.track,
    pts: p.pts,
    dts: p.dts,
    duration: 0,
    size: p.size,
    key: p.key,
  }));
  return {
    ...reading,
    complete: !flv.truncated,
    ...(options.packets ? { packets } : {}),
  };
}
