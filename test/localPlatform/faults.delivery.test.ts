/**
 * Delivery faults on the demo's live test pattern, as a client sees them over real HTTP: the status, the bytes,
 * the headers, a connection reset or left without an answer, and lower bounds on time (never upper ones). Also:
 * a seeded probability decides alike on every read, and one account's faults never touch another's media.
 */
import * as assert from 'node:assert/strict';
import { get, type IncomingHttpHeaders } from 'node:http';
import type { PlatformClient } from '../../src/api/client';
import { inspect } from '../../src/inspector/inspect';
import { nodeFetch } from '../../src/inspector/source';
import { DEMO_NAMES } from '../../src/localPlatform/demo/demo';
import { eventually } from '../helpers/eventually';
import { clearFaults, faultsAdmin, inject } from './faultsHelpers';
import { OTHER, TestPlatform } from './harness';
import { httpGet, loadTools } from './live/media';

const PATTERN = DEMO_NAMES.channels.pattern;

interface Got {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** How the exchange ended: the whole body, the connection closed mid-body, or no answer at all. */
  ended: 'complete' | 'aborted' | 'no answer';
  ms: number;
}

/** A GET that reports how it ended instead of failing. */
function fetchRaw(url: string): Promise<Got> {
  const started = Date.now();
  return new Promise((resolve) => {
    const req = get(url, (res) => {
      const chunks: Buffer[] = [];
      const done = (ended: Got['ended']) =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          ended,
          ms: Date.now() - started,
        });
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(res.complete ? 'complete' : 'aborted'));
      res.on('aborted', () => done('aborted'));
      res.on('error', () => done('aborted'));
    });
    req.on('error', () =>
      resolve({ status: 0, headers: {}, body: Buffer.alloc(0), ended: 'no answer', ms: Date.now() - started }),
    );
  });
}

