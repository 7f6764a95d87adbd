/**
 * What the platform really receives from a channel's source, measured on the RTMP packets as they arrive (a push,
 * or the relay of a pull source: both publish into the RTMP server): bit rate over the last seconds, frame rate
 * and keyframe interval from the packets' timestamps, picture size from the newest H.264 sequence header. Only
 * each packet's time, size and kind are kept, for a bounded window, so a long-running channel holds little.
 */
import { parseSps } from '../../media/readSps';
import type { NmsPacket, NmsSession } from './nms';

/** The source's figures now (`undefined` fields: not known yet, e.g. before the second keyframe). */
export interface SourceFigures {
  /** Bytes of audio and video received over the last `windowSeconds`, in kbit/s. */
  readonly bitrateKbps: number;
  /** Video frames per second of media time over the window. */
  readonly frameRate?: number;
  /** Media time between the last two keyframes, in seconds, and the frames between them. */
  readonly keyframeIntervalSeconds?: number;
  readonly keyframeIntervalFrames?: number;
  readonly width?: number;
  readonly height?: number;
  /** Seconds since the newest packet arrived (a stalled encoder shows here before it is disconnected). */
  readonly sinceLastPacketSeconds: number;
  /** Seconds of packets the figures rest on (shorter than the window right after a publish). */
  readonly windowSeconds: number;
}

interface Seen {
  /** Arrival (ms, platform clock). */
  readonly at: number;
  /** Media timestamp (ms). */
  readonly dts: number;
  readonly bytes: number;
  readonly video: boolean;
  readonly key: boolean;
}

/** FLV tag types and node-media-server's packet flags (protocol/flv.js): 2 sequence header, 3 keyframe, 4 other. */
const AUDIO = 8;
const VIDEO = 9;
const H264 = 7;
const FLAG_HEADER = 2;
const FLAG_KEY = 3;
const FLAG_FRAME = 4;

/** Rates over the last 5 s; keyframes remembered for 30 s (a GOP of up to 10 s still shows two). */
const RATE_WINDOW_MS = 5_000;
const KEEP_MS = 30_000;
/** A bound whatever the source sends (30 s at 120 frames plus audio is well under it). */
const MAX_SEEN = 12_000;

export class IngestMeter {
  private seen: Seen[] = [];
  private width: number | undefined;
  private height: number | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** One packet as node-media-server parsed it. */
  observe(packet: NmsPacket): void {
    const at = this.now();
    if (packet.codec_type === VIDEO && packet.flags === FLAG_HEADER && packet.codec_id === H264) {
      this.readSize(packet.data);
      return;
    }
    const video = packet.codec_type === VIDEO && (packet.flags === FLAG_KEY || packet.flags === FLAG_FRAME);
    if (!video && packet.codec_type !== AUDIO) return;
    this.seen.push({ at, dts: packet.dts, bytes: packet.size, video, key: video && packet.flags === FLAG_KEY });
    if (this.seen.length > MAX_SEEN || this.seen[0]!.at < at - KEEP_MS) {
      const keepFrom = this.seen.findIndex((s) => s.at >= at - KEEP_MS);
      this.seen = this.seen.slice(Math.max(keepFrom, this.seen.length - MAX_SEEN));
    }
  }

  /** The AVC decoder configuration record after the 5-byte video tag header: its first SPS gives the size. */
  private readSize(data: Buffer): void {
    try {
      const record = data.subarray(5);
      if (record.length < 8 || (record[5]! & 0x1f) < 1) return;
      const length = record.readUInt16BE(6);
      const sps = parseSps(record.subarray(8, 8 + length));
      this.width = sps.width;
      this.height = sps.height;
    } catch {
      // A header that does not parse leaves the size as it was.
    }
  }

  figures(): SourceFigures | undefined {
    const now = this.now();
    const last = this.seen.at(-1);
    if (!last) return undefined;
    const recent = this.seen.filter((s) => s.at >= now - RATE_WINDOW_MS);
    const span = Math.min(RATE_WINDOW_MS, now - this.seen[0]!.at);
    const windowSeconds = Math.max(span, 1) / 1000;
    const bytes = recent.reduce((sum, s) => sum + s.bytes, 0);
    const frames = recent.filter((s) => s.video);
    const frameSpan = frames.length > 1 ? frames.at(-1)!.dts - frames[0]!.dts : 0;
    const keys = this.seen.filter((s) => s.key);
    const [before, newest] = keys.slice(-2);
    const interval =
      before && newest
        ? {
            keyframeIntervalSeconds: (newest.dts - before.dts) / 1000,
            keyframeIntervalFrames: this.seen.filter((s) => s.video && s.dts >= before.dts && s.dts < newest.dts)
              .length,
          }
        : {};
    return {
      bitrateKbps: Math.round((bytes * 8) / windowSeconds / 1000),
      ...(frameSpan > 0 ? { frameRate: Math.round(((frames.length - 1) * 1000 * 100) / frameSpan) / 100 } : {}),
      ...interval,
      ...(this.width ? { width: this.width, height: this.height } : {}),
      sinceLastPacketSeconds: (now - last.at) / 1000,
      windowSeconds,
    };
  }
}

/** Measures every packet the publisher sends, before node-media-server passes it on to the players. */
export function meterPublisher(session: NmsSession, meter: IngestMeter): void {
  const pass = session.rtmp.onPacketCallback;
  session.rtmp.onPacketCallback = (packet) => {
    meter.observe(packet);
    pass(packet);
  };
}
