/**
 * Servers that misbehave in ways a timeout on silence, an unbounded read or a literal match miss:
 * a trickling answer, a huge answer, oversized headers, echoed signatures in another letter case,
 * and a 503 that asks to come back later.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { inspect } from 'node:util';
import type { RequestLogEntry } from '../../src/api/client';
import { ApiError, TransportError } from '../../src/api/errors';
import { CaptureServer, ok, sendJson } from './captureServer';
import { makeClient, rejection } from './fixtures';

const ROOT = join(__dirname, '..', '..');

const MAY_HAVE_HAPPENED = /the operation may still have been carried out, so check before trying it again/;

/** Writes `total` bytes in 64 KiB chunks, respecting backpressure, until done or the client hangs up. */
function stream(res: ServerResponse, total: number, sent: { bytes: number }): void {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const pump = (): void => {
    while (sent.bytes < total && !res.destroyed) {
      sent.bytes += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

describe('PlatformClient against misbehaving servers', () => {
  let server: CaptureServer;

  beforeEach(async () => {
    server = await CaptureServer.start();
  });
  afterEach(async () => {
    await server.close();
  });

  describe('an answer that trickles in', () => {
    /** Headers at once, then one blank every 100 ms for 4 s, then a valid envelope. */
    function trickle(res: ServerResponse): void {
      res.writeHead(200, { 'content-type': 'application/json' });
      let ticks = 0;
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        if (++ticks < 40) return void res.write(' ');
        clearInterval(timer);
        res.end(JSON.stringify(ok({ id: 'v' })));
      }, 100);
    }

    it('ends at the deadline for the whole answer, naming the action and the time', async () => {
      const client = makeClient(server.baseUrl, { retry: { attempts: 1 }, timeouts: { headersMs: 2000, bodyMs: 600 } });
      try {
        server.respond = (_r, res) => trickle(res);
        const error = await rejection(client.getVideoInfo('v'));
        assert.ok(error instanceof TransportError, String(error));
        assert.equal(error.kind, 'timeout');
        assert.equal(error.phase, 'body');
        assert.match(error.message, /^getVideoInfo: .* did not send its whole answer within 0\.6 s/);
        assert.doesNotMatch(error.message, /carried out/);

        const post = await rejection(client.liveStopChannel('c'));
        assert.ok(post instanceof TransportError, String(post));
        assert.match(post.message, /^liveStopChannel: .* within 0\.6 s .*/);
        assert.match(post.message, MAY_HAVE_HAPPENED);
      } finally {
        await client.close();
      }
    });
    it('ends each trickling answer at its own deadline, while quick answers beside them arrive', async () => {
      const client = makeClient(server.baseUrl, { retry: { attempts: 1 }, timeouts: { headersMs: 2000, bodyMs: 600 } });
      try {
        server.respond = (request, res) =>
          request.query.videoId?.startsWith('slow') ? trickle(res) : sendJson(res, ok({ id: request.query.videoId }));
        const first = rejection(client.getVideoInfo('slow-1'));
        const quick = await Promise.all([client.getVideoInfo('a'), client.getVideoInfo('b')]);
        const second = rejection(client.getVideoInfo('slow-2'));
        const later = await client.getVideoInfo('c');
        assert.deepEqual(
          [...quick, later].map((video) => video.id),
          ['a', 'b', 'c'],
        );
        for (const error of await Promise.all([first, second])) {
          assert.ok(error instanceof TransportError, String(error));
          assert.equal(error.phase, 'body');
          assert.match(error.message, /^getVideoInfo: .* did not send its whole answer within 0\.6 s/);
        }
      } finally {
        await client.close();
      }
    });
  });

  describe('the deadline timer', () => {
    it('ends a trickling answer that starts after quick answers have ended, their deadline still to come', async () => {
      // The transport's one timer stays set for the quick answer's deadline after it ends; when it fires
      // it must find the trickling answer and be set again for its deadline.
      const client = makeClient(server.baseUrl, { retry: { attempts: 1 }, timeouts: { headersMs: 2000, bodyMs: 600 } });
      try {
        server.respond = (request, res) => {
          if (request.query.videoId !== 'slow') return sendJson(res, ok({ id: request.query.videoId }));
          res.writeHead(200, { 'content-type': 'application/json' });
          const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 100);
        };
        assert.equal((await client.getVideoInfo('quick')).id, 'quick');
        await new Promise((resolve) => setTimeout(resolve, 300));
        const error = await rejection(client.getVideoInfo('slow'));
        assert.ok(error instanceof TransportError, String(error));
        assert.equal(error.phase, 'body');
        assert.match(error.message, /^getVideoInfo: .* did not send its whole answer within 0\.6 s/);
      } finally {
        await client.close();
      }
    });

    it('is set once for many calls one after another, not set and cleared per call', async () => {
      const bodyMs = 45_678;
      const client = makeClient(server.baseUrl, { timeouts: { bodyMs } });
      server.respond = (request, res) => sendJson(res, ok({ id: request.query.videoId }));
      const setTimer = globalThis.setTimeout;
      let deadlineTimers = 0;
      // Counts the timers set for about the answer deadline (nothing else here waits that long).
      globalThis.setTimeout = ((...args: unknown[]) => {
        const ms = args[1];
        if (typeof ms === 'number' && ms > bodyMs - 5000 && ms <= bodyMs) deadlineTimers++;
        return Reflect.apply(setTimer, globalThis, args) as unknown;
      }) as typeof setTimeout;
      try {
        for (let i = 0; i < 20; i++) await client.getVideoInfo(`v${i}`);
      } finally {
        globalThis.setTimeout = setTimer;
        await client.close();
      }
      assert.equal(deadlineTimers, 1);
    });

    it('keeps no process alive: one that calls and never closes its client exits', async () => {
      // The timer stays set after the last answer, for up to the answer deadline (here 60 s).
      server.respond = (request, res) => sendJson(res, ok({ id: request.query.videoId }));
      const script = [
        "const { PlatformClient } = require('./src/api/client');",
        `const client = new PlatformClient({ baseUrl: ${JSON.stringify(server.baseUrl)}, accessKey: 'a', secretKey: 's', timeouts: { bodyMs: 60000 } });`,
        "client.getVideoInfo('v').then((video) => console.log(video.id));",
      ].join('\n');
      const child = spawn(process.execPath, ['-r', 'tsx/cjs', '-e', script], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const killer = setTimeout(() => child.kill(), 20_000);
      const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
      clearTimeout(killer);
      assert.equal(signal, null, 'the process was still running 20 s after its call and had to be killed');
      assert.equal(code, 0);
      assert.equal(output.trim(), 'v');
    });
  });

  describe('an answer too large to read', () => {
    const HUNDRED_MB = 100 * 1024 * 1024;

    it('stops reading a 100 MB answer at the default limit (16 MiB) and hangs up', async () => {
      const sent = { bytes: 0 };
      let closed!: Promise<void>;
      server.respond = (_r, res) => {
        closed = new Promise((resolve) => res.once('close', resolve));
        res.writeHead(200, { 'content-type': 'application/json' }); // chunked: no length announced
        stream(res, HUNDRED_MB, sent);
      };
      const client = makeClient(server.baseUrl, { retry: { attempts: 1 } });
      try {
        const error = await rejection(client.getTranscodedVideos(['v']));
        assert.ok(error instanceof TransportError, String(error));
        assert.equal(error.kind, 'too-large');
        assert.match(
          error.message,
          /^getTranscodedVideos: the answer from .* is larger than 16 MiB \(maxAnswerBytes\)/,
        );
        await closed;
        assert.ok(sent.bytes < HUNDRED_MB / 2, `the server sent ${sent.bytes} bytes before the client hung up`);
      } finally {
        await client.close();
      }
    });

    it('refuses an announced Content-Length above maxAnswerBytes without reading it; a POST may have happened', async () => {
      const sent = { bytes: 0 };
      server.respond = (_r, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': HUNDRED_MB });
        stream(res, HUNDRED_MB, sent);
      };
      const client = makeClient(server.baseUrl, { retry: { attempts: 1 }, maxAnswerBytes: 64 * 1024 });
      try {
        const error = await rejection(client.liveStartChannel('c'));
        assert.ok(error instanceof TransportError, String(error));
        assert.equal(error.kind, 'too-large');
        assert.match(error.message, /is larger than 64 KiB \(maxAnswerBytes\)/);
        assert.match(error.message, MAY_HAVE_HAPPENED);
      } finally {
        await client.close();
      }
    });

    it('reads an answer of exactly maxAnswerBytes', async () => {
      const body = JSON.stringify(ok([{ id: 'g' }]));
      server.respond = (_r, res) => sendJson(res, JSON.parse(body));
      const client = makeClient(server.baseUrl, { maxAnswerBytes: Buffer.byteLength(body) });
      try {
        assert.deepEqual(await client.getLogoGroupList(), [{ id: 'g' }]);
      } finally {
        await client.close();
      }
    });

    it('refuses a maxAnswerBytes that is not a whole number of bytes', () => {
      for (const bad of [0, -1, 1.5, '16MB'])
        assert.throws(
          () => makeClient(server.baseUrl, { maxAnswerBytes: bad as never }),
          /option maxAnswerBytes must be/,
        );
    });
  });

  describe('a POST that may have reached the server', () => {
    let client: ReturnType<typeof makeClient>;
    beforeEach(() => {
      client = makeClient(server.baseUrl, { retry: { attempts: 1 } });
    });
    afterEach(async () => {
      await client.close();
    });

    it('says it may have been carried out after a 5xx, not after a 4xx; a GET never says it', async () => {
      server.respond = (_r, res) => sendJson(res, { error: 'boom' }, 500);
      const post = await rejection(client.liveStartChannel('c'));
      assert.ok(post instanceof TransportError);
      assert.equal(post.status, 500);
      assert.match(post.message, MAY_HAVE_HAPPENED);
      const get = await rejection(client.liveGetChannelById('c'));
      assert.doesNotMatch(String((get as Error).message), /carried out/);
      server.respond = (_r, res) => sendJson(res, { error: 'no' }, 404);
      const notFound = await rejection(client.liveStartChannel('c'));
      assert.doesNotMatch(String((notFound as Error).message), /carried out/);
    });

    it('says it after a garbled answer (not JSON, not an envelope, a wrong result)', async () => {
      const answers: Array<(res: ServerResponse) => void> = [
        (res) => res.end('<html>oops</html>'),
        (res) => sendJson(res, { ok: true }),
        (res) => sendJson(res, ok('not a channel')),
      ];
      for (const answer of answers) {
        server.respond = (_r, res) => answer(res);
        const error = await rejection(client.liveCreateChannel({ name: 'n', signalType: '1', outputGroupList: [] }));
        assert.ok(error instanceof TransportError, String(error));
        assert.match(error.message, MAY_HAVE_HAPPENED);
      }
    });

    it('says it after headers too large to read, and does not call that "could not reach"', async () => {
      server.respond = (_r, res) => {
        res.setHeader('x-padding', 'p'.repeat(64 * 1024));
        sendJson(res, ok(null));
      };
      const error = await rejection(client.liveDelete(['c']));
      assert.ok(error instanceof TransportError, String(error));
      assert.equal(error.kind, 'too-large');
      assert.match(error.message, /^liveDelete: .* answered with headers larger than \d+ KiB/);
      assert.match(error.message, MAY_HAVE_HAPPENED);
      assert.doesNotMatch(error.message, /could not reach/);
    });
  });

  describe('an echoed signature in another letter case', () => {
    it('never reaches an error message or a log entry', async () => {
      const entries: RequestLogEntry[] = [];
      const client = makeClient(server.baseUrl, { retry: { attempts: 1 }, onRequest: (e) => entries.push(e) });
      const seen: string[] = [];
      try {
        server.respond = (r, res) => {
          seen.push(r.query.signature!);
          sendJson(res, {
            code: 10000,
            message: `rejected ${r.query.signature!.toUpperCase()}`,
            success: false,
            result: null,
          });
        };
        const apiError = await rejection(client.getLogoGroupList());
        assert.ok(apiError instanceof ApiError, String(apiError));
        assert.equal(apiError.platformMessage, 'rejected ***');

        server.respond = (r, res) => {
          seen.push(r.query.signature!);
          res.end(`Bad Gateway for signature=${r.query.signature!.toUpperCase()}`);
        };
        const notJson = await rejection(client.getLogoGroupList());
        assert.ok(notJson instanceof TransportError, String(notJson));

        const hexKeyword = 'AB'.repeat(32);
        server.respond = (_r, res) => sendJson(res, ok([]));
        await client.queryVideo({ start: 1, number: 1, sort: 'title', order: 'asc', keyword: `find ${hexKeyword}` });
        assert.equal(entries.at(-1)?.params.keyword, 'find ***');

        const everything = [apiError, notJson]
          .map((e) => `${(e as Error).message}\n${inspect(e, { depth: 8, showHidden: true })}`)
          .concat(entries.map((e) => JSON.stringify(e)))
          .join('\n')
          .toLowerCase();
        for (const signature of seen) assert.ok(!everything.includes(signature), 'a signature leaked');
        assert.ok(!everything.includes(hexKeyword.toLowerCase()));
      } finally {
        await client.close();
      }
    });
  });

  describe('a 503 with Retry-After', () => {
    function unavailableOnce(retryAfter: string): void {
      server.respond = (_r, res) => {
        if (server.requests.length === 1) {
          res.writeHead(503, { 'retry-after': retryAfter, 'content-length': 0 });
          res.end();
        } else sendJson(res, ok([{ id: 'g' }]));
      };
    }

    it('waits the seconds it asks for before retrying a GET', async () => {
      unavailableOnce('1');
      const client = makeClient(server.baseUrl, { retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 } });
      try {
        assert.deepEqual(await client.getLogoGroupList(), [{ id: 'g' }]);
        const [first, second] = server.requests;
        assert.ok(second!.at - first!.at >= 990, `retried after ${Math.round(second!.at - first!.at)} ms`);
      } finally {
        await client.close();
      }
    });

    it('waits until the HTTP-date it gives', async () => {
      unavailableOnce(new Date(Date.now() + 2000).toUTCString()); // whole seconds: 1 to 2 s from now
      const client = makeClient(server.baseUrl, { retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 } });
      try {
        assert.deepEqual(await client.getLogoGroupList(), [{ id: 'g' }]);
        const [first, second] = server.requests;
        assert.ok(second!.at - first!.at >= 900, `retried after ${Math.round(second!.at - first!.at)} ms`);
      } finally {
        await client.close();
      }
    });

    it('gives up at once when it asks for more than 10 s, saying how long it asked for', async () => {
      unavailableOnce('3600');
      const client = makeClient(server.baseUrl, { retry: { attempts: 3, baseDelayMs: 1 } });
      try {
        const error = await rejection(client.getLogoGroupList());
        assert.ok(error instanceof TransportError, String(error));
        assert.equal(error.status, 503);
        assert.match(
          error.message,
          /HTTP 503 Service Unavailable instead of 200 \(it asks to try again after 3600 s\)/,
        );
        assert.equal(server.requests.length, 1);
      } finally {
        await client.close();
      }
    });

    it('still never retries a POST', async () => {
      unavailableOnce('1');
      const client = makeClient(server.baseUrl, { retry: { attempts: 3, baseDelayMs: 1 } });
      try {
        const error = await rejection(client.liveStopChannel('c'));
        assert.ok(error instanceof TransportError, String(error));
        assert.match(error.message, MAY_HAVE_HAPPENED);
        assert.equal(server.requests.length, 1);
      } finally {
        await client.close();
      }
    });
  });
});
