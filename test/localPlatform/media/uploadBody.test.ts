/**
 * The upload's body over real HTTP on 127.0.0.1, sent in pieces with pauses between them so the platform reads them
 * apart: boundary lines split across pieces, a real clip whose bytes hold starts of the boundary line and the
 * boundary itself, stored byte for byte (SHA-256 of the stored source against the clip); a body without its
 * closing boundary; a client gone mid-file; parts over their bounds; a file name in raw UTF-8 as browsers send
 * it. The reader alone, cut at every byte, is in test/localPlatform/http/multipartStream.test.ts.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import type { PlatformClient } from '../../../src/api/client';
import { accountDir } from '../../../src/localPlatform/accounts';
import { sourceFile } from '../../../src/localPlatform/media/files';
import { runTool, type MediaTools } from '../../../src/media/tools';
import { eventually } from '../../helpers/eventually';
import { ACCOUNT, removeDir, sleep, tempDir, TestPlatform } from '../harness';
import { makeClip, mediaTools, type UploadAnswer } from './helpers';

const BOUNDARY = '----FormBoundary7MA4YWxkTrZu0gW';
const MAX_UPLOAD = 4 * 1024 * 1024;

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

const fieldPart = (name: string, value: string): Buffer =>
  Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`, 'utf8');

const fileHead = (fileName: string): Buffer =>
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
      'Content-Type: video/mp4\r\n\r\n',
    'utf8',
  );

const CLOSE = Buffer.from(`\r\n--${BOUNDARY}--\r\n`, 'latin1');

/** POSTs `body` cut at `cuts` (byte offsets), pausing between the pieces; the answer's envelope. */
function sendInPieces(port: number, body: Buffer, cuts: number[] = []): Promise<UploadAnswer> {
  const at = [0, ...[...new Set(cuts)].filter((c) => c > 0 && c < body.length).sort((a, b) => a - b), body.length];
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/multipart/upload',
        headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'Content-Length': body.length },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => resolve(JSON.parse(text) as UploadAnswer));
      },
    );
    req.on('error', reject);
    void (async () => {
      for (let i = 0; i + 1 < at.length; i++) {
        req.write(body.subarray(at[i], at[i + 1]));
        await sleep(25);
      }
      req.end();
    })();
  });
}

