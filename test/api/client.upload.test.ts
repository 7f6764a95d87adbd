/**
 * PlatformClient.uploadVideo (facts section 6): every documented field reaches the local platform,
 * which probes the real file (ffmpeg); the file is read from disk as the connection takes it, with
 * progress, and a cancel stops it; the envelope is checked; an upload is never retried; the upload
 * base URL may name another host. Small generated clips, real HTTP on 127.0.0.1.
 */
import * as assert from 'node:assert/strict';
import { once } from 'node:events';
import { open, stat, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PlatformClient, type RequestLogEntry } from '../../src/api/client';
import { Codes } from '../../src/api/errorCodes';
import { ApiError, InvalidInputError, TransportError } from '../../src/api/errors';
import type { UploadProgress } from '../../src/api/types';
import type { MediaTools } from '../../src/media/tools';
import { eventually } from '../helpers/eventually';
import { ACCOUNT, removeDir, tempDir, TestPlatform } from '../localPlatform/harness';
import { makeClip, mediaTools } from '../localPlatform/media/helpers';
import { CaptureServer, ok, sendJson } from './captureServer';
import { makeClient, rejection } from './fixtures';

/** A multipart body's parts as the test reads them (names, file names, text values). */
function parts(body: string, contentType: string | undefined): Array<{ headers: string; value: string }> {
  const boundary = /boundary=(.+)$/.exec(contentType ?? '')?.[1];
  assert.ok(boundary, `a multipart content type: ${contentType}`);
  return body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const split = part.indexOf('\r\n\r\n');
      return { headers: part.slice(2, split), value: part.slice(split + 4, -2) };
    });
}

