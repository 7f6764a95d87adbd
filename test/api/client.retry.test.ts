import * as assert from 'node:assert/strict';
import { TransportError } from '../../src/api/errors';
import { isRetryable, retryAfterMs, retryDelayMs } from '../../src/api/retry';
import { CaptureServer, ok, sendJson, signatureOf } from './captureServer';
import { SECRET_KEY, makeClient, rejection } from './fixtures';

describe('PlatformClient retry', () => {
  let server: CaptureServer;

  beforeEach(async () => {
    server = await CaptureServer.start();
  });
  afterEach(async () => {
    await server.close();
  });

  it('retries a GET on 5xx until it succeeds, re-signing each attempt with a fresh timestamp', async () => {
    const client = makeClient(server.baseUrl, { retry: { attempts: 4, baseDelayMs: 20, maxDelayMs: 40 } });
    try {
      server.respond = (_r, res) =>
        server.requests.length < 3 ? sendJson(res, { oops: true }, 503) : sendJson(res, ok([{ id: 'g' }]));
      const groups = await client.getLogoGroupList();
      assert.deepEqual(groups, [{ id: 'g' }]);
      assert.equal(server.requests.length, 3, 'two failures, then success');
      const timestamps = server.requests.map((r) => Number(r.query.timestamp));
      for (let i = 1; i < timestamps.length; i++)
        assert.ok(timestamps[i]! > timestamps[i - 1]!, `timestamps increase: ${timestamps.join(', ')}`);
      for (const request of server.requests) {
        const { expected, actual } = signatureOf(request, SECRET_KEY);
        assert.equal(actual, expected);
      }
      assert.equal(new Set(server.requests.map((r) => r.query.signature)).size, 3, 'a new signature per attempt');
    } finally {
      await client.close();
    }
  });

  it('gives up after the configured attempts, waiting a bounded, growing backoff between them', async () => {
    const policy = { attempts: 4, baseDelayMs: 40, maxDelayMs: 100 };
    const client = makeClient(server.baseUrl, { retry: policy });
    try {
      server.respond = (_r, res) => sendJson(res, { code: 0 }, 502);
      const error = await rejection(client.queryVideo({ start: 1, number: 5, sort: 'title', order: 'asc' }));
      assert.ok(error instanceof TransportError);
      assert.equal(error.kind, 'http-status');
      assert.equal(error.status, 502);
      assert.equal(server.requests.length, 4, 'exactly the configured number of attempts');
      // Waits before retries 1, 2, 3 have ceilings 40, 80, 100 (capped) and are at least half of them.
      const ceilings = [40, 80, 100];
      for (let i = 1; i < server.requests.length; i++) {
        const gap = server.requests[i]!.at - server.requests[i - 1]!.at;
        const ceiling = ceilings[i - 1]!;
        assert.ok(gap >= ceiling / 2 - 2, `gap ${i} of ${gap.toFixed(1)} ms is at least ${ceiling / 2} ms`);
        // Generous upper slack: only guards against a missing cap, not a timing claim.
        assert.ok(gap <= ceiling + 1000, `gap ${i} of ${gap.toFixed(1)} ms stays near its ${ceiling} ms ceiling`);
      }
    } finally {
      await client.close();
    }
  });

  it('retries a GET after a connection reset', async () => {
    const client = makeClient(server.baseUrl, { retry: { attempts: 3, baseDelayMs: 5 } });
    try {
      server.respond = (_r, res, req) =>
        server.requests.length === 1 ? req.socket.destroy() : sendJson(res, ok({ id: 'v1' }));
      const video = await client.getVideoInfo('v1');
      assert.equal(video.id, 'v1');
      assert.equal(server.requests.length, 2);
    } finally {
      await client.close();
    }
  });

  it('never retries a POST, whether on 5xx or on a reset', async () => {
    const client = makeClient(server.baseUrl, { retry: { attempts: 5, baseDelayMs: 1 } });
    try {
      server.respond = (_r, res) => sendJson(res, ok(null), 503);
      const status = await rejection(client.liveStartChannel('c1'));
      assert.ok(status instanceof TransportError && status.kind === 'http-status');
      assert.equal(server.requests.length, 1);

      server.respond = (_r, _res, req) => req.socket.destroy();
      const reset = await rejection(client.deleteVideo(['v1']));
      assert.ok(reset instanceof TransportError && reset.kind === 'reset');
      assert.equal(server.requests.length, 2);
    } finally {
      await client.close();
    }
  });

  it('does not retry an ApiError or a 4xx', async () => {
    const client = makeClient(server.baseUrl, { retry: { attempts: 5, baseDelayMs: 1 } });
    try {
      server.respond = (_r, res) => sendJson(res, { code: 10000, message: 'exception', success: false, result: null });
      await rejection(client.getTranscodedVideos(['v1']));
      assert.equal(server.requests.length, 1);
      server.respond = (_r, res) => sendJson(res, ok(null), 400);
      await rejection(client.getTranscodedVideos(['v1']));
      assert.equal(server.requests.length, 2);
    } finally {
      await client.close();
    }
  });

  it('an abort during the backoff wait ends the call at once as "aborted"', async () => {
    const client = makeClient(server.baseUrl, { retry: { attempts: 3, baseDelayMs: 10_000, maxDelayMs: 10_000 } });
    try {
      const controller = new AbortController();
      server.respond = (_r, res) => {
        sendJson(res, ok(null), 503);
        setTimeout(() => controller.abort(), 30);
      };
      const started = performance.now();
      const error = await rejection(client.getLogoGroupList({ signal: controller.signal }));
      assert.ok(error instanceof TransportError);
      assert.equal(error.kind, 'aborted');
      assert.equal(server.requests.length, 1);
      assert.ok(performance.now() - started < 5_000, 'did not sit out the 5-10 s backoff');
    } finally {
      await client.close();
    }
  });

  it('close() during the backoff wait ends the call as "client closed", with no further attempt', async () => {
    const client = makeClient(server.baseUrl, { retry: { attempts: 3, baseDelayMs: 150, maxDelayMs: 150 } });
    server.respond = (_r, res) => {
      sendJson(res, ok(null), 503);
      setTimeout(() => void client.close(), 20);
    };
    const error = await rejection(client.getLogoGroupList());
    assert.ok(error instanceof TransportError, String(error));
    assert.equal(error.kind, 'network');
    assert.match(error.message, /getLogoGroupList: the client for .* has been closed/);
    assert.equal(server.requests.length, 1);
  });

  describe('retryDelayMs', () => {
    const policy = { attempts: 6, baseDelayMs: 100, maxDelayMs: 1000 };

    it('stays within [ceiling/2, ceiling], the ceiling doubling up to the cap', () => {
      const expectedCeilings = [100, 200, 400, 800, 1000, 1000];
      expectedCeilings.forEach((ceiling, index) => {
        const retry = index + 1;
        assert.equal(
          retryDelayMs(retry, policy, () => 0),
          ceiling / 2,
        );
        assert.equal(
          retryDelayMs(retry, policy, () => 0.999999),
          ceiling,
        );
        for (let i = 0; i < 200; i++) {
          const delay = retryDelayMs(retry, policy);
          assert.ok(delay >= ceiling / 2 && delay <= ceiling, `retry ${retry}: ${delay}`);
        }
      });
    });

    it('actually varies (jitter)', () => {
      const delays = new Set(Array.from({ length: 50 }, () => retryDelayMs(3, policy)));
      assert.ok(delays.size > 5, `only ${delays.size} distinct delays`);
    });

    it('retries network failures, resets, cut-off bodies, connect timeouts and 5xx only', () => {
      const error = (
        kind: TransportError['kind'],
        details: { status?: number; phase?: 'connect' | 'headers' | 'body'; retryAfterMs?: number } = {},
      ): TransportError => new TransportError(kind, 'x', 'queryVideo', 'http://127.0.0.1/rest', details);
      assert.ok(isRetryable(error('network')));
      assert.ok(isRetryable(error('reset')));
      assert.ok(isRetryable(error('truncated')));
      assert.ok(isRetryable(error('timeout', { phase: 'connect' })));
      assert.ok(isRetryable(error('http-status', { status: 503 })));
      assert.ok(!isRetryable(error('timeout', { phase: 'headers' })));
      assert.ok(!isRetryable(error('http-status', { status: 404 })));
      assert.ok(!isRetryable(error('aborted')));
      assert.ok(!isRetryable(error('tls')));
      assert.ok(!isRetryable(error('not-json')));
      assert.ok(!isRetryable(error('bad-envelope')));
      assert.ok(!isRetryable(error('too-large')));
      assert.ok(!isRetryable(error('timeout', { phase: 'body' })));
      assert.ok(isRetryable(error('http-status', { status: 503, retryAfterMs: 10_000 })));
      assert.ok(!isRetryable(error('http-status', { status: 503, retryAfterMs: 10_001 })), 'asks for too long a wait');
    });

    it('reads Retry-After as seconds or an HTTP-date; anything else is ignored', () => {
      const now = Date.parse('2026-05-01T12:00:00Z');
      assert.equal(retryAfterMs('7', now), 7000);
      assert.equal(retryAfterMs(' 0 ', now), 0);
      assert.equal(retryAfterMs('Fri, 01 May 2026 12:00:30 GMT', now), 30_000);
      assert.equal(retryAfterMs('Fri, 01 May 2026 11:00:00 GMT', now), 0, 'a date in the past: at once');
      assert.equal(retryAfterMs(undefined, now), undefined);
      assert.equal(retryAfterMs('soon', now), undefined);
      assert.equal(retryAfterMs('-5', now), undefined);
      assert.equal(retryAfterMs(['3', '9'], now), 3000);
    });
  });
});