describe('local platform media: the upload body, piece by piece', function () {
  this.timeout(120_000);
  let tools: MediaTools;
  let clipDir: string;
  let clip: Buffer;
  let tp: TestPlatform;
  let client: PlatformClient;
  let token: string;

  const incoming = (): string[] => {
    const dir = join(accountDir(tp.dataDir, ACCOUNT.accessKey), 'media', 'incoming');
    return existsSync(dir) ? readdirSync(dir) : [];
  };
  const videos = async () => client.queryVideo({ start: 1, number: 1000, sort: 'uploadTime', order: 'asc' });
  const stored = (videoId: string): Promise<Buffer> =>
    readFile(sourceFile(accountDir(tp.dataDir, ACCOUNT.accessKey), videoId));

  before(async function () {
    const found = await mediaTools();
    if (!found) this.skip();
    tools = found;
    clipDir = await tempDir();
    clip = await readFile(await makeClip(tools, clipDir, 'pieces.mp4', 2, 160, 90));
    tp = await TestPlatform.start({ media: { npmFallback: true, maxUploadBytes: MAX_UPLOAD } });
    client = tp.client();
    token = (await client.getToken()).accessToken;
  });

  after(async () => {
    await tp?.close();
    await removeDir(clipDir);
  });

  it('stores a clip whose boundary lines arrive split across pieces, byte for byte', async () => {
    const head = Buffer.concat([fieldPart('token', token), fieldPart('isTranscoder', '0'), fileHead('pieces.mp4')]);
    const body = Buffer.concat([head, clip, CLOSE]);
    // Inside the second field's boundary line, mid-file, and at every byte of the closing boundary line.
    const second = head.indexOf(`--${BOUNDARY}`, 10);
    const end = head.length + clip.length;
    const cuts = [second - 1, second + 3, second + 20, head.length + 1000];
    for (let i = 1; i < CLOSE.length; i += 4) cuts.push(end + i);
    const answer = await sendInPieces(tp.platform.port, body, cuts);
    assert.equal(answer.code, 0, answer.message);
    const [video] = answer.result!;
    assert.equal(video.status, 0);
    assert.equal(video.fileName, 'pieces.mp4');
    assert.equal(sha256(await stored(video.videoId)), sha256(clip));
    assert.deepEqual(incoming(), []);
  });

  it('stores a real clip that holds starts of the boundary line and the boundary itself, byte for byte', async () => {
    const file = join(clipDir, 'tricky.mp4');
    const lookalikes = `a\r\n--${BOUNDARY.slice(0, -1)} b --${BOUNDARY} c\r\n-`;
    await runTool(tools.ffmpeg, [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=25', '-t', '1'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-metadata', `comment=${lookalikes}`],
      file,
    ]);
    const data = await readFile(file);
    const partial = data.indexOf(`\r\n--${BOUNDARY.slice(0, -1)} `, 0, 'latin1');
    assert.ok(partial > 0, 'the clip holds the boundary line less its last character');
    assert.ok(data.indexOf(` --${BOUNDARY} `, 0, 'latin1') > 0, 'the clip holds the boundary itself');
    const head = Buffer.concat([fieldPart('token', token), fieldPart('isTranscoder', '0'), fileHead('tricky.mp4')]);
    // A piece ends right where the look-alike could still become the boundary line.
    const lookalikeEnd = head.length + partial + 2 + 2 + BOUNDARY.length - 1;
    const answer = await sendInPieces(tp.platform.port, Buffer.concat([head, data, CLOSE]), [
      lookalikeEnd,
      head.length + partial + 1,
    ]);
    assert.equal(answer.code, 0, answer.message);
    const [video] = answer.result!;
    assert.equal(video.status, 0, 'read as the clip it is');
    assert.equal(video.width, 160);
    assert.equal(sha256(await stored(video.videoId)), sha256(data));
  });

  it('records a body without its closing boundary as a failed upload (status 4), keeping none of its bytes', async () => {
    const before = (await videos()).length;
    const head = Buffer.concat([fieldPart('token', token), fieldPart('isTranscoder', '0'), fileHead('unclosed.mp4')]);
    const answer = await sendInPieces(tp.platform.port, Buffer.concat([head, clip, Buffer.from('\r\n')]), [
      head.length + 500,
    ]);
    assert.equal(answer.code, 10902);
    assert.equal(
      answer.message,
      'the body is not well-formed multipart/form-data: the body ended inside a part, before its closing boundary',
    );
    const after = await videos();
    assert.equal(after.length, before + 1);
    const failed = after.find((v) => v.fileName === 'unclosed.mp4');
    assert.equal(failed?.status, 4);
    assert.equal(existsSync(sourceFile(accountDir(tp.dataDir, ACCOUNT.accessKey), failed.id)), false);
    assert.deepEqual(incoming(), []);
  });

  it('leaves no byte behind when the client goes away mid-file (status 4)', async () => {
    const head = Buffer.concat([fieldPart('token', token), fieldPart('isTranscoder', '0'), fileHead('gone.mp4')]);
    const req = request({
      host: '127.0.0.1',
      port: tp.platform.port,
      method: 'POST',
      path: '/multipart/upload',
      headers: {
        'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
        'Content-Length': head.length + 3 * clip.length,
      },
    });
    req.on('error', () => undefined);
    req.write(Buffer.concat([head, clip]));
    // The platform has written the clip's bytes in `incoming/` before the client goes.
    const dir = join(accountDir(tp.dataDir, ACCOUNT.accessKey), 'media', 'incoming');
    await eventually(
      'the clip to be written',
      () => incoming().length === 1 && statSync(join(dir, incoming()[0]!)).size === clip.length,
      10_000,
    );
    req.destroy();
    const gone = await eventually(
      'the cut-off upload to be listed',
      async () => (await videos()).find((v) => v.fileName === 'gone.mp4'),
      10_000,
    );
    assert.equal(gone.status, 4);
    assert.equal(gone.size, Math.round(clip.length / 1024));
    assert.equal(existsSync(sourceFile(accountDir(tp.dataDir, ACCOUNT.accessKey), gone.id)), false);
    await eventually('incoming/ to be empty', () => incoming().length === 0, 10_000);
  });

  it('refuses parts over their bounds, naming the bound; nothing stored, nothing left behind', async () => {
    const before = (await videos()).length;
    const withFile = (...parts: Buffer[]): Buffer => Buffer.concat([...parts, fileHead('bounds.mp4'), clip, CLOSE]);
    const cases: Array<[Buffer, number, string]> = [
      [
        withFile(fieldPart('token', token), fieldPart('tag', 't'.repeat(64 * 1024 + 1))),
        10902,
        'tag is longer than 65536 bytes',
      ],
      [
        withFile(fieldPart('token', token), ...Array.from({ length: 50 }, (_, i) => fieldPart(`extra${i}`, 'x'))),
        10902,
        'at most 50 fields per upload',
      ],
      [
        Buffer.concat([
          fieldPart('token', token),
          Buffer.from(`--${BOUNDARY}\r\nX-Pad: ${'p'.repeat(17_000)}\r\n\r\n`),
        ]),
        10902,
        "the body is not well-formed multipart/form-data: a part's header lines are longer than 16384 bytes",
      ],
      [
        Buffer.concat([fieldPart('token', token), fileHead('big.mp4'), Buffer.alloc(MAX_UPLOAD + 1, 7), CLOSE]),
        10913,
        `file is larger than the upload limit of ${MAX_UPLOAD} bytes`,
      ],
    ];
    for (const [body, code, message] of cases) {
      // Cut so that each bound is crossed inside a piece, not at its start.
      const answer = await sendInPieces(tp.platform.port, body, [1000, 70_000, body.length - 300]);
      assert.equal(answer.code, code, answer.message);
      assert.equal(answer.message, message);
    }
    assert.equal((await videos()).length, before);
    assert.deepEqual(incoming(), []);
  });

  it('reads a file name sent in raw UTF-8, as browsers send it', async () => {
    const body = Buffer.concat([
      fieldPart('token', token),
      fieldPart('isTranscoder', '0'),
      fileHead('vidéo été.mp4'),
      clip,
      CLOSE,
    ]);
    const answer = await sendInPieces(tp.platform.port, body);
    assert.equal(answer.code, 0, answer.message);
    assert.equal(answer.result![0].fileName, 'vidéo été.mp4');
    assert.equal((await client.getVideoInfo(answer.result![0].videoId)).title, 'vidéo été');
  });
});
