/**
 * Uploads (issue 22, item 2) over real HTTP with real ffmpeg: nothing of a file part is written
 * before a good token (a file sent first is drained and dropped); a stored upload is read only as
 * the container it was detected as (a playlist is not a video); videos beyond the limits on pixels
 * per frame, frame rate, duration and frames x pixels are refused with the limit named, and nothing
 * is stored.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import type { PlatformClient } from '../../src/api/client';
import { Codes } from '../../src/api/errorCodes';
import { accountDir } from '../../src/localPlatform/accounts';
import { runTool, type MediaTools } from '../../src/media/tools';
import { ACCOUNT, OTHER, removeDir, tempDir, TestPlatform } from './harness';
import { mediaTools, upload, uploadFile } from './media/helpers';

/** Files waiting in every account's `incoming` folder (where an upload is written as it arrives). */
function incomingFiles(dataDir: string): string[] {
  return [ACCOUNT, OTHER].flatMap((a) => {
    const dir = join(accountDir(dataDir, a.accessKey), 'media', 'incoming');
    return existsSync(dir) ? readdirSync(dir) : [];
  });
}

/**
 * Sends a multipart body part by part: the fields `first`, a file (4 MiB in 64 KiB pieces, 10 ms
 * apart), then the fields `then`; watches the incoming folders the whole time and resolves with the
 * answer and the most files seen there at once.
 */
function slowUpload(
  baseUrl: string,
  dataDir: string,
  first: Record<string, string>,
  then: Record<string, string>,
): Promise<{ answer: { code: number; message: string }; seen: number }> {
  const boundary = 'sec-boundary-7f3a';
  return new Promise((resolve, reject) => {
    let seen = 0;
    const watch = setInterval(() => (seen = Math.max(seen, incomingFiles(dataDir).length)), 5);
    const req = request(
      `${baseUrl}/multipart/upload`,
      { method: 'POST', headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => {
          clearInterval(watch);
          seen = Math.max(seen, incomingFiles(dataDir).length);
          resolve({ answer: JSON.parse(text) as { code: number; message: string }, seen });
        });
      },
    );
    req.on('error', (e) => {
      clearInterval(watch);
      reject(e);
    });
    const field = (name: string, value: string): string =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    for (const [name, value] of Object.entries(first)) req.write(field(name, value));
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="first.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    );
    const piece = Buffer.alloc(64 * 1024, 0x47);
    let sent = 0;
    const next = (): void => {
      if (sent++ < 64) {
        req.write(piece);
        setTimeout(next, 10);
        return;
      }
      req.write('\r\n');
      for (const [name, value] of Object.entries(then)) req.write(field(name, value));
      req.end(`--${boundary}--\r\n`);
    };
    next();
  });
}

