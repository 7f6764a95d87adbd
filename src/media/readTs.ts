/**
 * The packets of an MPEG-TS segment in one pass over its 188-byte packets, for read.ts. mediabunny reads them
 * too, but through its general demuxer: every byte of every PES scanned for access unit boundaries in 1 KiB
 * steps through an async buffered reader, once per track; a 6 s 720p segment took 130 ms in-process against
 * 600 ms for an ffprobe run (issue 29 asks for 5x). Here a PES is taken whole (its chunks joined once) and
 * only its NAL unit start codes are visited (`indexOf`, native).
 *
 * Only the common shape is read here, the one HLS packagers write (ffmpeg, x264, Apple's tools): a PMT with at
 * most one H.264 and one ADTS AAC stream, each PES with a PTS, one access unit per video PES, whole ADTS frames
 * per audio PES. Anything else gives undefined, and read.ts reads the segment with mediabunny instead; the
 * figures are mediabunny's (test/media/readTs.test.ts compares both on real segments).
 */

const PACKET_SIZE = 188;
const TICKS = 90_000;
const STREAM_H264 = 0x1b;
const STREAM_ADTS = 0x0f;

/** One track's packets in decode order: presentation time and duration (s), size (bytes), key. */
export interface TsTrackPackets {
  readonly timestamps: number[];
  readonly durations: number[];
  readonly sizes: number[];
  readonly keys: boolean[];
}

export interface TsPackets {
  readonly video?: TsTrackPackets;
  readonly audio?: TsTrackPackets;
}

export interface TsReadOptions {
  /** Key packets checked in the bitstream (an IDR), as mediabunny's `verifyKeyPackets`. */
  readonly verify: boolean;
  /** The audio track's sample rate (mediabunny's), which times the ADTS frames after a PES's first. */
  readonly sampleRate?: number;
}

interface Pes {
  pts: number;
  /** The random access indicator of the PES's first TS packet. */
  rai: boolean;
  /** Where its payload lies in the input: start and end offsets, pair after pair (no views made per packet). */
  spans: number[];
  /** Payload bytes the PES header declares (0: unbounded). */
  declared: number;
}

/** Thrown inside this module when the input is not of the shape read here; caught by `readTsPackets`. */
class Unhandled extends Error {}

function need(condition: boolean): void {
  if (!condition) throw new Unhandled();
}

/** The packets of the H.264 and AAC tracks, or undefined when the input is not of the shape read here. */
export function readTsPackets(data: Uint8Array, options: TsReadOptions): TsPackets | undefined {
  try {
    return read(data, options);
  } catch (error) {
    if (error instanceof Unhandled || error instanceof RangeError) return undefined;
    throw error;
  }
}

function read(data: Uint8Array, options: TsReadOptions): TsPackets {
  need(data.length > 0 && data.length % PACKET_SIZE === 0);
  const { videoPid, audioPid, pmtAt } = programOf(data);
  const video: Pes[] = [];
  const audio: Pes[] = [];
  for (let at = 0; at < data.length; at += PACKET_SIZE) {
    need(data[at] === 0x47);
    const pid = ((data[at + 1]! & 0x1f) << 8) | data[at + 2]!;
    const list = pid === videoPid ? video : pid === audioPid ? audio : undefined;
    if (!list) continue;
    need(at > pmtAt);
    const control = (data[at + 3]! >> 4) & 3;
    const adaptation = control & 2 ? 1 + data[at + 4]! : 0;
    if (!(control & 1)) continue;
    const payload = at + 4 + adaptation;
    need(payload <= at + PACKET_SIZE);
    if (data[at + 1]! & 0x40) {
      const rai = adaptation > 1 && (data[at + 5]! & 0x40) !== 0;
      list.push(pesStart(data, payload, at + PACKET_SIZE, rai));
    } else list[list.length - 1]?.spans.push(payload, at + PACKET_SIZE);
  }
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.length);
  return {
    ...(videoPid >= 0 ? { video: videoPackets(bytes, video, options.verify, video[0]?.rai ?? false) } : {}),
    ...(audioPid >= 0 ? { audio: audioPackets(bytes, audio, options.sampleRate) } : {}),
  };
}