describe('local platform: stream delivery faults, as a client sees them (real ffmpeg)', function () {
  this.timeout(120_000);
  let p: TestPlatform;
  let client: PlatformClient;
  let master: string;
  let child: string;
  /** A segment of the window and its bytes as served without a fault. */
  let segment: string;
  let plain: Buffer;

  before(async () => {
    await loadTools();
    p = await TestPlatform.start({ demo: true, live: { npmFallback: true, rtmpPort: 0 } });
    client = p.client();
    const pattern = (await client.liveGetChannelsByPage({ number: 50 })).channels.find((c) => c.name === PATTERN)!;
    const [urls] = await client.liveGetChannelsPlayUrl(pattern.id);
    master = urls.playUrl;
    child = urls.playUrlList[0].url;
    await eventually('the test pattern plays', async () => (await httpGet(master)).status === 200, 60_000);
  });
  after(async () => {
    await p?.close();
  });
  beforeEach(async () => {
    const text = (await httpGet(child)).body.toString();
    segment = new URL(text.split('\n').filter((l) => l.endsWith('.ts'))[4], child).href;
    plain = (await httpGet(segment)).body;
  });
  afterEach(async () => {
    await clearFaults(p.platform.baseUrl);
  });

  it('status: the chosen files answer with the status; the others as ever', async () => {
    await inject(p.platform.baseUrl, [{ target: PATTERN, fault: 'status', code: 503, files: ['segment'] }]);
    assert.equal((await fetchRaw(segment)).status, 503);
    assert.equal((await fetchRaw(child)).status, 200);
    assert.equal((await fetchRaw(master)).status, 200);
  });

  it('delay: the answer comes after the delay, whole', async () => {
    await inject(p.platform.baseUrl, [{ target: PATTERN, fault: 'delay', ms: 1500, files: ['segment'] }]);
    const got = await fetchRaw(segment);
    assert.ok(got.ms >= 1400, `answered after ${got.ms} ms`);
    assert.deepEqual(got.body, plain);
  });

  it('timeout: no answer; the connection is closed after ms', async () => {
    await inject(p.platform.baseUrl, [{ target: PATTERN, fault: 'timeout', ms: 1000, files: ['playlist'] }]);
    const got = await fetchRaw(child);
    assert.equal(got.ended, 'no answer');
    assert.ok(got.ms >= 900, `closed after ${got.ms} ms`);
  });

  it('throttle: the same bytes, no faster than bytesPerSecond', async () => {
    await inject(p.platform.baseUrl, [{ target: PATTERN, fault: 'throttle', bytesPerSecond: 200_000 }]);
    const got = await fetchRaw(segment);
    assert.deepEqual(got.body, plain);
    // 10 steps a second of bytesPerSecond / 10: the last step starts after (steps - 1) tenths.
    const floor = (Math.ceil(plain.length / 20_000) - 1) * 100;
    assert.ok(got.ms >= floor * 0.9, `${plain.length} bytes in ${got.ms} ms (floor ${floor} ms)`);
  });

  it('reset: the full length announced, part of the body sent, then the connection reset', async () => {
    await inject(p.platform.baseUrl, [{ target: PATTERN, fault: 'reset', afterBytes: 10_000, files: ['segment'] }]);
    const got = await fetchRaw(segment);
    assert.equal(got.status, 200);
    assert.equal(Number(got.headers['content-length']), plain.length);
    assert.equal(got.ended, 'aborted');
    assert.ok(got.body.length < plain.length, `${got.body.length} of ${plain.length} bytes`);
    assert.deepEqual(got.body, plain.subarray(0, got.body.length));
  });

  it('truncate: a complete answer of the first bytes', async () => {
    await inject(p.platform.baseUrl, [{ target: PATTERN, fault: 'truncate', bytes: 1000, files: ['segment'] }]);
    const got = await fetchRaw(segment);
    assert.equal(got.ended, 'complete');
    assert.equal(Number(got.headers['content-length']), 1000);
    assert.deepEqual(got.body, plain.subarray(0, 1000));
  });

  it('content-type and no-cors: the headers a player sees, and the inspector reports them', async () => {
    await inject(p.platform.baseUrl, [
      { target: PATTERN, fault: 'content-type', value: 'text/html', files: ['playlist'] },
      { target: PATTERN, fault: 'no-cors', files: ['playlist'] },
    ]);
    const got = await fetchRaw(child);
    assert.equal(got.headers['content-type'], 'text/html');
    assert.equal(got.headers['access-control-allow-origin'], undefined);
    assert.equal((await fetchRaw(segment)).headers['access-control-allow-origin'], '*');
    const found = (await inspect(master, { fetch: nodeFetch, liveSeconds: 0 })).findings.map((f) => f.code);
    assert.ok(found.includes('HLS-CONTENT-TYPE'), found.join(', '));
    assert.ok(found.includes('HLS-CORS-MISSING'), found.join(', '));
  });

  it('probability with a seed: the same segments are hit on every read, some and not all', async () => {
    await inject(p.platform.baseUrl, [
      { target: PATTERN, fault: 'status', code: 500, probability: 0.5, seed: 7, files: ['segment'] },
    ]);
    // The window's segments and the ones kept behind it: 30 addresses.
    const last = Number(/_(\d+)\.ts$/.exec(segment)![1]);
    const urls = Array.from({ length: 30 }, (_, i) => segment.replace(/_\d+\.ts$/, `_${last - i}.ts`));
    const first = await Promise.all(urls.map(async (u) => (await fetchRaw(u)).status));
    const again = await Promise.all(urls.map(async (u) => (await fetchRaw(u)).status));
    assert.deepEqual(again, first);
    assert.ok(first.includes(500) && first.includes(200), first.join(' '));
  });

  it("faults are per account: another account's rules never touch this account's media", async () => {
    // The other account has the same demo channels (same ids and names), not live.
    await inject(p.platform.baseUrl, [{ target: '*', fault: 'status', code: 500 }], OTHER);
    assert.equal((await fetchRaw(segment)).status, 200);
    assert.equal((await fetchRaw(child)).status, 200);
    await clearFaults(p.platform.baseUrl, OTHER);
    // The same rule in this account hits.
    await inject(p.platform.baseUrl, [{ target: '*', fault: 'status', code: 500 }]);
    assert.equal((await fetchRaw(segment)).status, 500);
  });

  it("clear with a target removes only that target's rules; list says what is active", async () => {
    const pattern = (await client.liveGetChannelsByPage({ number: 50 })).channels.find((c) => c.name === PATTERN)!;
    await inject(p.platform.baseUrl, [
      { target: PATTERN, fault: 'status', code: 500, files: ['segment'] },
      { target: pattern.id, fault: 'no-cors' },
    ]);
    let listed = (await faultsAdmin(p.platform.baseUrl, 'list')).json.result as {
      injected: unknown[];
      activeItems: string[];
    };
    assert.equal(listed.injected.length, 2);
    assert.deepEqual(listed.activeItems, [pattern.id]);
    await faultsAdmin(p.platform.baseUrl, 'clear', { target: PATTERN });
    listed = (await faultsAdmin(p.platform.baseUrl, 'list')).json.result as typeof listed;
    assert.equal(listed.injected.length, 1);
    assert.equal((await fetchRaw(segment)).status, 200);
    assert.equal((await fetchRaw(segment)).headers['access-control-allow-origin'], undefined);
  });
});