describe('PlatformClient.uploadVideo', function () {
  this.timeout(120_000);
  let tools: MediaTools;
  let dir: string;
  let clip: string;
  let dataDir: string;
  let tp: TestPlatform;
  let client: PlatformClient;
  let groupId: number;

  before(async function () {
    const found = await mediaTools();
    if (!found) this.skip();
    tools = found;
    dir = await tempDir();
    clip = await makeClip(tools, dir, 'clip.mp4', 2, 320, 180);
    // The demo data (its video categories) seeded without media, so no demo clips are made in the background.
    dataDir = await tempDir();
    await (await TestPlatform.start({ demo: true }, dataDir)).close();
    tp = await TestPlatform.start({ media: { npmFallback: true } }, dataDir);
    client = tp.client();
    groupId = await client.templateGroup({
      name: 'upload test group',
      type: 0,
      trailor: false,
      trailorDuration: 0,
      logoGroupId: 0,
      transcodeTemplates: [
        {
          name: 'small',
          videoWidth: 160,
          videoHeight: 90,
          videoBitrate: 150,
          audioBitrate: 48000,
          format: 1,
          encryptType: 0,
          defaultVideo: 1,
        },
      ],
    });
  });
  after(async () => {
    await tp?.close();
    if (dataDir) await removeDir(dataDir);
    if (dir) await removeDir(dir);
  });

  it('uploads with every documented field; the platform measures the real file and queues it', async () => {
    // A video category of the demo data.
    const categoryId = (await client.queryVideo({ start: 1, number: 100, sort: 'uploadTime', order: 'desc' })).find(
      (video) => video.categoryId > 0,
    )!.categoryId;
    const progress: UploadProgress[] = [];
    const log: RequestLogEntry[] = [];
    const uploader = new PlatformClient({ ...ACCOUNT, baseUrl: tp.platform.baseUrl, onRequest: (e) => log.push(e) });
    const [uploaded] = await uploader.uploadVideo(
      {
        file: clip,
        fileName: 'Clip é "quoted".mp4',
        categoryId,
        videoType: 0,
        isTranscoder: true,
        isEncrypt: false,
        transcodeTemplateGroupId: groupId,
        capturePoints: [0.5, 1.5],
        isExtractFrame: false,
        frameInterval: 2,
        tag: 'upload-test',
      },
      { onProgress: (p) => progress.push(p) },
    );
    await uploader.close();
    assert.ok(uploaded);
    assert.match(uploaded.videoId, /^[0-9a-f]{32}$/);
    assert.equal(uploaded.fileName, 'Clip é "quoted".mp4');
    assert.equal(uploaded.status, 7, 'queued with the group');

    const video = await client.getVideoInfo(uploaded.videoId);
    assert.deepEqual([video.width, video.height], [320, 180]);
    assert.ok(Math.abs(video.duration - 2000) <= 150, `duration ${video.duration} ms`);
    assert.equal(video.categoryId, categoryId);
    assert.equal(video.tag, 'upload-test');
    const { size } = await stat(clip);
    assert.equal(video.size, Math.round(size / 1024));
    // The second capture point made a second cover.
    const cover2 = await fetch(`${tp.platform.baseUrl}/vod/${uploaded.videoId}/cover-2.jpg`);
    assert.equal(cover2.status, 200);
    assert.equal(cover2.headers.get('content-type'), 'image/jpeg');
    // Transcoded with the chosen group.
    const done = await eventually(
      'the transcode to end (status 2 or 3)',
      async () => {
        const video = await client.getVideoInfo(uploaded.videoId);
        return [2, 3].includes(video.status) && video;
      },
      60_000,
    );
    assert.equal(done.status, 2);
    assert.deepEqual(
      done.transcodedVideoList.map((s) => `${s.videoWidth}x${s.videoHeight}`),
      ['160x90'],
    );

    assert.deepEqual(progress[0], { sentBytes: 0, totalBytes: size });
    assert.deepEqual(progress.at(-1), { sentBytes: size, totalBytes: size });
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i]!.sentBytes >= progress[i - 1]!.sentBytes);

    const entry = log.find((e) => e.action === 'upload');
    assert.ok(entry, 'the upload is logged');
    assert.equal(entry.method, 'POST');
    assert.equal(entry.url, `${tp.platform.baseUrl}/multipart/upload`);
    assert.equal(entry.code, 0);
    assert.equal(entry.params.token, '***', 'the token is masked');
    assert.equal(entry.params.file, 'Clip é "quoted".mp4');
    assert.equal(entry.params.transcodeTemplateGroupId, String(groupId));
  });

  it('keeps an upload with isTranscoder false as uploaded (status 0), with a token given', async () => {
    const token = (await client.getToken()).accessToken;
    const [uploaded] = await client.uploadVideo({ file: clip, token, isTranscoder: false });
    assert.equal(uploaded!.fileName, 'clip.mp4');
    assert.equal((await client.getVideoInfo(uploaded!.videoId)).status, 0);
  });

  it("checks the answer's envelope: a wrong token is the platform's refusal, named", async () => {
    const error = await rejection(client.uploadVideo({ file: clip, token: '1.2.abc' }));
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.code, Codes.getAccessTokenFailed);
    assert.equal(error.action, 'upload');
    assert.match(error.message, /token is not an access token of this platform/);
    assert.ok(!error.message.includes(ACCOUNT.secretKey));
  });

  it('refuses bad input naming the field and the rule, and sends nothing', async () => {
    const requests: string[] = [];
    const watched = new PlatformClient({
      ...ACCOUNT,
      baseUrl: tp.platform.baseUrl,
      onRequest: (entry) => requests.push(entry.action),
    });
    const cases: Array<[Parameters<PlatformClient['uploadVideo']>[0], RegExp]> = [
      [{ file: join(dir, 'missing.mp4') }, /file must be a readable file \(.*missing\.mp4: no such file\)/],
      [{ file: dir }, /file must be a file/],
      [{ file: clip, capturePoints: [1, 2, 3, 4, 5, 6, 7, 8, 9] }, /capturePoints must be at most 8 times/],
      [{ file: clip, videoType: 2 as 0 }, /videoType must be 0 \(normal\) or 1 \(VR\)/],
      [{ file: clip, isEncrypt: true, isTranscoder: false }, /isEncrypt must not be true when isTranscoder is false/],
      [{ file: clip, transcodeTemplateGroupId: 0 }, /transcodeTemplateGroupId must be a template group id/],
      [{ file: clip, frameInterval: 1.5 }, /frameInterval must be a whole number of seconds/],
      [{ file: clip, fileName: 'a\nb.mp4' }, /fileName must be a non-empty name without line breaks/],
      [{ file: clip, tag: 'half \ud83d' }, /tag must be well-formed Unicode text/],
    ];
    for (const [input, message] of cases) {
      const error = await rejection(watched.uploadVideo(input));
      assert.ok(error instanceof InvalidInputError, String(error));
      assert.match(error.message, message);
      assert.match(error.message, /nothing was sent/);
    }
    await watched.close();
    assert.deepEqual(requests, [], 'no request at all, not even getToken');
  });

  it('is cancelled by its signal: the platform records the cut-off upload (status 4)', async () => {
    // A large file the platform takes as fast as it can: cancelled once some of it has gone.
    const big = join(dir, 'big.bin');
    await writeFile(big, Buffer.alloc(48 * 1024 * 1024, 7));
    const controller = new AbortController();
    let sent = 0;
    const upload = client.uploadVideo(
      { file: big, fileName: 'cancelled.bin', isTranscoder: false },
      {
        signal: controller.signal,
        onProgress: (p) => {
          sent = p.sentBytes;
          if (p.sentBytes >= 4 * 1024 * 1024) controller.abort();
        },
      },
    );
    const error = await rejection(upload);
    assert.ok(error instanceof TransportError, String(error));
    assert.equal(error.kind, 'aborted');
    assert.ok(sent < 48 * 1024 * 1024, 'stopped before the end');
    const record = await eventually('the cut-off upload recorded', async () =>
      (await client.queryVideo({ start: 1, number: 50, sort: 'uploadTime', order: 'desc' })).find(
        (v) => v.fileName === 'cancelled.bin',
      ),
    );
    assert.equal(record.status, 4);
  });
});