/** The PAT's first program and its PMT: the H.264 and the AAC stream's PIDs (-1 when absent). */
function programOf(data: Uint8Array): { videoPid: number; audioPid: number; pmtAt: number } {
  let pmtPid = -1;
  for (let at = 0; at < data.length; at += PACKET_SIZE) {
    need(data[at] === 0x47);
    const pid = ((data[at + 1]! & 0x1f) << 8) | data[at + 2]!;
    if (!(data[at + 1]! & 0x40) || (pid !== 0 && pid !== pmtPid)) continue;
    const control = (data[at + 3]! >> 4) & 3;
    const start = at + 4 + (control & 2 ? 1 + data[at + 4]! : 0);
    const table = start + 1 + data[start]!;
    const end = Math.min(table + 3 + (((data[table + 1]! & 0x0f) << 8) | data[table + 2]!) - 4, at + PACKET_SIZE);
    if (pid === 0) {
      need(data[table] === 0x00);
      for (let p = table + 8; p + 4 <= end; p += 4) {
        if (((data[p]! << 8) | data[p + 1]!) === 0) continue;
        pmtPid = ((data[p + 2]! & 0x1f) << 8) | data[p + 3]!;
        break;
      }
      continue;
    }
    need(data[table] === 0x02);
    let videoPid = -1;
    let audioPid = -1;
    const infoLength = ((data[table + 10]! & 0x0f) << 8) | data[table + 11]!;
    for (let p = table + 12 + infoLength; p + 5 <= end;) {
      const type = data[p]!;
      const esPid = ((data[p + 1]! & 0x1f) << 8) | data[p + 2]!;
      // One H.264 and one AAC stream at most, and nothing else (mediabunny's choice of tracks stays simple).
      if (type === STREAM_H264 && videoPid < 0) videoPid = esPid;
      else if (type === STREAM_ADTS && audioPid < 0) audioPid = esPid;
      else need(false);
      p += 5 + (((data[p + 3]! & 0x0f) << 8) | data[p + 4]!);
    }
    return { videoPid, audioPid, pmtAt: at };
  }
  throw new Unhandled();
}

function pesStart(data: Uint8Array, start: number, end: number, rai: boolean): Pes {
  const p = start;
  need(end - start >= 14 && data[p] === 0 && data[p + 1] === 0 && data[p + 2] === 1 && (data[p + 7]! & 0x80) !== 0);
  const length = (data[p + 4]! << 8) | data[p + 5]!;
  const headerLength = data[p + 8]!;
  need(p + 9 + headerLength <= end);
  // 33 bits: the top 3 in the first byte, then 15 and 15 with a marker bit after each.
  const pts =
    ((data[p + 9]! >> 1) & 0x07) * 2 ** 30 +
    ((data[p + 10]! << 7) | (data[p + 11]! >> 1)) * 2 ** 15 +
    ((data[p + 12]! << 7) | (data[p + 13]! >> 1));
  const declared = length === 0 ? 0 : length - 3 - headerLength;
  return { pts, rai, spans: [p + 9 + headerLength, end], declared };
}

/** A PES's payload in one buffer (copied once from the input's packets). */
function joined(data: Buffer, pes: Pes): Buffer {
  let total = 0;
  for (let i = 0; i < pes.spans.length; i += 2) total += pes.spans[i + 1]! - pes.spans[i]!;
  need(pes.declared === 0 || pes.declared === total);
  const bytes = Buffer.allocUnsafe(total);
  for (let i = 0, off = 0; i < pes.spans.length; i += 2) off += data.copy(bytes, off, pes.spans[i], pes.spans[i + 1]);
  return bytes;
}

const START_CODE = Buffer.from([0, 0, 1]);

/** Where the start code at or after `from` begins (its 4-byte form included), and its NAL header's offset. */
function nextStartCode(bytes: Buffer, from: number): { at: number; nal: number } | undefined {
  const found = bytes.indexOf(START_CODE, from);
  if (found < 0) return undefined;
  return { at: found > from && bytes[found - 1] === 0 ? found - 1 : found, nal: found + 3 };
}

/** An unsigned Exp-Golomb value at the start of `bytes` (first_mb_in_slice). */
function ue(bytes: Buffer, at: number): number {
  let zeros = 0;
  const bit = (n: number): number => (bytes[at + (n >> 3)]! >> (7 - (n & 7))) & 1;
  while (zeros < 32 && bit(zeros) === 0) zeros++;
  let value = 0;
  for (let i = 0; i < zeros; i++) value = value * 2 + bit(zeros + 1 + i);
  return 2 ** zeros - 1 + value;
}

/**
 * One access unit per PES, checked as mediabunny splits them (a picture starts at an AUD, SPS, PPS or SEI, or at
 * a slice whose first macroblock does not follow the last one's): where it starts, and whether it is an IDR.
 */
