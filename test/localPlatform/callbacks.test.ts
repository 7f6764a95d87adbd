/**
 * The platform's callbacks (facts section 5) against a real receiver on 127.0.0.1: signed channel status and
 * transcoding callbacks, resend, retries then a failed record, receiver faults, SSRF refusals, the secret kept
 * across restarts and never logged.
 */
import * as assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import type { Video } from '../../src/api/types';
import { accountDir } from '../../src/localPlatform/accounts';
import { callAdmin, callbacksAdmin, type AdminTarget } from '../../src/localPlatform/callbacks/adminClient';
import { DEMO_NAMES } from '../../src/localPlatform/demo/demo';
import { startLocalPlatform } from '../../src/localPlatform/server';
import { eventually } from '../helpers/eventually';
import { ACCOUNT, removeDir, signed, tempDir, TestPlatform } from './harness';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: Record<string, unknown>;
}

/** A receiver: records every POST; answers with the next status of `answers` (200 when none is left). */
class Receiver {
  readonly received: Received[] = [];
  answers: number[] = [];
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(path = '/hooks'): Promise<Receiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new Receiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        receiver.received.push({ headers: req.headers, body, json: JSON.parse(body) as Record<string, unknown> });
        res.writeHead(receiver.answers.shift() ?? 200).end('ok');
      });
    });
    return receiver;
  }

  of(event: string): Received[] {
    return this.received.filter((r) => r.headers['x-callback-event'] === event);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The README's verification recipe, as a receiver in Node writes it. */
function verify(secret: string, headers: IncomingHttpHeaders, rawBody: string): boolean {
  const timestamp = String(headers['x-callback-timestamp'] ?? '');
  const given = Buffer.from(String(headers['x-callback-signature'] ?? ''));
  const expected = Buffer.from(
    'sha256=' + createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex'),
  );
  const fresh = Math.abs(Date.now() - Number(timestamp)) < 5 * 60 * 1000;
  return fresh && given.length === expected.length && timingSafeEqual(given, expected);
}

async function secretOf(dataDir: string): Promise<string> {
  return (await readFile(join(accountDir(dataDir, ACCOUNT.accessKey), 'callbacks', 'secret'), 'utf8')).trim();
}

const FAST = { attempts: 3, backoffMs: 50, timeoutMs: 2000 };

describe('local platform: callbacks to a receiver on 127.0.0.1', () => {
  let receiver: Receiver;
  let p: TestPlatform;
  let admin: AdminTarget;

  async function start(options: Parameters<typeof TestPlatform.start>[0] = {}, dataDir?: string): Promise<void> {
    p = await TestPlatform.start(
      {
        demo: true,
        clockSpeed: 25,
        accounts: [{ ...ACCOUNT, callbackUrls: [receiver.url] }],
        callbacks: FAST,
        ...options,
      },
      dataDir,
    );
    admin = { baseUrl: p.platform.baseUrl, accessKey: ACCOUNT.accessKey, secretKey: ACCOUNT.secretKey };
  }

  beforeEach(async () => {
    receiver = await Receiver.start();
  });
  afterEach(async () => {
    await p?.close();
    await receiver.close();
  });

  it('sends a signed channel-status callback when a demo channel starts and stops, verified by the recipe', async () => {
    await start();
    const client = p.client();
    const { channels } = await client.liveGetChannelsByPage({ number: 50 });
    const channel = channels.find((c) => c.name === DEMO_NAMES.channels.fresh)!;
    await client.liveStartChannel(channel.id);
    const [first] = await eventually(
      'the start callback',
      () => receiver.of('channel-status').length > 0 && receiver.of('channel-status'),
    );
    assert.deepEqual(first.json, { channelId: channel.id, channelStatus: 2, streamStatus: 1 });
    assert.equal(first.headers['content-type'], 'application/json');
    assert.match(String(first.headers['x-callback-id']), /^cb_[0-9a-f]{16}$/);
    assert.equal(first.headers['x-callback-attempt'], '1');
    const secret = await secretOf(p.dataDir);
    assert.ok(verify(secret, first.headers, first.body), 'the signature verifies with the account secret');
    assert.ok(!verify('another secret', first.headers, first.body), 'and not with another');
    assert.ok(!verify(secret, first.headers, first.body.replace('"channelStatus":2', '"channelStatus":1')));
    await client.liveStopChannel(channel.id);
    const stop = await eventually('the stop callback', () => receiver.of('channel-status')[1]);
    assert.deepEqual(stop.json, { channelId: channel.id, channelStatus: 1, streamStatus: 1 });
    // Recorded: time, event, URL, status, duration, attempt, body, headers.
    const listing = await eventually('two delivered records', async () => {
      const l = await callbacksAdmin.list(admin);
      return l.deliveries.filter((d) => d.outcome === 'delivered').length === 2 && l;
    });
    const [newest] = listing.deliveries;
    assert.equal(newest.event, 'channel-status');
    assert.equal(newest.url, receiver.url);
    assert.equal(newest.status, 200);
    assert.equal(newest.attempt, 1);
    assert.ok(newest.durationMs >= 0 && newest.time > 0);
    assert.equal(newest.body, stop.body);
    assert.equal(newest.headers['x-callback-signature'], stop.headers['x-callback-signature']);
  });

  it('sends transcode start and done with videoId, status and playCode', async () => {
    await start();
    const client = p.client();
    const videos: Video[] = await client.queryVideo({ start: 1, number: 100, sort: 'uploadTime', order: 'asc' });
    const done = videos.find((v) => v.title === 'Welcome tour' && v.parentId === null)!;
    const [queued] = await client.secondTranscodeV2({ videoIds: [done.id], replace: true });
    assert.equal(queued.code, 0);
    const ended = await eventually('the done callback', () =>
      receiver.of('transcode').find((r) => r.json.videoId === done.id && r.json.status === 2),
    );
    const started = receiver.of('transcode').find((r) => r.json.videoId === done.id && r.json.status === 1);
    assert.ok(started, 'a start callback came first');
    assert.deepEqual(started.json, { videoId: done.id, status: 1, playCode: null });
    assert.ok(receiver.received.indexOf(started) < receiver.received.indexOf(ended));
    assert.deepEqual(Object.keys(ended.json), ['videoId', 'status', 'playCode']);
    const playCode = ended.json.playCode as Record<string, string>;
    assert.equal(playCode.previewUrl, `${p.platform.baseUrl}/vod/${done.id}/preview`);
    assert.match(playCode.htmlEmbedCode, /<iframe src=/);
    assert.ok(verify(await secretOf(p.dataDir), ended.headers, ended.body));
  });

  it('resends a recorded delivery: same event id and body, a new signature that verifies', async () => {
    await start();
    const { channels } = await p.client().liveGetChannelsByPage({ number: 50 });
    const channel = channels.find((c) => c.name === DEMO_NAMES.channels.vr)!;
    const sent = await callbacksAdmin.trigger(admin, 'channel-status', channel.id, {
      channelStatus: 3,
      streamStatus: 2,
    });
    const first = await eventually('the triggered delivery', () => receiver.received[0]);
    assert.deepEqual(first.json, { channelId: channel.id, channelStatus: 3, streamStatus: 2 });
    const record = await eventually('its record', async () => (await callbacksAdmin.list(admin)).deliveries[0]);
    assert.equal(record.eventId, sent.eventId);
    await new Promise((resolve) => setTimeout(resolve, 5)); // a later timestamp than the first
    await callbacksAdmin.resend(admin, record.id);
    const again = await eventually('the resent delivery', () => receiver.received[1]);
    assert.equal(again.body, first.body);
    assert.equal(again.headers['x-callback-id'], first.headers['x-callback-id']);
    assert.ok(verify(await secretOf(p.dataDir), again.headers, again.body));
    const resent = await eventually('the resend record', async () =>
      (await callbacksAdmin.list(admin)).deliveries.find((d) => d.resendOf === record.id),
    );
    assert.equal(resent.origin, 'resend');
    await assert.rejects(callbacksAdmin.resend(admin, 'd0000000000'), /id must name a recorded delivery/);
  });

  it('retries a failing receiver with back-off, then records the delivery as failed', async () => {
    await start();
    receiver.answers = [500, 503, 500];
    const videos = await p.client().queryVideo({ start: 1, number: 5, sort: 'uploadTime', order: 'asc' });
    await callbacksAdmin.trigger(admin, 'transcode', videos[0].id, { status: 3 });
    const records = await eventually('three attempts recorded', async () => {
      const l = (await callbacksAdmin.list(admin)).deliveries;
      return l.length === 3 && l;
    });
    assert.equal(receiver.received.length, 3);
    assert.deepEqual(
      records.map((d) => [d.attempt, d.status, d.outcome]),
      [
        [3, 500, 'failed'],
        [2, 503, 'retrying'],
        [1, 500, 'retrying'],
      ],
    );
    assert.ok(records[0].time - records[1].time >= 90, 'the second back-off is twice the first (50 ms, then 100 ms)');
    assert.equal(new Set(receiver.received.map((r) => r.headers['x-callback-id'])).size, 1);
    assert.deepEqual(
      receiver.received.map((r) => r.headers['x-callback-attempt']),
      ['1', '2', '3'],
    );
    // A receiver that is not there: no answer, retried, then failed.
    await receiver.close();
    await callbacksAdmin.trigger(admin, 'transcode', videos[0].id, { status: 2 });
    const gone = await eventually('the failed delivery to a closed port', async () =>
      (await callbacksAdmin.list(admin)).deliveries.find((d) => d.outcome === 'failed' && d.status === null),
    );
    assert.match(gone.error ?? '', /connection refused/);
    receiver = await Receiver.start();
  });

  it('receiver faults: fail N, duplicate, out of order, delay', async () => {
    await start();
    const { channels } = await p.client().liveGetChannelsByPage({ number: 50 });
    const [a, b] = channels;
    // fail 1: the receiver gets the event twice (the first answer counted as lost).
    await callbacksAdmin.faults(admin, { fail: 1 });
    await callbacksAdmin.trigger(admin, 'channel-status', a.id);
    await eventually('two copies', () => receiver.received.length === 2);
    assert.equal(receiver.received[0].headers['x-callback-id'], receiver.received[1].headers['x-callback-id']);
    assert.deepEqual(
      receiver.received.map((r) => r.headers['x-callback-attempt']),
      ['1', '2'],
    );
    receiver.received.length = 0;
    // duplicate: the same delivery twice.
    await callbacksAdmin.faults(admin, { duplicate: true });
    await callbacksAdmin.trigger(admin, 'channel-status', a.id);
    await eventually('the duplicate', () => receiver.received.length === 2);
    assert.equal(receiver.received[0].body, receiver.received[1].body);
    assert.equal(receiver.received[0].headers['x-callback-id'], receiver.received[1].headers['x-callback-id']);
    receiver.received.length = 0;
    // out of order: two events arrive swapped.
    await callbacksAdmin.faults(admin, { outOfOrder: true });
    const one = await callbacksAdmin.trigger(admin, 'channel-status', a.id);
    const two = await callbacksAdmin.trigger(admin, 'channel-status', b.id);
    await eventually('both events', () => receiver.received.length === 2);
    assert.deepEqual(
      receiver.received.map((r) => r.headers['x-callback-id']),
      [two.eventId, one.eventId],
    );
    receiver.received.length = 0;
    // delay: held before it is sent; recorded with its fault.
    await callbacksAdmin.faults(admin, { delayMs: 300 });
    const before = Date.now();
    await callbacksAdmin.trigger(admin, 'channel-status', b.id);
    await eventually('the delayed delivery', () => receiver.received.length === 1);
    assert.ok(Date.now() - before >= 300);
    const listing = await callbacksAdmin.list(admin);
    assert.deepEqual(listing.faults, { fail: 0, delayMs: 300, duplicate: false, outOfOrder: false });
    assert.deepEqual([...new Set(listing.deliveries.map((d) => d.fault).filter(Boolean))].sort(), [
      'delay',
      'duplicate',
      'fail',
      'out-of-order',
    ]);
    await assert.rejects(callbacksAdmin.faults(admin, { fail: -1 } as never), /fail must be a whole number/);
  });

  it('refuses callback URLs that are not http(s), carry credentials, are too long or name other hosts', async () => {
    const dir = await tempDir();
    const refused = async (url: string, pattern: RegExp, callbacks = {}) =>
      assert.rejects(
        startLocalPlatform({ dataDir: dir, accounts: [{ ...ACCOUNT, callbackUrls: [url] }], callbacks }),
        pattern,
      );
    try {
      await refused(
        'file:///etc/passwd',
        /accounts\[0\]\.callbackUrls\[0\] must be an http:\/\/ or https:\/\/ address \(got file:\)/,
      );
      await refused('ftp://127.0.0.1/x', /callbackUrls\[0\] must be an http:\/\/ or https:\/\/ address/);
      await refused('http://user:pw@127.0.0.1/x', /callbackUrls\[0\] must not carry a user name or password/);
      await refused(`http://127.0.0.1/${'a'.repeat(2100)}`, /callbackUrls\[0\] must be at most 2048 characters/);
      await refused('http://example.com/hooks', /must name a loopback host .*--allow-remote-callbacks/);
      await refused('http://10.0.0.8/hooks', /must name a loopback host/);
    } finally {
      await removeDir(dir);
    }
    // Allowed remote, a private address is still refused when delivering, and recorded as failed without retries.
    await start({
      accounts: [{ ...ACCOUNT, callbackUrls: ['http://10.1.2.3:9/hooks', 'http://169.254.169.254/latest'] }],
      callbacks: { ...FAST, allowRemote: true },
    });
    const { channels } = await p.client().liveGetChannelsByPage({ number: 5 });
    await callbacksAdmin.trigger(admin, 'channel-status', channels[0].id);
    const records = await eventually('two refusals', async () => {
      const l = (await callbacksAdmin.list(admin)).deliveries;
      return l.length === 2 && l;
    });
    for (const r of records) {
      assert.equal(r.outcome, 'failed');
      assert.equal(r.attempt, 1);
      assert.match(
        r.error ?? '',
        /refused: .* is a private or link-local address \(start the platform with --allow-private-callbacks\)/,
      );
    }
    // At run time too: the field is named, nothing changes.
    await assert.rejects(
      callbacksAdmin.urls(admin, ['gopher://127.0.0.1/']),
      /urls\[0\] must be an http:\/\/ or https:\/\/ address/,
    );
    assert.deepEqual((await callbacksAdmin.urls(admin)).urls, [
      'http://10.1.2.3:9/hooks',
      'http://169.254.169.254/latest',
    ]);
  });

  it('is bounded: a silent receiver times out, a full queue records the excess as failed, the log keeps its newest', async () => {
    // A receiver that never answers.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
    try {
      await start({
        accounts: [{ ...ACCOUNT, callbackUrls: [silentUrl] }],
        callbacks: { attempts: 1, timeoutMs: 300, backoffMs: 50, maxQueue: 1, logKeep: 3 },
      });
      const { channels } = await p.client().liveGetChannelsByPage({ number: 5 });
      for (let i = 0; i < 3; i++) await callbacksAdmin.trigger(admin, 'channel-status', channels[0].id);
      const records = await eventually('three records', async () => {
        const l = (await callbacksAdmin.list(admin)).deliveries;
        return l.length === 3 && l;
      });
      const errors = records.map((r) => r.error).sort();
      assert.deepEqual(errors, [
        'no answer within 300 ms',
        'the delivery queue is full (1)',
        'the delivery queue is full (1)',
      ]);
      assert.ok(records.every((r) => r.outcome === 'failed'));
      // The log keeps the newest 3, in memory and on disk (rewritten past twice as many lines).
      const second = Date.now();
      for (let i = 0; i < 5; i++) await callbacksAdmin.trigger(admin, 'channel-status', channels[0].id);
      // The second batch's one sent delivery times out last: then all eight attempts are recorded.
      const kept = await eventually('eight attempts recorded', async () => {
        const l = (await callbacksAdmin.list(admin)).deliveries;
        return l[0]?.error === 'no answer within 300 ms' && l[0].time >= second && l;
      });
      assert.equal(kept.length, 3);
      assert.ok(
        kept.every((d) => d.time >= second),
        'the newest three',
      );
      const file = join(accountDir(p.dataDir, ACCOUNT.accessKey), 'callbacks', 'deliveries.jsonl');
      await eventually('the file bounded', async () => (await readFile(file, 'utf8')).trim().split('\n').length <= 6);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('answers the admin route to loopback clients only', async function () {
    const other = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && !a.internal && a.family === 'IPv4')?.address;
    if (!other) this.skip();
    await start({ host: '0.0.0.0' });
    const port = p.platform.port;
    const params = new URLSearchParams(signed('callbacks.list', {})).toString();
    const answer = await fetch(`http://${other}:${port}/_local/callbacks/list?${params}`, { method: 'POST' });
    assert.equal(answer.status, 403);
    assert.match(await answer.text(), /the callbacks admin route answers loopback clients only/);
    const local = await fetch(`http://127.0.0.1:${port}/_local/callbacks/list?${params}`, { method: 'POST' });
    assert.equal(local.status, 200);
  });

  it('answers the admin route only when signed by the account and with its own action', async () => {
    await start();
    await assert.rejects(callbacksAdmin.list({ ...admin, secretKey: 'wrong-secret' }), /signature does not match/);
    // A /rest action name is not accepted here.
    await assert.rejects(
      callAdmin(admin, 'list', { action: 'liveGetChannelsByPage' }),
      /action must be callbacks.list/,
    );
    await assert.rejects(callbacksAdmin.trigger(admin, 'channel-status', 'nope'), /channel nope does not exist/);
    await assert.rejects(
      callbacksAdmin.trigger(admin, 'video-deleted', 'x'),
      /event must be one of channel-status, transcode/,
    );
    const { channels } = await p.client().liveGetChannelsByPage({ number: 5 });
    await assert.rejects(
      callbacksAdmin.trigger(admin, 'channel-status', channels[0].id, { channelStatus: 9 }),
      /fields.channelStatus must be one of 0, 1, 2, 3, 5/,
    );
    await assert.rejects(
      callbacksAdmin.trigger(admin, 'channel-status', channels[0].id, { videoId: 'x' }),
      /fields.videoId is not a field of channel-status/,
    );
  });

  it('takes up a retry that a stop cut short, and keeps the receiver faults, across a restart', async () => {
    const dir = await tempDir();
    try {
      const slow = { callbacks: { attempts: 3, backoffMs: 1500, timeoutMs: 2000 } };
      await start(slow, dir);
      await callbacksAdmin.faults(admin, { duplicate: true });
      receiver.answers = [500];
      const { channels } = await p.client().liveGetChannelsByPage({ number: 5 });
      const sent = await callbacksAdmin.trigger(admin, 'channel-status', channels[0].id);
      await eventually('the first attempt, answered 500', async () =>
        (await callbacksAdmin.list(admin)).deliveries.some((d) => d.outcome === 'retrying'),
      );
      await p.close(); // before the 1.5 s back-off ends
      assert.equal(receiver.received.length, 1);

      await start(slow, dir);
      // The second attempt of the same event, then its duplicate: the fault set before the stop still holds.
      await eventually('the resumed attempt and its duplicate', () => receiver.received.length === 3, 10_000);
      assert.deepEqual(
        receiver.received.map((r) => [r.headers['x-callback-id'], r.headers['x-callback-attempt']]),
        [
          [sent.eventId, '1'],
          [sent.eventId, '2'],
          [sent.eventId, '2'],
        ],
      );
      assert.deepEqual((await callbacksAdmin.list(admin)).faults, {
        fail: 0,
        delayMs: 0,
        duplicate: true,
        outOfOrder: false,
      });
      // Delivered now: a third start resumes nothing.
      await p.close();
      await start(slow, dir);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      assert.equal(receiver.received.length, 3);
    } finally {
      await p.close();
      await removeDir(dir);
    }
  });

  it('keeps the secret across a restart, and never writes it to the log, the delivery log or stderr', async () => {
    const dir = await tempDir();
    const errors: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    const consoleError = console.error;
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      errors.push(String(chunk));
      return write(chunk, ...rest);
    }) as typeof process.stderr.write;
    console.error = (...args: unknown[]) => errors.push(args.map(String).join(' '));
    try {
      await start({}, dir);
      const secret = await secretOf(dir);
      assert.match(secret, /^[0-9a-f]{64}$/);
      const { channels } = await p.client().liveGetChannelsByPage({ number: 5 });
      await callbacksAdmin.trigger(admin, 'channel-status', channels[0].id);
      await eventually('delivered', () => receiver.received.length === 1);
      await p.close();
      await start({}, dir);
      assert.equal(await secretOf(dir), secret, 'the same secret after the restart');
      await callbacksAdmin.trigger(admin, 'channel-status', channels[0].id);
      const second = await eventually('delivered after the restart', () => receiver.received[1]);
      assert.ok(verify(secret, second.headers, second.body), 'a receiver keeps its secret across restarts');
      const listing = await eventually('both records, kept across the restart', async () => {
        const l = await callbacksAdmin.list(admin);
        return l.deliveries.length === 2 && l;
      });
      await p.close();
      const logFile = await readFile(join(accountDir(dir, ACCOUNT.accessKey), 'callbacks', 'deliveries.jsonl'), 'utf8');
      assert.equal(logFile.trim().split('\n').length, 2);
      for (const text of [logFile, JSON.stringify(listing), errors.join('\n')]) assert.ok(!text.includes(secret));
    } finally {
      process.stderr.write = write;
      console.error = consoleError;
      await removeDir(dir);
    }
  });
});
