/**
 * Makes a loop of MPEG-TS segments continuous: turn `k` of the loop is served with every timestamp (PTS, DTS,
 * PCR) moved `k` loop lengths later and every continuity counter moved on by what one turn counts, so a player
 * reads one stream that never restarts (no EXT-X-DISCONTINUITY, no "corrupt packet" at the turn). Only those
 * fields change; a packet this code does not understand is left as it is.
 * (ISO/IEC 13818-1: 188-byte packets, 4-bit counters per PID, 33-bit timestamps at 90 kHz.)
 */
const PACKET = 188;
const WRAP = 2 ** 33;

/** What one turn of the loop advances: its length in 90 kHz ticks and each PID's counter. */
export interface LoopTurn {
  ticks: number;
  counters: Map<number, number>;
}

/** Counts the payload packets of each PID over the loop's segments (a counter moves on with each of them). */
export function loopTurn(segments: Buffer[], seconds: number): LoopTurn {
  const counters = new Map<number, number>();
  for (const data of segments) {
    for (let at = 0; at + PACKET <= data.length; at += PACKET) {
      if (data[at] !== 0x47 || !(data[at + 3] & 0x10)) continue;
      const pid = pidOf(data, at);
      counters.set(pid, ((counters.get(pid) ?? 0) + 1) % 16);
    }
  }
  return { ticks: Math.round(seconds * 90_000), counters };
}

/** A copy of one segment as turn `turn` of the loop serves it. */
export function shiftSegment(data: Buffer, turn: number, loop: LoopTurn): Buffer {
  const out = Buffer.from(data);
  const shift = (turn * loop.ticks) % WRAP;
  for (let at = 0; at + PACKET <= out.length; at += PACKET) {
    if (out[at] !== 0x47) continue;
    const pid = pidOf(out, at);
    const control = (out[at + 3] >> 4) & 0x03;
    const step = ((loop.counters.get(pid) ?? 0) * turn) % 16;
    if (control & 0x01) out[at + 3] = (out[at + 3] & 0xf0) | (((out[at + 3] & 0x0f) + step) % 16);
    let payload = at + 4;
    if (control & 0x02) {
      const length = out[at + 4];
      if (length > 0 && out[at + 5] & 0x10 && length >= 7) shiftPcr(out, at + 6, shift);
      payload = at + 5 + length;
    }
    const start = (out[at + 1] & 0x40) !== 0;
    if (start && control & 0x01 && payload + 19 <= at + PACKET) shiftPes(out, payload, shift);
  }
  return out;
}

function pidOf(data: Buffer, at: number): number {
  return ((data[at + 1] & 0x1f) << 8) | data[at + 2];
}

function shiftPcr(data: Buffer, at: number, shift: number): void {
  const base =
    data[at] * 2 ** 25 + data[at + 1] * 2 ** 17 + data[at + 2] * 2 ** 9 + data[at + 3] * 2 + (data[at + 4] >> 7);
  const moved = (base + shift) % WRAP;
  data[at] = Math.floor(moved / 2 ** 25) & 0xff;
  data[at + 1] = Math.floor(moved / 2 ** 17) & 0xff;
  data[at + 2] = Math.floor(moved / 2 ** 9) & 0xff;
  data[at + 3] = Math.floor(moved / 2) & 0xff;
  data[at + 4] = ((moved % 2) << 7) | (data[at + 4] & 0x7f);
}

/** A PES header's PTS and DTS, where the packet starts one (`00 00 01`, a stream with the optional header). */
function shiftPes(data: Buffer, at: number, shift: number): void {
  if (data[at] !== 0 || data[at + 1] !== 0 || data[at + 2] !== 1) return;
  if ((data[at + 6] & 0xc0) !== 0x80) return;
  const flags = data[at + 7] >> 6;
  if (flags & 0x02) shiftTimestamp(data, at + 9, shift);
  if (flags === 0x03) shiftTimestamp(data, at + 14, shift);
}

function shiftTimestamp(data: Buffer, at: number, shift: number): void {
  const value =
    ((data[at] >> 1) & 0x07) * 2 ** 30 +
    ((data[at + 1] << 7) | (data[at + 2] >> 1)) * 2 ** 15 +
    ((data[at + 3] << 7) | (data[at + 4] >> 1));
  const moved = (value + shift) % WRAP;
  const high = Math.floor(moved / 2 ** 30);
  const middle = Math.floor(moved / 2 ** 15) % 2 ** 15;
  const low = moved % 2 ** 15;
  data[at] = (data[at] & 0xf1) | (high << 1);
  data[at + 1] = middle >> 7;
  data[at + 2] = ((middle & 0x7f) << 1) | 1;
  data[at + 3] = low >> 7;
  data[at + 4] = ((low & 0x7f) << 1) | 1;
}