function accessUnit(bytes: Buffer): { start: number; idr: boolean } {
  let code = nextStartCode(bytes, 0);
  need(code !== undefined);
  const start = code!.at;
  let sliceSeen = false;
  let lastFirstMb = 0;
  let idr: boolean | undefined;
  for (let first = true; code; first = false, code = nextStartCode(bytes, code.nal)) {
    const type = bytes[code.nal]! & 0x1f;
    const slice = type === 1 || type === 2 || type === 5;
    // The PES starts a new picture: with a parameter set, delimiter or SEI, or with a picture's first slice.
    if (first) need(type >= 6 ? type <= 9 : slice && ue(bytes, code.nal + 1) === 0);
    if (slice) {
      const firstMb = ue(bytes, code.nal + 1);
      need(!sliceSeen || firstMb > lastFirstMb); // else a second picture in this PES
      sliceSeen = true;
      lastFirstMb = firstMb;
    } else if (type >= 6 && type <= 9) need(!sliceSeen);
    if (type === 6 && idr === undefined) need(!hasRecoveryPoint(bytes.subarray(code.nal, nalEnd(bytes, code.nal))));
    if (idr === undefined && type >= 1 && type <= 5) idr = type === 5;
  }
  need(sliceSeen);
  return { start, idr: idr === true };
}

function nalEnd(bytes: Buffer, nal: number): number {
  return nextStartCode(bytes, nal)?.at ?? bytes.length;
}

/** An SEI NAL unit with a recovery point message (mediabunny may count such a picture as key: read there). */
function hasRecoveryPoint(nal: Buffer): boolean {
  const rbsp: number[] = [];
  for (let i = 1; i < nal.length; i++) {
    if (i >= 3 && nal[i] === 3 && nal[i - 1] === 0 && nal[i - 2] === 0) continue;
    rbsp.push(nal[i]!);
  }
  for (let p = 0; p < rbsp.length - 1;) {
    let type = 0;
    let size = 0;
    while (rbsp[p] === 255) type += rbsp[p++]!;
    type += rbsp[p++] ?? 0;
    while (rbsp[p] === 255) size += rbsp[p++]!;
    size += rbsp[p++] ?? 0;
    if (type === 6) return true;
    p += size;
  }
  return false;
}

function videoPackets(data: Buffer, list: Pes[], verify: boolean, trusted: boolean): TsTrackPackets {
  const units = list.map((pes) => {
    const bytes = joined(data, pes);
    return { pes, length: bytes.length, ...accessUnit(bytes) };
  });
  // A unit runs from its first start code to the next unit's (bytes before a PES's first one are the last unit's).
  const sizes = units.map((u, i) => u.length - u.start + (units[i + 1]?.start ?? 0));
  const keys = units.map((u) => (u.pes.rai || (!trusted && u.idr)) && (!verify || u.idr));
  return timed(
    units.map((u) => u.pes.pts),
    sizes,
    keys,
  );
}

const ADTS_SAMPLES = 1024;

function audioPackets(data: Buffer, list: Pes[], sampleRate: number | undefined): TsTrackPackets {
  need(sampleRate !== undefined && sampleRate > 0);
  const step = Math.round((ADTS_SAMPLES * TICKS) / sampleRate!);
  const ticks: number[] = [];
  const sizes: number[] = [];
  for (const pes of list) {
    const bytes = joined(data, pes);
    for (let at = 0, k = 0; at < bytes.length; k++) {
      need(bytes[at] === 0xff && (bytes[at + 1]! & 0xf6) === 0xf0 && at + 6 < bytes.length);
      const length = ((bytes[at + 3]! & 3) << 11) | (bytes[at + 4]! << 3) | (bytes[at + 5]! >> 5);
      need(length >= 7 && at + length <= bytes.length);
      ticks.push(pes.pts + k * step);
      sizes.push(length);
      at += length;
    }
  }
  return timed(
    ticks,
    sizes,
    sizes.map(() => true),
  );
}

/**
 * Times in seconds; each packet lasts until the next one in presentation order, the last one as long as the
 * one before it in decode order (mediabunny's rule, kept so both readers give the same figures).
 */
function timed(ticks: number[], sizes: number[], keys: boolean[]): TsTrackPackets {
  need(ticks.every((t) => Math.abs(t - ticks[0]!) < 2 ** 32));
  const order = ticks.map((_, i) => i).sort((a, b) => ticks[a]! - ticks[b]! || a - b);
  const next = new Array<number>(ticks.length);
  order.forEach((index, p) => (next[index] = p + 1 < order.length ? order[p + 1]! : -1));
  let last = 0;
  const durations = ticks.map((t, i) => {
    if (next[i]! >= 0) last = ticks[next[i]!]! - t;
    return Math.max(last / TICKS, 0);
  });
  return { timestamps: ticks.map((t) => t / TICKS), durations, sizes, keys };
}