describe('local platform security: uploads', function () {
  this.timeout(120_000);
  let tools: MediaTools;
  let clips: string;
  let tp: TestPlatform;
  let client: PlatformClient;
  let token: string;

  async function clip(name: string, size: string, rate: number, seconds: number): Promise<string> {
    const file = join(clips, name);
    await runTool(tools.ffmpeg, [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=${rate}`],
      ...['-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file],
    ]);
    return file;
  }

  async function videoCount(): Promise<number> {
    return (await client.queryVideo({ start: 1, number: 1000, sort: 'uploadTime', order: 'asc' })).length;
  }

  before(async function () {
    const found = await mediaTools();
    if (!found) this.skip();
    tools = found;
    clips = await tempDir();
    tp = await TestPlatform.start({
      media: {
        npmFallback: true,
        maxUploadBytes: 16 * 1024 * 1024,
        limits: { maxFramePixels: 100_000, maxFrameRate: 30, maxDurationSeconds: 6, maxTotalPixels: 4_000_000 },
      },
    });
    client = tp.client();
    token = (await client.getToken()).accessToken;
  });
  after(async () => {
    await tp?.close();
    await removeDir(clips);
  });

  it('drains a file part sent before any token: refused, and nothing written at any time', async () => {
    const before = await videoCount();
    const { answer, seen } = await slowUpload(tp.platform.baseUrl, tp.dataDir, {}, { tag: 'late' });
    assert.equal(answer.code, Codes.parameterMissing, answer.message);
    assert.match(answer.message, /token is missing before the first file part/);
    assert.equal(seen, 0, 'no file in the incoming folder while the body arrived');
    assert.equal(await videoCount(), before);
  });

  it('drains a file part sent before a bad token, and before a good one sent too late', async () => {
    const before = await videoCount();
    const bad = await slowUpload(tp.platform.baseUrl, tp.dataDir, {}, { token: `${token.slice(0, -4)}AAAA` });
    assert.equal(bad.answer.code, Codes.parameterMissing, bad.answer.message);
    assert.equal(bad.seen, 0);
    const late = await slowUpload(tp.platform.baseUrl, tp.dataDir, {}, { token });
    assert.equal(late.answer.code, Codes.parameterMissing, late.answer.message);
    assert.equal(late.seen, 0);
    assert.equal(await videoCount(), before);
  });

  it('checks the token and the fields sent before the file before keeping a byte of it', async () => {
    const bad = await slowUpload(tp.platform.baseUrl, tp.dataDir, { token: 'nope' }, {});
    assert.equal(bad.answer.code, Codes.getAccessTokenFailed, bad.answer.message);
    assert.equal(bad.seen, 0);
    const field = await slowUpload(tp.platform.baseUrl, tp.dataDir, { token, categoryId: '999' }, {});
    assert.equal(field.answer.code, Codes.parameterInvalid);
    assert.match(field.answer.message, /categoryId 999 is not a video category/);
    assert.equal(field.seen, 0);
  });

  it('does not read an uploaded playlist as a video: status 5, no picture, the file it names unread', async () => {
    const segment = await clip('local.ts', '160x90', 25, 1);
    await writeFile(join(clips, 'local-copy.ts'), await readFile(segment));
    const playlist = `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\nfile://${join(clips, 'local-copy.ts')}\n#EXT-X-ENDLIST\n`;
    const answer = await upload(
      tp.platform.baseUrl,
      { token, isTranscoder: '0' },
      { name: 'list.m3u8', data: Buffer.from(playlist) },
    );
    assert.equal(answer.code, 0, answer.message);
    const [r] = answer.result!;
    assert.equal(r.status, 5, 'not media');
    assert.equal(r.thumbnail, '');
    assert.equal((await client.getVideoInfo(r.videoId)).width, 0);
  });

  for (const [what, name, size, rate, seconds, limit] of [
    ['pixels per frame', 'wide.mp4', '480x270', 25, 1, 'the limit is 100000 pixels per frame'],
    ['frame rate', 'fast.mp4', '160x90', 60, 1, 'the limit is 30 frames per second'],
    ['duration', 'long.mp4', '160x90', 5, 7, 'the limit is 6 s of duration'],
    ['frames x pixels', 'work.mp4', '320x180', 25, 4, 'frames x pixels'],
  ] as const) {
    it(`refuses a video beyond the limit on ${what}, naming it; nothing stored`, async () => {
      const before = await videoCount();
      const answer = await uploadFile(tp.platform.baseUrl, token, await clip(name, size, rate, seconds));
      assert.equal(answer.code, Codes.parameterInvalid, answer.message);
      assert.ok(answer.message.includes(limit), answer.message);
      assert.equal(await videoCount(), before);
      assert.deepEqual(incomingFiles(tp.dataDir), []);
    });
  }

  it('takes a video within every limit', async () => {
    const answer = await uploadFile(tp.platform.baseUrl, token, await clip('fine.mp4', '160x90', 25, 1), {
      isTranscoder: '0',
    });
    assert.equal(answer.code, 0, answer.message);
    assert.equal(answer.result![0].status, 0);
  });
});
