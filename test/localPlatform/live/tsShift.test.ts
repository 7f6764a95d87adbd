/** The loop's timestamp and counter shift on hand-made MPEG-TS packets (the demo test checks real segments). */
import * as assert from 'node:assert/strict';
import { loopTurn, shiftSegment } from '../../../src/localPlatform/live/tsShift';

/** One 188-byte packet of `pid` with counter `cc`, starting a PES with PTS and DTS, and a PCR. */
function packet(pid: number, cc: number, pts: number, dts: number, pcr: number): Buffer {
  const p = Buffer.alloc(188, 0xff);
  p[0] = 0x47;
  p[1] = 0x40 | (pid >> 8);
  p[2] = pid & 0xff;
  p[3] = 0x30 | cc; // adaptation field and payload
  p[4] = 7; // adaptation field length: flags + PCR
  p[5] = 0x10; // PCR flag
  writePcr(p, 6, pcr);
  const pes = 12;
  Buffer.from([0, 0, 1, 0xe0, 0, 0, 0x80, 0xc0, 10]).copy(p, pes);
  writeTimestamp(p, pes + 9, 0x3, pts);
  writeTimestamp(p, pes + 14, 0x1, dts);
  return p;
}

function writeTimestamp(p: Buffer, at: number, prefix: number, t: number): void {
  p[at] = (prefix << 4) | (Math.floor(t / 2 ** 30) << 1) | 1;
  p[at + 1] = Math.floor(t / 2 ** 22) & 0xff;
  p[at + 2] = ((Math.floor(t / 2 ** 15) & 0x7f) << 1) | 1;
  p[at + 3] = Math.floor(t / 2 ** 7) & 0xff;
  p[at + 4] = ((t & 0x7f) << 1) | 1;
}

function readTimestamp(p: Buffer, at: number): number {
  return (
    ((p[at] >> 1) & 7) * 2 ** 30 +
    ((p[at + 1] << 7) | (p[at + 2] >> 1)) * 2 ** 15 +
    ((p[at + 3] << 7) | (p[at + 4] >> 1))
  );
}

function writePcr(p: Buffer, at: number, base: number): void {
  p[at] = Math.floor(base / 2 ** 25) & 0xff;
  p[at + 1] = Math.floor(base / 2 ** 17) & 0xff;
  p[at + 2] = Math.floor(base / 2 ** 9) & 0xff;
  p[at + 3] = Math.floor(base / 2) & 0xff;
  p[at + 4] = ((base % 2) << 7) | 0x7e;
  p[at + 5] = 0;
}

function readPcr(p: Buffer, at: number): number {
  return p[at] * 2 ** 25 + p[at + 1] * 2 ** 17 + p[at + 2] * 2 ** 9 + p[at + 3] * 2 + (p[at + 4] >> 7);
}

describe('local platform: the continuous test-pattern loop (MPEG-TS shift)', () => {
  it('moves PTS, DTS and PCR on by the turns and the counters by what a turn counts, wrapping at 33 bits', () => {
    // A loop of 3 packets of PID 256 (counters 0, 1, 2): a turn moves each counter on by 3.
    const loop = [packet(256, 0, 126_000, 123_000, 120_000), packet(256, 1, 0, 0, 0), packet(256, 2, 0, 0, 0)];
    const turn = loopTurn(loop, 8);
    assert.equal(turn.ticks, 720_000);
    assert.equal(turn.counters.get(256), 3);
    const once = shiftSegment(loop[0], 1, turn);
    assert.equal(readTimestamp(once, 21), 126_000 + 720_000);
    assert.equal(readTimestamp(once, 26), 123_000 + 720_000);
    assert.equal(readPcr(once, 6), 120_000 + 720_000);
    assert.equal(once[3] & 0x0f, 3, 'the counter follows the last packet of the turn before');
    assert.equal(once[21] >> 4, 0x3, 'the PTS prefix is kept');
    assert.equal(once[26] >> 4, 0x1, 'the DTS prefix is kept');
    // Far turns (segment numbers come from the clock) wrap at 2^33 like any long stream.
    const far = 300_000_000;
    const expected = (126_000 + far * 720_000) % 2 ** 33;
    assert.equal(readTimestamp(shiftSegment(loop[0], far, turn), 21), expected);
    assert.equal(shiftSegment(loop[2], far, turn)[3] & 0x0f, (2 + 3 * far) % 16);
    // The cached bytes stay as they were.
    assert.equal(readTimestamp(loop[0], 21), 126_000);
  });
});
