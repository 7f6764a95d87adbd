import * as assert from 'node:assert/strict';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import type { PlatformClient } from '../../src/api/client';
import { explainCode } from '../../src/api/errorCodes';
import { ApiError, TransportError, type TransportErrorKind } from '../../src/api/errors';
import { eventually } from '../helpers/eventually';
import { CaptureServer, ok, sendJson } from './captureServer';
import { SECRET_KEY, assertCleanError, makeClient, rejection } from './fixtures';
import { SELF_SIGNED_CERT, SELF_SIGNED_KEY } from './selfSigned';

/** Signatures the server saw, so the test can check none of them reached an error. */
function seenSignatures(server: CaptureServer): string[] {
  return server.requests.map((r) => r.query.signature ?? '').filter(Boolean);
}

function assertTransport(
  error: unknown,
  kind: TransportErrorKind,
  action: string,
  server: CaptureServer,
): asserts error is TransportError {
  assertCleanError(error, action, `${server.baseUrl}/rest`, seenSignatures(server));
  assert.ok(error instanceof TransportError, `expected TransportError, got ${String(error)}`);
  assert.equal(error.kind, kind, error.message);
}

describe('PlatformClient errors', () => {
  let server: CaptureServer;
  let client: PlatformClient;

  beforeEach(async () => {
    server = await CaptureServer.start();
    // Retries off unless a test is about them: each error path is seen once.
    client = makeClient(server.baseUrl, { retry: { attempts: 1 }, timeouts: { headersMs: 300, bodyMs: 300 } });
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  it('a non-zero code becomes an ApiError with the platform message and the explanation from the table', async () => {
    server.respond = (_r, res) =>
      sendJson(res, { code: 10013, message: 'sort_type_is_incorrect', success: false, result: null });
    const error = await rejection(client.queryVideo({ start: 1, number: 10, sort: 'title', order: 'asc' }));
    assertCleanError(error, 'queryVideo', `${server.baseUrl}/rest`, seenSignatures(server));
    assert.ok(error instanceof ApiError);
    assert.equal(error.code, 10013);
    assert.equal(error.platformMessage, 'sort_type_is_incorrect');
    assert.equal(error.explanation, explainCode(10013));
    assert.ok(error.message.includes(error.explanation), error.message);
    assert.ok(error.message.includes('10013'));
  });

  it('an ApiError never carries the signature or the secret, even when the server echoes them in "message"', async () => {
    server.respond = (r, res) =>
      sendJson(res, {
        code: 10000,
        message: `bad request /rest?${r.rawQuery} (key ${SECRET_KEY})`,
        success: false,
        result: null,
      });
    const error = await rejection(client.getLogoGroupList());
    assertCleanError(error, 'getLogoGroupList', `${server.baseUrl}/rest`, seenSignatures(server));
    assert.ok(error instanceof ApiError);
    assert.match(error.platformMessage, /^bad request \/rest\?.*signature=\*\*\* \(key \*\*\*\)$/);
  });

  it('an undocumented code still gets a readable explanation', async () => {
    server.respond = (_r, res) => sendJson(res, { code: 12345, message: 'strange', success: false, result: null });
    const error = await rejection(client.liveStartChannel('c1'));
    assert.ok(error instanceof ApiError);
    assert.match(error.explanation, /12345.*not documented/);
  });

  it('secondTranscodeV2 throws only for a top-level failure (code 10000)', async () => {
    server.respond = (_r, res) => sendJson(res, { code: 10000, message: 'exception', success: false, result: null });
    const error = await rejection(client.secondTranscodeV2({ videoIds: ['v1'], replace: false }));
    assert.ok(error instanceof ApiError);
    assert.equal(error.code, 10000);
  });

  it('a body that is not JSON is "not-json", with an excerpt that hides an echoed signature', async () => {
    server.respond = (r, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><body>Bad gateway for /rest?${r.rawQuery}</body></html>`);
    };
    const error = await rejection(client.getVideoInfo('v1'));
    assertTransport(error, 'not-json', 'getVideoInfo', server);
    assert.match(error.message, /not JSON \("<html><body>Bad gateway/);
  });

  it('an empty body is "not-json"', async () => {
    server.respond = (_r, res) => res.end();
    const error = await rejection(client.liveStopChannel('c1'));
    assertTransport(error, 'not-json', 'liveStopChannel', server);
    assert.match(error.message, /empty body/);
  });

  it('JSON that is not an envelope, or a result of the wrong shape, is "bad-envelope"', async () => {
    server.respond = (_r, res) => sendJson(res, { ok: true });
    assertTransport(await rejection(client.getLogoGroupList()), 'bad-envelope', 'getLogoGroupList', server);
    server.respond = (_r, res) => sendJson(res, [1, 2]);
    assertTransport(await rejection(client.getLogoGroupList()), 'bad-envelope', 'getLogoGroupList', server);
    server.respond = (_r, res) => sendJson(res, { code: '0', success: true, result: [] });
    assertTransport(await rejection(client.getLogoGroupList()), 'bad-envelope', 'getLogoGroupList', server);
    server.respond = (_r, res) => sendJson(res, ok({ not: 'a list' }));
    assertTransport(await rejection(client.getLogoGroupList()), 'bad-envelope', 'getLogoGroupList', server);
    server.respond = (_r, res) => sendJson(res, ok([]));
    assertTransport(await rejection(client.liveGetChannelsByPage()), 'bad-envelope', 'liveGetChannelsByPage', server);
  });

  it('a non-2xx status is "http-status" with the status, even with an envelope in the body', async () => {
    server.respond = (_r, res) => sendJson(res, ok(null), 404);
    const error = await rejection(client.liveDelete(['c1']));
    assertTransport(error, 'http-status', 'liveDelete', server);
    assert.equal(error.status, 404);
    assert.match(error.message, /HTTP 404 Not Found/);
  });

  it('a redirect is "http-status" naming where it leads, without the query string', async () => {
    server.respond = (r, res) => {
      res.writeHead(301, { location: `https://platform.example/v2/rest?${r.rawQuery}`, 'content-length': 0 });
      res.end();
    };
    const error = await rejection(client.liveStartChannel('c1'));
    assertTransport(error, 'http-status', 'liveStartChannel', server);
    assert.equal(error.status, 301);
    assert.match(
      error.message,
      /HTTP 301 Moved Permanently instead of 200: it redirects to https:\/\/platform\.example\/v2\/rest;/,
    );
    assert.equal(server.requests.length, 1, 'the redirect is not followed');
  });

  it('a non-2xx status whose body is cut off is still "http-status" (a 5xx stays retryable)', async () => {
    server.respond = (_r, res) => {
      res.writeHead(503, { 'content-type': 'text/html', 'content-length': 5000 });
      res.write('<html><body>Service Unavailable');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    const error = await rejection(client.getVideoInfo('v1'));
    assertTransport(error, 'http-status', 'getVideoInfo', server);
    assert.equal(error.status, 503);
  });

  it('a body cut off before Content-Length is reached is "truncated"', async () => {
    server.respond = (_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 500 });
      res.write('{"code":0,"message":"success","success":true,"result":[');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    const error = await rejection(client.queryVideo({ start: 1, number: 10, sort: 'title', order: 'asc' }));
    assertTransport(error, 'truncated', 'queryVideo', server);
    assert.match(error.message, /cut off/);
  });

  it('a connection closed before any answer is "reset"', async () => {
    server.respond = (_r, _res, req) => req.socket.destroy();
    assertTransport(await rejection(client.liveStartChannel('c1')), 'reset', 'liveStartChannel', server);
  });

  it('a POST without a complete answer warns that it may have been carried out; a GET does not', async () => {
    server.respond = (_r, _res, req) => req.socket.destroy();
    const post = await rejection(client.liveCreateChannel({ name: 'n', signalType: '1', outputGroupList: [] }));
    assertTransport(post, 'reset', 'liveCreateChannel', server);
    assert.match(post.message, /may still have been carried out, so check before trying it again/);
    const get = await rejection(client.liveGetChannelById('c1'));
    assertTransport(get, 'reset', 'liveGetChannelById', server);
    assert.doesNotMatch(get.message, /carried out/);
    server.respond = (_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 500 });
      res.write('{"code":0,');
    };
    const stalled = await rejection(client.liveStopChannel('c1'));
    assertTransport(stalled, 'timeout', 'liveStopChannel', server);
    assert.match(stalled.message, /may still have been carried out/);
  });

  it('a TCP reset (RST) before any answer is "reset"', async () => {
    server.respond = (_r, _res, req) => req.socket.resetAndDestroy();
    assertTransport(await rejection(client.liveStartChannel('c1')), 'reset', 'liveStartChannel', server);
  });

  it('no response headers in time is a "timeout" in the headers phase, not retried', async () => {
    const retrying = makeClient(server.baseUrl, {
      timeouts: { headersMs: 150 },
      retry: { attempts: 3, baseDelayMs: 1 },
    });
    try {
      server.respond = () => undefined; // never answers
      const error = await rejection(retrying.liveGetChannelById('c1'));
      assertTransport(error, 'timeout', 'liveGetChannelById', server);
      assert.equal(error.phase, 'headers');
      assert.match(error.message, /did not answer within 0\.15 s/);
      assert.equal(server.requests.length, 1);
    } finally {
      await retrying.close();
    }
  });

  it('a body that stalls is a "timeout" in the body phase', async () => {
    server.respond = (_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 500 });
      res.write('{"code":0,');
    };
    const error = await rejection(client.getVideoInfo('v1'));
    assertTransport(error, 'timeout', 'getVideoInfo', server);
    assert.equal(error.phase, 'body');
  });

  it('an abort before the call sends nothing and is "aborted"', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(client.liveStartChannel('c1', { signal: controller.signal }));
    assertTransport(error, 'aborted', 'liveStartChannel', server);
    assert.equal(server.requests.length, 0);
  });

  it('an abort while waiting for the answer is "aborted", and a GET is not retried after it', async () => {
    const patient = makeClient(server.baseUrl, {
      timeouts: { headersMs: 10_000 },
      retry: { attempts: 3, baseDelayMs: 1 },
    });
    try {
      const controller = new AbortController();
      server.respond = () => setTimeout(() => controller.abort(), 10);
      const error = await rejection(patient.liveGetChannelById('c1', { signal: controller.signal }));
      assertTransport(error, 'aborted', 'liveGetChannelById', server);
      assert.equal(server.requests.length, 1);
    } finally {
      await patient.close();
    }
  });

  it('an abort while the body arrives is "aborted"', async () => {
    const controller = new AbortController();
    server.respond = (_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 500 });
      res.write('{"code":0,');
      setTimeout(() => controller.abort(), 20);
    };
    const error = await rejection(client.getVideoInfo('v1', { signal: controller.signal }));
    assertTransport(error, 'aborted', 'getVideoInfo', server);
  });

  it('an abort while the call waits for a free connection is "aborted" at once, and it is never sent', async () => {
    // Eight connections (the transport's default), all held by calls the server has not answered yet.
    const patient = makeClient(server.baseUrl, { retry: { attempts: 1 }, timeouts: { headersMs: 10_000 } });
    try {
      const held: Array<() => void> = [];
      server.respond = (_r, res) => held.push(() => sendJson(res, ok({ id: 'v' })));
      const busy = Array.from({ length: 8 }, () => patient.getVideoInfo('v1'));
      await eventually('the eight calls to reach the server', () => server.requests.length >= 8);
      const controller = new AbortController();
      const queued = rejection(patient.getVideoInfo('v2', { signal: controller.signal }));
      controller.abort();
      const error = await queued;
      assertTransport(error, 'aborted', 'getVideoInfo', server);
      for (const answer of held) answer();
      await Promise.all(busy);
      // The next call is the ninth request: the aborted one left the queue without being sent.
      server.respond = (_r, res) => sendJson(res, ok({ id: 'v' }));
      await patient.getVideoInfo('v3');
      assert.deepEqual(
        server.requests.map((r) => r.query.videoId),
        ['v1', 'v1', 'v1', 'v1', 'v1', 'v1', 'v1', 'v1', 'v3'],
      );
    } finally {
      await patient.close();
    }
  });

  it('an answer that starts with a UTF-8 byte order mark is read as the envelope after it', async () => {
    server.respond = (_r, res) => {
      const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(ok({ id: 'v1' })))]);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    };
    assert.equal((await client.getVideoInfo('v1')).id, 'v1');
  });

  it('a non-2xx answer with a huge error page is "http-status", read no further than 128 KiB', async () => {
    let sent = 0;
    server.respond = (_r, res) => {
      res.writeHead(502, { 'content-type': 'text/html', 'content-length': 64 * 1024 * 1024 });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = (): void => {
        while (!res.destroyed && sent < 64 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      pump();
    };
    const once = makeClient(server.baseUrl, { retry: { attempts: 1 } });
    try {
      const error = await rejection(once.getVideoInfo('v1'));
      assertTransport(error, 'http-status', 'getVideoInfo', server);
      assert.equal(error.status, 502);
      assert.ok(sent < 16 * 1024 * 1024, `the server got to write ${sent} bytes`);
    } finally {
      await once.close();
    }
  });

  it('a refused connection is "network" and says so', async () => {
    const gone = await CaptureServer.start();
    const url = gone.baseUrl;
    await gone.close();
    const orphan = makeClient(url, { retry: { attempts: 1 } });
    try {
      const error = await rejection(orphan.getLogoGroupList());
      assertCleanError(error, 'getLogoGroupList', `${url}/rest`);
      assert.ok(error instanceof TransportError);
      assert.equal(error.kind, 'network');
      assert.match(error.message, /refused/);
    } finally {
      await orphan.close();
    }
  });

  it('an answer that is not HTTP at all is "network"', async () => {
    const garbage: TcpServer = createTcpServer((socket) =>
      socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n')),
    );
    await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}`;
    const confused = makeClient(url, { retry: { attempts: 1 } });
    try {
      const error = await rejection(confused.getLogoGroupList());
      assertCleanError(error, 'getLogoGroupList', `${url}/rest`);
      assert.ok(error instanceof TransportError);
      assert.equal(error.kind, 'network');
      assert.match(error.message, /did not answer in HTTP/);
    } finally {
      await confused.close();
      await new Promise<void>((resolve) => garbage.close(() => resolve()));
    }
  });

  it('a refused TLS certificate is "tls", says so, and is not retried', async () => {
    let handshakes = 0;
    const tls = createHttpsServer({ key: SELF_SIGNED_KEY, cert: SELF_SIGNED_CERT }, (_req, res) => res.end('{}'));
    tls.on('secureConnection', () => handshakes++);
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
    const attempts: number[] = [];
    const strict = makeClient(url, {
      retry: { attempts: 3, baseDelayMs: 1 },
      onRequest: (entry) => attempts.push(entry.attempt),
    });
    try {
      const error = await rejection(strict.getLogoGroupList());
      assertCleanError(error, 'getLogoGroupList', `${url}/rest`);
      assert.ok(error instanceof TransportError);
      assert.equal(error.kind, 'tls', error.message);
      assert.match(error.message, /TLS certificate of .* was not accepted \([A-Z_]+: .*certificate/);
      assert.deepEqual(attempts, [1], 'a GET is not retried when the certificate is refused');
      assert.equal(handshakes, 0);
    } finally {
      await strict.close();
      tls.closeAllConnections();
      await new Promise<void>((resolve) => tls.close(() => resolve()));
    }
  });

  it('https:// to a plain-HTTP server is "tls" and suggests http://', async () => {
    const url = server.baseUrl.replace('http://', 'https://');
    const confused = makeClient(url, { retry: { attempts: 1 } });
    try {
      const error = await rejection(confused.getLogoGroupList());
      assertCleanError(error, 'getLogoGroupList', `${url}/rest`);
      assert.ok(error instanceof TransportError);
      assert.equal(error.kind, 'tls', error.message);
      assert.match(error.message, /does not speak HTTPS there \(should the address start with http:\/\/\?\)/);
    } finally {
      await confused.close();
    }
  });

  it('a closed client refuses further calls with a clear error', async () => {
    await client.close();
    const error = await rejection(client.getLogoGroupList());
    assertTransport(error, 'network', 'getLogoGroupList', server);
    assert.match(error.message, /has been closed/);
    await client.close(); // idempotent
  });
});
