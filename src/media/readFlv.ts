/**
 * A small FLV tag reader: mediabunny (the in-process reader of read.ts) reads no FLV, and the inspector must read
 * the HTTP-FLV of live channels and FLV renditions. FLV is simple (a 9-byte header, then tags of audio, video and
 * script data with a 24-bit size and a millisecond timestamp), so a reader of its own is smaller than any
 * dependency; it reads H.264 (the AVC decoder configuration gives the codec string and, through its SPS, the
 * picture size) and AAC (the AudioSpecificConfig gives the object type, sample rate and channels).
 */
import { avcCodecString, parseSps, type SpsFacts } from './readSps';

export interface FlvPacket {
  readonly track: 'video' | 'audio';
  /** Presentation time (s): the tag's timestamp plus the composition time offset (video). */
  readonly pts: number;
  /** Decode time (s): the tag's timestamp. */
  readonly dts: number;
  readonly size: number;
  readonly key: boolean;
}

export interface FlvTrackInfo {
  /** ffprobe's codec name (`h264`, `aac`, `mp3`, ...) or `unknown`. */
  readonly codec: string;
  readonly codecString?: string;
  readonly sps?: SpsFacts;
  readonly sampleRate?: number;
  readonly channels?: number;
  /** The AAC object type (2: LC). */
  readonly objectType?: number;
}

export interface FlvContents {
  readonly video?: FlvTrackInfo;
  readonly audio?: FlvTrackInfo;
  /** In decode order (file order). */
  readonly packets: FlvPacket[];
  /** Not read to its end: it stopped inside a tag (a cut download, a live stream) or at `maxSeconds`. */
  readonly truncated: boolean;
}

const VIDEO_CODECS: Record<number, string> = { 2: 'flv1', 4: 'vp6f', 5: 'vp6a', 7: 'h264', 12: 'hevc' };
const AUDIO_CODECS: Record<number, string> = { 2: 'mp3', 10: 'aac', 11: 'speex', 14: 'mp3' };
const AAC_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

/** True when the bytes start like an FLV file. */
export function looksLikeFlv(data: Uint8Array): boolean {
  return data.length >= 9 && data[0] === 0x46 && data[1] === 0x4c && data[2] === 0x56 && data[3] === 1;
}

/**
 * Reads the tags of an FLV file held in memory, up to `maxSeconds` of decode time after the first tag (all when
 * undefined). Throws when the bytes are not FLV.
 */
export function readFlv(data: Uint8Array, maxSeconds?: number): FlvContents {
  if (!looksLikeFlv(data)) throw new Error('not an FLV file (no "FLV" signature)');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const headerSize = view.getUint32(5);
  let offset = headerSize + 4; // the first PreviousTagSize is 0
  let video: FlvTrackInfo | undefined;
  let audio: FlvTrackInfo | undefined;
  const packets: FlvPacket[] = [];
  let first: number | undefined;
  let truncated = false;
  while (offset + 11 <= data.length) {
    const type = data[offset]! & 0x1f;
    const size = view.getUint32(offset) & 0xffffff;
    const time = ((view.getUint32(offset + 4) >>> 8) | (data[offset + 7]! << 24)) >>> 0;
    const body = offset + 11;
    if (body + size > data.length) {
      truncated = true;
      break;
    }
    first ??= time;
    if (maxSeconds !== undefined && (time - first) / 1000 > maxSeconds) {
      truncated = true;
      break;
    }
    const tag = data.subarray(body, body + size);
    if (type === 9 && tag.length >= 1) video = videoTag(tag, time, packets, video);
    else if (type === 8 && tag.length >= 1) audio = audioTag(tag, time, packets, audio);
    offset = body + size + 4;
  }
  if (offset < data.length && offset + 11 > data.length) truncated = true;
  return { ...(video ? { video } : {}), ...(audio ? { audio } : {}), packets, truncated };
}

function videoTag(tag: Uint8Array, time: number, packets: FlvPacket[], known: FlvTrackInfo | undefined): FlvTrackInfo {
  const frameType = tag[0]! >> 4;
  const codecId = tag[0]! & 0x0f;
  const codec = VIDEO_CODECS[codecId] ?? 'unknown';
  // Frame type 5 is a video info/command frame, not a picture.
  if (frameType === 5) return known ?? { codec };
  if (codecId === 7 && tag.length >= 5) {
    const packetType = tag[1]!;
    // The composition time offset is a signed 24-bit number of milliseconds.
    const cts = (((tag[2]! << 16) | (tag[3]! << 8) | tag[4]!) << 8) >> 8;
    if (packetType === 0) return avcConfig(tag.subarray(5)) ?? known ?? { codec };
    if (packetType === 1) {
      packets.push({
        track: 'video',
        dts: time / 1000,
        pts: (time + cts) / 1000,
        size: tag.length - 5,
        key: frameType === 1,
      });
    }
    return known ?? { codec };
  }
  packets.push({ track: 'video', dts: time / 1000, pts: time / 1000, size: tag.length - 1, key: frameType === 1 });
  return known ?? { codec };
}

/** The AVCDecoderConfigurationRecord (ISO/IEC 14496-15 5.3.3.1): profile, level and the first SPS. */
function avcConfig(record: Uint8Array): FlvTrackInfo | undefined {
  if (record.length < 8 || record[0] !== 1) return undefined;
  const spsCount = record[5]! & 0x1f;
  const codecString = avcCodecString(record[1]!, record[2]!, record[3]!);
  if (spsCount === 0) return { codec: 'h264', codecString };
  const spsLength = (record[6]! << 8) | record[7]!;
  const sps = record.subarray(8, 8 + spsLength);
  let facts: SpsFacts | undefined;
  try {
    facts = parseSps(sps);
  } catch {
    facts = undefined;
  }
  return { codec: 'h264', codecString, ...(facts ? { sps: facts } : {}) };
}

function audioTag(tag: Uint8Array, time: number, packets: FlvPacket[], known: FlvTrackInfo | undefined): FlvTrackInfo {
  const format = tag[0]! >> 4;
  const codec = AUDIO_CODECS[format] ?? 'unknown';
  if (format === 10 && tag.length >= 2) {
    if (tag[1] === 0) return aacConfig(tag.subarray(2)) ?? known ?? { codec };
    packets.push({ track: 'audio', dts: time / 1000, pts: time / 1000, size: tag.length - 2, key: true });
    return known ?? { codec };
  }
  packets.push({ track: 'audio', dts: time / 1000, pts: time / 1000, size: tag.length - 1, key: true });
  const rates = [5512, 11025, 22050, 44100];
  return known ?? { codec, sampleRate: rates[(tag[0]! >> 2) & 3]!, channels: (tag[0]! & 1) + 1 };
}

/** The AudioSpecificConfig (ISO/IEC 14496-3 1.6.2.1): object type, sampling frequency index, channels. */
function aacConfig(config: Uint8Array): FlvTrackInfo | undefined {
  if (config.length < 2) return undefined;
  const objectType = config[0]! >> 3;
  const rateIndex = ((config[0]! & 0x07) << 1) | (config[1]! >> 7);
  const channels = (config[1]! >> 3) & 0x0f;
  return {
    codec: 'aac',
    codecString: `mp4a.40.${objectType}`,
    objectType,
    ...(AAC_RATES[rateIndex] ? { sampleRate: AAC_RATES[rateIndex] } : {}),
    ...(channels > 0 ? { channels } : {}),
  };
}
