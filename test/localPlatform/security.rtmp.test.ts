/**
 * The RTMP port's bounds (issue 22, item 5), with raw TCP sockets against the real RTMP server of
 * the platform: a connection that sends nothing, or half a handshake, is closed within the handshake
 * time; one connection more than allowed from one address is closed at once.
 */
import * as assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { RTMP_LIMITS } from '../../src/localPlatform/live/rtmpServer';
import { TestPlatform } from './harness';
import { loadTools } from './live/media';
import { eventually } from '../helpers/eventually';

/** Opens a socket; resolves once connected, with when it closed (ms after opening, or undefined while open). */
function open(port: number): Promise<{ socket: Socket; closedAfter: () => number | undefined }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let closedAt: number | undefined;
    const socket = connect(port, '127.0.0.1', () =>
      resolve({ socket, closedAfter: () => (closedAt === undefined ? undefined : closedAt - started) }),
    );
    socket.on('error', () => undefined);
    socket.on('close', () => (closedAt = Date.now()));
    socket.once('error', reject);
  });
}

describe('local platform security: RTMP connections', function () {
  this.timeout(60_000);
  let tp: TestPlatform;
  let port: number;
  const sockets: Socket[] = [];

  before(async () => {
    await loadTools();
    tp = await TestPlatform.start({ live: { npmFallback: true, rtmpPort: 0 } });
    port = Number(new URL(tp.platform.rtmpUrl!.replace(/^rtmp:/, 'http:')).port);
  });
  after(async () => {
    for (const s of sockets) s.destroy();
    await tp?.close();
  });

  it('closes a connection that sends nothing, and one that stops half-way through the handshake', async () => {
    const silent = await open(port);
    const half = await open(port);
    sockets.push(silent.socket, half.socket);
    // C0 (version 3) and the first 100 of C1's 1536 bytes.
    half.socket.write(Buffer.concat([Buffer.from([3]), Buffer.alloc(100, 7)]));
    const limit = RTMP_LIMITS.handshakeMs + 3000;
    await eventually(
      'both closed',
      () => silent.closedAfter() !== undefined && half.closedAfter() !== undefined,
      limit,
    );
    assert.ok(
      silent.closedAfter()! >= RTMP_LIMITS.handshakeMs - 500,
      `not before the handshake time (${silent.closedAfter()} ms)`,
    );
  });

  it('closes at once a connection beyond the limit per address', async () => {
    const kept: Array<Awaited<ReturnType<typeof open>>> = [];
    for (let i = 0; i < RTMP_LIMITS.perAddress; i++) kept.push(await open(port));
    sockets.push(...kept.map((k) => k.socket));
    const extra = await open(port);
    sockets.push(extra.socket);
    await eventually('the extra connection to close', () => extra.closedAfter() !== undefined, 2000);
    assert.ok(
      kept.every((k) => k.closedAfter() === undefined),
      'the others stay open',
    );
    for (const k of kept) k.socket.destroy();
    // Room again once they have gone.
    await eventually('the kept connections to close', () => kept.every((k) => k.closedAfter() !== undefined), 2000);
    await new Promise((r) => setTimeout(r, 200));
    const again = await open(port);
    sockets.push(again.socket);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(again.closedAfter(), undefined, 'a new connection is served again');
  });
});
