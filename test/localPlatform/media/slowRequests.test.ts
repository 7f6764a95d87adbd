/**
 * Request time limits: an upload on a slow line goes on as long as it keeps sending (no whole-request limit),
 * while a `/rest` body that does not arrive in time gets HTTP 408 and a silent connection is closed. The limits
 * are shortened here (bodyTimeoutMs, idleTimeoutMs) so that the test takes seconds, not minutes.
 */
import * as assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:net';
import type { MediaTools } from '../../../src/media/tools';
import { removeDir, tempDir, TestPlatform } from '../harness';
import { makeClip, mediaTools, type UploadAnswer } from './helpers';

// Long enough that a loaded machine's stalls (seen up to about a second at load 13 to 19) stay well inside the gaps
// between the slow upload's pieces (a fifth of it), short enough that the file takes seconds.
const LIMIT_MS = 2_000;

describe('local platform: request time limits', function () {
  this.timeout(60_000);
  let tools: MediaTools;
  let clipDir: string;
  let clip: string;
  let tp: TestPlatform;

  before(async function () {
    const found = await mediaTools();
    if (!found) this.skip();
    tools = found;
    clipDir = await tempDir();
    clip = await makeClip(tools, clipDir, 'slow.mp4', 2, 160, 90);
    tp = await TestPlatform.start({
      media: { npmFallback: true },
      bodyTimeoutMs: LIMIT_MS,
      idleTimeoutMs: LIMIT_MS,
    });
  });
  after(async () => {
    await tp?.close();
    await removeDir(clipDir);
  });

  it('takes an upload that lasts several times the limits while it keeps sending', async () => {
    const token = (await tp.client().getToken()).accessToken;
    const boundary = 'slowuploadboundary';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${token}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="isTranscoder"\r\n\r\n0\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
      ),
      await readFile(clip),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const started = Date.now();
    const answer = await new Promise<UploadAnswer>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: tp.platform.port,
          method: 'POST',
          path: '/multipart/upload',
          headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': body.length },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve(JSON.parse(text) as UploadAnswer));
        },
      );
      req.on('error', reject);
      // Ten pieces, a fifth of the limit apart: about three times the limits in all.
      const pieces = 10;
      let sent = 0;
      const next = (): void => {
        const end = Math.round(((sent + 1) * body.length) / pieces);
        req.write(body.subarray(Math.round((sent * body.length) / pieces), end));
        sent++;
        if (sent < pieces) setTimeout(next, LIMIT_MS / 5);
        else req.end();
      };
      next();
    });
    assert.ok(Date.now() - started > 1.5 * LIMIT_MS, 'the upload lasted longer than the limits');
    assert.equal(answer.code, 0, answer.message);
    assert.equal(answer.result?.[0]?.fileName, 'slow.mp4');
  });

  it('answers a /rest body that does not arrive in time with HTTP 408, naming the limit', async () => {
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: tp.platform.port,
          method: 'POST',
          path: '/rest?action=liveCreateChannel',
          headers: { 'Content-Type': 'application/json', 'Content-Length': 1000 },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: body }));
        },
      );
      req.on('error', reject);
      // A start of the body, then nothing more while the connection stays open.
      req.write('{"name":');
    });
    assert.equal(status, 408);
    assert.match(text, /the request body did not arrive within 2 s/);
  });

  it('closes a kept-alive connection whose second request, an upload, goes silent mid-body', async () => {
    const token = (await tp.client().getToken()).accessToken;
    const boundary = 'stalledboundary';
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${token}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="stalled.mp4"\r\nContent-Type: video/mp4\r\n\r\n`;
    const host = `Host: 127.0.0.1:${tp.platform.port}\r\n`;
    const outcome = await new Promise<string>((resolve, reject) => {
      const started = Date.now();
      const socket = connect(tp.platform.port, '127.0.0.1');
      let text = '';
      socket.on('error', reject);
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        // The first answer (a refusal, written at once) is in: the same connection sends an upload and stalls.
        if (/^HTTP\/1\.1 \d{3}[\s\S]*\r\n\r\n\{[^]*\}$/.test(text) && !socket.readableEnded) {
          text = '';
          socket.write(
            `POST /multipart/upload HTTP/1.1\r\n${host}Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
              `Content-Length: 1000000\r\n\r\n${head}`,
          );
        }
      });
      socket.on('close', () => resolve(`closed after ${Date.now() - started} ms`));
      setTimeout(() => {
        socket.destroy();
        resolve('still open after 10 s');
      }, 10_000).unref();
      // A GET without its signature: refused with the envelope at once, the connection kept alive.
      socket.write(`GET /rest?action=liveChannelTypeList HTTP/1.1\r\n${host}\r\n`);
    });
    assert.match(outcome, /^closed after/);
  });

  it('closes a connection that stays silent after connecting', async () => {
    const closedAfter = await new Promise<number>((resolve, reject) => {
      const started = Date.now();
      const socket = connect(tp.platform.port, '127.0.0.1');
      socket.on('error', reject);
      socket.on('close', () => resolve(Date.now() - started));
      // Headers that never end: the idle limit (shorter here than headersTimeout) closes it.
      socket.write('POST /rest HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    });
    // Well before headersTimeout (30 s) would have closed it.
    assert.ok(closedAfter < 10_000, `closed after ${closedAfter} ms`);
  });
});
