/**
 * Uploads (facts section 6) over real HTTP: token checks, the size limit, a file that is not media
 * (status 5), a body cut off mid-file (status 4); deleting a video while ffmpeg runs; a restart
 * running again what was in flight; simulated mode said when no ffmpeg is found.
 */
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import type { PlatformClient } from '../../../src/api/client';
import { accountDir } from '../../../src/localPlatform/accounts';
import { startLocalPlatform } from '../../../src/localPlatform/server';
import type { MediaTools } from '../../../src/media/tools';
import { ACCOUNT, removeDir, tempDir, TestPlatform } from '../harness';
import { checkPictures, makeClip, mediaTools, rawGet, upload, uploadFile, SETTLED, waitForStatus } from './helpers';
import { VideoStatuses } from '../../../src/api/types';

const SLOW_TEMPLATE = {
  name: 'slow',
  videoWidth: 1280,
  videoHeight: 720,
  videoBitrate: 2000,
  audioBitrate: 64000,
  hls: true,
  mp4: true,
  flv: false,
};

describe('local platform media: uploads, cancel and restart', function () {
  this.timeout(120_000);
  let tools: MediaTools;
  let clipDir: string;
  let clip: string;
  let longClip: string;
  let tp: TestPlatform;
  let client: PlatformClient;
  let token: string;

  before(async function () {
    const found = await mediaTools();
    if (!found) this.skip();
    tools = found;
    clipDir = await tempDir();
    clip = await makeClip(tools, clipDir, 'short.mp4', 2, 160, 90);
    longClip = await makeClip(tools, clipDir, 'long.mp4', 30, 320, 180);
    tp = await TestPlatform.start({ media: { npmFallback: true, maxUploadBytes: 4 * 1024 * 1024 } });
    client = tp.client();
    token = (await client.getToken()).accessToken;
  });

  after(async () => {
    await tp?.close();
    await removeDir(clipDir);
  });

  it('gives a token with the documented fields', async () => {
    const t = await client.getToken();
    assert.deepEqual(Object.keys(t).sort(), ['accessToken', 'accessTokenTime', 'expiresIn', 'refreshToken', 'userId']);
    assert.equal(t.expiresIn, 2_592_000);
    assert.ok(Math.abs(t.accessTokenTime - Date.now()) < 60_000);
  });

  it('measures an uploaded clip and keeps it as status 0 when isTranscoder is 0', async () => {
    const answer = await uploadFile(tp.platform.baseUrl, token, clip, { isTranscoder: '0', tag: 'a,b' });
    assert.equal(answer.code, 0, answer.message);
    const [r] = answer.result!;
    assert.equal(r.status, 0);
    const v = await client.getVideoInfo(r.videoId);
    assert.equal(v.fileName, 'short.mp4');
    assert.equal(v.width, 160);
    assert.equal(v.height, 90);
    assert.equal(v.duration, 2000);
    assert.equal(v.size, Math.round((await readFile(clip)).length / 1024));
    assert.ok(v.bitrate > 0);
    assert.equal(v.tag, 'a,b');
    // Pictures are captured at upload, before any transcoding: listed by the answer and by queryVideo, and served.
    assert.equal(await checkPictures(tp.platform.port, r), true);
    assert.equal(await checkPictures(tp.platform.port, v), true);
    const listed = (await client.queryVideo({ start: 1, number: 100, sort: 'title', order: 'asc' })).find(
      (x) => x.id === r.videoId,
    );
    assert.equal(listed?.cover, v.cover);
  });

  it("composes the answer's picture addresses with the same builder as every answer, not from the Host header", async () => {
    // A client naming the platform as localhost (an allowed host name) while it is bound to 127.0.0.1.
    const answer = await uploadFile(`http://localhost:${tp.platform.port}`, token, clip, { isTranscoder: '0' });
    assert.equal(answer.code, 0, answer.message);
    const [r] = answer.result!;
    const v = await client.getVideoInfo(r.videoId);
    assert.ok(v.thumbnail.startsWith(`${tp.platform.baseUrl}/vod/`), v.thumbnail);
    assert.equal(r.thumbnail, v.thumbnail);
    assert.equal(r.cover, v.cover);
  });

  it('refuses a wrong, expired or missing token, a bad field and a file over the limit with an envelope, storing nothing', async () => {
    const before = (await client.queryVideo({ start: 1, number: 100, sort: 'title', order: 'asc' })).length;
    const data = await readFile(clip);
    const file = { name: 'x.mp4', data };
    const wrong = await upload(tp.platform.baseUrl, { token: `${token.slice(0, -2)}xx` }, file);
    assert.equal(wrong.code, 10001);
    assert.match(wrong.message, /token is not an access token/);
    const [user, , sig] = token.split('.');
    const expired = await upload(tp.platform.baseUrl, { token: `${user}.1000.${sig}` }, file);
    assert.equal(expired.code, 10001);
    const missing = await upload(tp.platform.baseUrl, {}, file);
    assert.equal(missing.code, 10901);
    assert.match(missing.message, /token is missing/);
    const badField = await upload(tp.platform.baseUrl, { token, videoType: '7' }, file);
    assert.equal(badField.code, 10902);
    assert.match(badField.message, /videoType must be 0 \(normal\) or 1 \(VR\)/);
    const big = await upload(
      tp.platform.baseUrl,
      { token },
      { name: 'big.mp4', data: Buffer.alloc(5 * 1024 * 1024, 1) },
    );
    assert.equal(big.code, 10913);
    assert.match(big.message, /larger than the upload limit of 4194304 bytes/);
    const after = (await client.queryVideo({ start: 1, number: 100, sort: 'title', order: 'asc' })).length;
    assert.equal(after, before);
  });

  it('keeps a file that is not media as status 5', async () => {
    const answer = await upload(
      tp.platform.baseUrl,
      { token },
      { name: 'notes.docx', data: Buffer.from('not a video at all\n'.repeat(100)) },
    );
    assert.equal(answer.code, 0, answer.message);
    assert.equal(answer.result![0].status, 5);
    const v = await client.getVideoInfo(answer.result![0].videoId);
    assert.equal(v.status, 5);
    // No picture: "" in the upload's answer and in the lists, not an address that answers 404.
    assert.equal(answer.result![0].cover, '');
    assert.equal(answer.result![0].thumbnail, '');
    assert.equal(v.cover, '');
    assert.equal(v.thumbnail, '');
    const listed = (await client.queryVideo({ start: 1, number: 100, sort: 'title', order: 'asc' })).find(
      (x) => x.id === v.id,
    );
    assert.equal(listed?.cover, '');
    assert.equal((await rawGet(tp.platform.port, `/vod/${v.id}/cover.jpg`)).status, 404);
    // Its preview page names no cover either.
    const preview = await rawGet(tp.platform.port, new URL(v.playCode.previewUrl).pathname);
    assert.equal(preview.status, 200);
    assert.doesNotMatch(preview.body.toString('utf8'), /cover\.jpg/);
  });

  it('records a body cut off mid-file as status 4', async () => {
    const boundary = 'cutoffboundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${token}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    );
    const data = await readFile(clip);
    await new Promise<void>((resolve) => {
      const req = request({
        host: '127.0.0.1',
        port: tp.platform.port,
        method: 'POST',
        path: '/multipart/upload',
        headers: {
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': head.length + data.length + 100,
        },
      });
      req.on('error', () => resolve());
      req.write(Buffer.concat([head, data.subarray(0, 2000)]), () => setTimeout(() => (req.destroy(), resolve()), 200));
    });
    let cut;
    for (let i = 0; i < 100 && !cut; i++) {
      cut = (await client.queryVideo({ start: 1, number: 100, sort: 'title', order: 'asc' })).find(
        (v) => v.fileName === 'cut.mp4',
      );
      if (!cut) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(cut, 'the cut-off upload is listed');
    assert.equal(cut.status, 4);
    assert.equal(await checkPictures(tp.platform.port, cut), false);
  });

  it('cancels a running transcoding when the video is deleted and removes its files', async () => {
    const answer = await uploadFile(tp.platform.baseUrl, token, longClip, { isTranscoder: '0' });
    const id = answer.result![0].videoId;
    await client.secondTranscodeV2({ videoIds: [id], replace: true, transcodeTemplates: [SLOW_TEMPLATE] });
    await waitForStatus(client, id, [VideoStatuses.secondTranscoding]);
    const media = join(accountDir(tp.dataDir, ACCOUNT.accessKey), 'media');
    assert.ok(existsSync(join(media, id, 'source')));
    await client.deleteVideo([id]);
    for (let i = 0; i < 100 && existsSync(join(media, id)); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(!existsSync(join(media, id)), 'the video folder is gone');
    // The queue is free again: a short job runs to the end.
    const next = await uploadFile(tp.platform.baseUrl, token, clip, { isTranscoder: '0' });
    const nextId = next.result![0].videoId;
    await client.secondTranscodeV2({
      videoIds: [nextId],
      replace: true,
      transcodeTemplates: [{ ...SLOW_TEMPLATE, videoWidth: 160, videoHeight: 90, videoBitrate: 100 }],
    });
    assert.equal((await waitForStatus(client, nextId, SETTLED)).status, VideoStatuses.completed);
    for (let i = 0; i < 100 && existsSync(join(media, 'work')) && (await readdirCount(join(media, 'work'))) > 0; i++)
      await new Promise((r) => setTimeout(r, 50));
    assert.equal(await readdirCount(join(media, 'work')), 0, 'no run left behind');
  });

  it('fails a job as status 3 and says why in the platform log when the source is gone', async () => {
    const answer = await uploadFile(tp.platform.baseUrl, token, clip, { isTranscoder: '0' });
    const id = answer.result![0].videoId;
    await rm(join(accountDir(tp.dataDir, ACCOUNT.accessKey), 'media', id, 'source'));
    const logged: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => logged.push(args.join(' '));
    try {
      await client.secondTranscodeV2({ videoIds: [id], replace: true, transcodeTemplates: [SLOW_TEMPLATE] });
      assert.equal((await waitForStatus(client, id, SETTLED)).status, VideoStatuses.failed);
    } finally {
      console.error = original;
    }
    assert.ok(
      logged.some((l) => l.includes(`transcoding of video ${id} failed: the video has no source media`)),
      logged.join('\n'),
    );
  });

  it('runs again after a restart what was in flight', async () => {
    const dir = await tempDir();
    let platform = await TestPlatform.start({ media: { npmFallback: true } }, dir);
    try {
      let c = platform.client();
      const t = (await c.getToken()).accessToken;
      const answer = await uploadFile(platform.platform.baseUrl, t, longClip, { isTranscoder: '0' });
      const id = answer.result![0].videoId;
      await c.secondTranscodeV2({
        videoIds: [id],
        replace: true,
        transcodeTemplates: [{ ...SLOW_TEMPLATE, videoWidth: 320, videoHeight: 180, videoBitrate: 300 }],
      });
      await waitForStatus(c, id, [VideoStatuses.secondTranscoding]);
      await platform.close();
      platform = await TestPlatform.start({ media: { npmFallback: true } }, dir);
      c = platform.client();
      const v = await waitForStatus(c, id, SETTLED);
      assert.equal(v.status, 2);
      assert.equal(v.transcodedVideoList[0].videoWidth, 320);
      assert.equal(v.duration, 30_000);
    } finally {
      await platform.close();
      await removeDir(dir);
    }
  });

  it('says simulated media, with how to install ffmpeg, when the given folder has no ffmpeg', async () => {
    const dir = await tempDir();
    const empty = await tempDir();
    const p = await startLocalPlatform({ dataDir: dir, accounts: [ACCOUNT], media: { ffmpegDir: empty } });
    try {
      assert.equal(p.mediaMode.kind, 'simulated');
      assert.match(p.mediaDescription, /^simulated media \(no ffmpeg in .*apt-get install ffmpeg/);
      const refused = await upload(p.baseUrl, { token: 'x' }, { name: 'a.mp4', data: Buffer.from('x') });
      assert.equal(refused.code, 10000);
      assert.match(refused.message, /uploads need real media: simulated media/);
    } finally {
      await p.close();
      await removeDir(dir);
      await removeDir(empty);
    }
  });
});

async function readdirCount(dir: string): Promise<number> {
  const { readdir } = await import('node:fs/promises');
  return existsSync(dir) ? (await readdir(dir)).length : 0;
}
