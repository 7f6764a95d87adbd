import * as assert from 'node:assert/strict';
import type { RequestLogEntry } from '../../src/api/client';
import { TransportError } from '../../src/api/errors';
import { CaptureServer, ok, sendJson } from './captureServer';
import { ACCESS_KEY, SECRET_KEY, makeClient, rejection } from './fixtures';

describe('PlatformClient onRequest log', () => {
  let server: CaptureServer;

  beforeEach(async () => {
    server = await CaptureServer.start();
  });
  afterEach(async () => {
    await server.close();
  });

  it('logs an answer whose result has the wrong shape once, as the code it carried, and does not send it again', async () => {
    // The method's reading of the result runs inside the attempt's function (no await between them), yet
    // what it throws is no failure of the attempt: neither a second log entry nor a retry.
    const entries: RequestLogEntry[] = [];
    const client = makeClient(server.baseUrl, {
      retry: { attempts: 3, baseDelayMs: 1 },
      onRequest: (entry) => entries.push(entry),
    });
    try {
      server.respond = (r, res) => sendJson(res, ok(r.query.action === 'queryVideo' ? { not: 'a list' } : 'no record'));
      for (const call of [
        () => client.queryVideo({ start: 1, number: 5, sort: 'title', order: 'asc' }),
        () => client.getVideoInfo('v'),
        () => client.liveGetChannelsByPage(),
      ]) {
        const error = await rejection(call());
        assert.ok(error instanceof TransportError, String(error));
        assert.equal(error.kind, 'bad-envelope');
      }
    } finally {
      await client.close();
    }
    assert.deepEqual(
      entries.map((entry) => [entry.action, entry.attempt, entry.code, entry.error]),
      [
        ['queryVideo', 1, 0, undefined],
        ['getVideoInfo', 1, 0, undefined],
        ['liveGetChannelsByPage', 1, 0, undefined],
      ],
    );
    assert.equal(server.requests.length, 3);
  });

  it('reports each attempt with action, method, masked parameters, duration and code or error kind', async () => {
    const entries: RequestLogEntry[] = [];
    const client = makeClient(server.baseUrl, {
      retry: { attempts: 2, baseDelayMs: 1 },
      onRequest: (entry) => entries.push(entry),
    });
    try {
      server.respond = (r, res) => {
        if (
          r.query.action === 'queryVideo' &&
          server.requests.filter((x) => x.query.action === 'queryVideo').length === 1
        )
          sendJson(res, ok(null), 503);
        else if (r.query.action === 'liveStartChannel')
          sendJson(res, { code: 10907, message: 'channel_not_exists', success: false, result: null });
        else sendJson(res, ok(r.query.action === 'liveCreateChannel' ? { id: 'c' } : []));
      };
      await client.queryVideo({
        start: 1,
        number: 5,
        sort: 'title',
        order: 'asc',
        keyword: `has ${SECRET_KEY} inside`,
      });
      await rejection(client.liveStartChannel('c1'));
      await client.liveCreateChannel({ name: 'n', signalType: '1', outputGroupList: [] });
    } finally {
      await client.close();
    }

    assert.equal(entries.length, 4);
    const [failed, retried, apiError, created] = entries as [
      RequestLogEntry,
      RequestLogEntry,
      RequestLogEntry,
      RequestLogEntry,
    ];
    assert.equal(failed.action, 'queryVideo');
    assert.equal(failed.method, 'GET');
    assert.equal(failed.attempt, 1);
    assert.equal(failed.error, 'http-status');
    assert.equal(failed.status, 503);
    assert.equal(retried.attempt, 2);
    assert.equal(retried.code, 0);
    assert.equal(retried.error, undefined);
    assert.equal(retried.params.sort, 'title');
    assert.equal(retried.params.signature, '***');
    assert.equal(retried.params.keyword, '***', 'a value holding the secret is masked');
    assert.notEqual(retried.params.accessKey, ACCESS_KEY, 'the access key is shortened');
    assert.ok(ACCESS_KEY.startsWith(retried.params.accessKey!.replace('…', '')));
    assert.equal(retried.url, `${server.baseUrl}/rest`);
    for (const entry of entries) assert.ok(entry.durationMs >= 0 && Number.isFinite(entry.durationMs));

    assert.equal(apiError.method, 'POST');
    assert.equal(apiError.code, 10907);
    assert.equal(created.bodyBytes, Buffer.byteLength(server.last.body));

    const text = JSON.stringify(entries);
    assert.ok(!text.includes(SECRET_KEY), 'the secret never reaches the log');
    for (const request of server.requests)
      assert.ok(!text.includes(request.query.signature!), 'no signature in the log');
  });

  it('a logger that throws does not break the call', async () => {
    const client = makeClient(server.baseUrl, {
      onRequest: () => {
        throw new Error('logger broke');
      },
    });
    try {
      server.respond = (_r, res) => sendJson(res, ok([]));
      assert.deepEqual(await client.getLogoGroupList(), []);
    } finally {
      await client.close();
    }
  });
});