describe('PlatformClient.uploadVideo without a platform behind it', function () {
  this.timeout(60_000);
  let dir: string;
  let file: string;

  before(async () => {
    dir = await tempDir();
    file = join(dir, 'small.bin');
    await writeFile(file, Buffer.from('not really a video, but bytes all the same\n'.repeat(100)));
  });
  after(async () => removeDir(dir));

  it('sends the form to {uploadBaseUrl}/multipart/upload on another host: the token first, the file last', async () => {
    const rest = await CaptureServer.start((_request, res) =>
      sendJson(
        res,
        ok({ accessToken: 'tok-123', accessTokenTime: 1, expiresIn: 2592000, refreshToken: 'r', userId: 1 }),
      ),
    );
    const uploads = await CaptureServer.start((_request, res) =>
      sendJson(res, ok([{ videoId: 'v1', fileName: 'small.bin', thumbnaill: 'http://x/t.jpg' }])),
    );
    const client = makeClient(rest.baseUrl, { uploadBaseUrl: `${uploads.baseUrl}/upload-host` });
    try {
      assert.equal(client.uploadUrl, `${uploads.baseUrl}/upload-host/multipart/upload`);
      const result = await client.uploadVideo({ file, categoryId: 3, tag: 'x', capturePoints: [1, 2.5] });
      assert.deepEqual(result, [{ videoId: 'v1', fileName: 'small.bin', thumbnaill: 'http://x/t.jpg' }]);
      assert.equal(rest.requests.length, 1);
      assert.equal(rest.last.query.action, 'getToken', 'the token was asked of /rest');
      assert.equal(uploads.requests.length, 1);
      const sent = uploads.last;
      assert.equal(sent.method, 'POST');
      assert.equal(sent.path, '/upload-host/multipart/upload');
      assert.equal(Number(sent.headers['content-length']), Buffer.byteLength(sent.body));
      assert.ok(!('signature' in sent.query), 'an upload is not signed');
      const form = parts(sent.body, sent.headers['content-type']);
      assert.deepEqual(
        form.map((part) => /name="([^"]+)"/.exec(part.headers)?.[1]),
        ['token', 'categoryId', 'capturePoints', 'tag', 'file'],
      );
      assert.equal(form[0]!.value, 'tok-123');
      assert.equal(form[2]!.value, '1,2.5');
      assert.match(form[4]!.headers, /filename="small\.bin"; filename\*=UTF-8''small\.bin/);
      assert.equal(form[4]!.value, 'not really a video, but bytes all the same\n'.repeat(100));
    } finally {
      await client.close();
      await rest.close();
      await uploads.close();
    }
  });

  it('is never retried: a 503 fails the one attempt, saying it may have been carried out', async () => {
    const uploads = await CaptureServer.start((_request, res) => {
      res.writeHead(503, { 'retry-after': '1' });
      res.end();
    });
    const client = makeClient(uploads.baseUrl, { retry: { attempts: 4, baseDelayMs: 1 } });
    try {
      const error = await rejection(client.uploadVideo({ file, token: 'tok' }));
      assert.ok(error instanceof TransportError, String(error));
      assert.equal(error.status, 503);
      assert.match(error.message, /may still have been carried out/);
      assert.equal(uploads.requests.length, 1);
    } finally {
      await client.close();
      await uploads.close();
    }
  });

  it('reads the file as the connection takes it: a server that stops reading holds the rest on disk', async () => {
    // A sparse 256 MiB file: nothing to write, and far more than any socket buffer holds.
    const huge = join(dir, 'huge.bin');
    const handle = await open(huge, 'w');
    await handle.truncate(256 * 1024 * 1024);
    await handle.close();
    let received = 0;
    let paused: IncomingMessage | undefined;
    const server: Server = createServer((req) => {
      req.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received >= 1024 * 1024 && !paused) {
          paused = req;
          req.pause();
        }
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = makeClient(base, { timeouts: { headersMs: 60_000 } });
    const controller = new AbortController();
    let sent = 0;
    const buffersBefore = process.memoryUsage().arrayBuffers;
    const upload = rejection(
      client.uploadVideo(
        { file: huge, token: 'tok' },
        { signal: controller.signal, onProgress: (p) => (sent = p.sentBytes) },
      ),
    );
    try {
      await eventually('the server to stop reading', () => paused !== undefined);
      // Once the socket buffers are full the client stops reading the file.
      let last = -1;
      await eventually('the upload to stall', () => {
        const still = sent === last;
        last = sent;
        return still && sent > 0;
      });
      assert.ok(sent < 64 * 1024 * 1024, `${sent} bytes read of 256 MiB while the server read ${received}`);
      const held = process.memoryUsage().arrayBuffers - buffersBefore;
      assert.ok(held < 64 * 1024 * 1024, `${held} bytes of buffers held: the file is not in memory`);
      controller.abort();
      const error = await upload;
      assert.ok(error instanceof TransportError && error.kind === 'aborted', String(error));
    } finally {
      // A stalled upload holds the pool open: cancelled first, whatever failed.
      controller.abort();
      await upload;
      await client.close();
      server.closeAllConnections();
      server.close();
    }
  });
});
