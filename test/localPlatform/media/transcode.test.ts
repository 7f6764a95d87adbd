/**
 * Real transcoding through the local platform: a clip uploaded over HTTP, transcoded with ad-hoc
 * templates and a template group, every listed address fetched and probed with ffprobe.
 * Tolerances: sizes exact; durations within 0.15 s; video bitrates within 35 % of the template
 * (x264's rate control on a 4 s clip), audio within 15 %.
 */
import * as assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createDecipheriv } from 'node:crypto';
import { join } from 'node:path';
import type { PlatformClient } from '../../../src/api/client';
import { VideoStatuses, type TranscodedStream } from '../../../src/api/types';
import { accountDir } from '../../../src/localPlatform/accounts';
import { runTool, type MediaTools } from '../../../src/media/tools';
import { ACCOUNT, removeDir, tempDir, TestPlatform } from '../harness';
import {
  frameRgb,
  keyframes,
  makeClip,
  mediaTools,
  probeUrl,
  rawGet,
  removeCopies,
  uploadFile,
  SETTLED,
  waitForStatus,
} from './helpers';

describe('local platform media: transcoding with ffmpeg', function () {
  this.timeout(120_000);
  let tools: MediaTools;
  let clipDir: string;
  let clip: string;
  let tp: TestPlatform;
  let client: PlatformClient;
  let sourceId: string;

  before(async function () {
    const found = await mediaTools();
    if (!found) this.skip();
    tools = found;
    clipDir = await tempDir();
    clip = await makeClip(tools, clipDir, 'clip.mp4', 4);
    tp = await TestPlatform.start({ media: { npmFallback: true, maxJobs: 2, preset: 'ultrafast' } });
    client = tp.client();
    // A logo image, where the platform reads logo files (the interface has no logo upload).
    const logos = join(accountDir(tp.dataDir, ACCOUNT.accessKey), 'media', 'logos');
    await mkdir(logos, { recursive: true });
    await runTool(tools.ffmpeg, [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'color=c=red:size=40x40', '-frames:v', '1'],
      ...['-f', 'image2', '-c:v', 'png', join(logos, 'red.png')],
    ]);
    const token = await client.getToken();
    const answer = await uploadFile(tp.platform.baseUrl, token.accessToken, clip, { isTranscoder: '0' });
    assert.equal(answer.code, 0, answer.message);
    sourceId = answer.result![0].videoId;
  });

  after(async () => {
    await tp?.close();
    await removeDir(clipDir);
    await removeCopies();
  });

  it('says it runs real media', () => {
    assert.equal(tp.platform.mediaMode.kind, 'real');
    assert.match(tp.platform.mediaDescription, /^real media \(ffmpeg /);
  });

  it('produces every format of ad-hoc templates, measured by ffprobe, keyframes aligned, AES HLS, trial clip and logo', async () => {
    await client.logoGroup({
      name: 'red square',
      logos: [
        {
          uri: 'red.png',
          width: 40,
          height: 40,
          leftPos: 50,
          topPos: 50,
          opacity: 100,
          resize: 100,
          start: 0,
          end: 100,
        },
      ],
    });
    const logoGroupId = (await client.getLogoGroupList()).find((g) => g.name === 'red square')!.id;
    const results = await client.secondTranscodeV2({
      videoIds: [sourceId],
      replace: false,
      trailor: true,
      trailorDuration: 2,
      transcodeTemplates: {
        logoGroupId,
        templates: [
          {
            name: 'small',
            videoWidth: 320,
            videoHeight: 180,
            videoBitrate: 400,
            audioBitrate: 64000,
            hls: true,
            mp4: true,
            flv: true,
            ts: true,
            hlsEncryptType: 6,
            defaultVideo: 1,
          },
          {
            name: 'tiny',
            videoWidth: 160,
            videoHeight: 90,
            videoBitrate: 150,
            audioBitrate: 32000,
            hls: true,
            mp4: true,
            flv: false,
          },
        ],
      },
    });
    assert.deepEqual(
      results.map((r) => r.code),
      [0],
    );
    await waitForStatus(client, sourceId, SETTLED);
    const item = (await client.queryVideo({ start: 1, number: 50, sort: 'uploadTime', order: 'desc' })).find(
      (v) => v.parentId === sourceId,
    );
    assert.ok(item, 'the save-as item is listed');
    assert.equal(item.status, 2);
    assert.equal(item.duration, 4000);
    const full = item.transcodedVideoList.filter((s) => s.type === 0);
    const trial = item.transcodedVideoList.filter((s) => s.type === 1);
    assert.deepEqual(
      full.map((s) => `${s.name} ${s.videoWidth}x${s.videoHeight}`),
      ['small 320x180', 'tiny 160x90'],
    );
    assert.equal(trial.length, 2);

    const check = async (s: TranscodedStream, seconds: number, want: { kbps: number; audio: number }) => {
      for (const url of [s.mp4Url, s.hlsUrl, s.flvUrl, s.tsUrl]) {
        if (!url) continue;
        const p = await probeUrl(tools, url);
        const v = p.streams.find((x) => x.codec_type === 'video')!;
        assert.equal(`${v.width}x${v.height}`, `${s.videoWidth}x${s.videoHeight}`, url);
        assert.ok(Math.abs(Number(p.format.duration) - seconds) < 0.15, `${url}: ${p.format.duration} s`);
        assert.ok(
          p.streams.some((x) => x.codec_type === 'audio'),
          `${url} has audio`,
        );
      }
      // Recorded fields come from the output, and the output follows the template.
      assert.ok(Math.abs(s.videoBitrate - want.kbps) / want.kbps < 0.35, `${s.name}: ${s.videoBitrate} kbps`);
      assert.ok(Math.abs(s.audioBitrate - want.audio) / want.audio < 0.15, `${s.name}: ${s.audioBitrate} bit/s`);
      if (s.mp4Url) {
        const head = await rawGet(tp.platform.port, new URL(s.mp4Url).pathname, {}, 'HEAD');
        assert.equal(Number(head.headers['content-length']), s.mp4Size);
        // The index at the front: `moov` before `mdat`.
        const start = (await rawGet(tp.platform.port, new URL(s.mp4Url).pathname, { Range: 'bytes=0-4095' })).body;
        assert.ok(
          start.indexOf('moov') > 0 && (start.indexOf('mdat') < 0 || start.indexOf('moov') < start.indexOf('mdat')),
        );
      }
    };
    await check(full[0], 4, { kbps: 400, audio: 64000 });
    await check(full[1], 4, { kbps: 150, audio: 32000 });
    await check(trial[0], 2, { kbps: 400, audio: 64000 });

    // Keyframes at the same instants in every rendition.
    const k0 = await keyframes(tools, full[0].mp4Url!);
    const k1 = await keyframes(tools, full[1].mp4Url!);
    assert.deepEqual(k0, [0, 2]);
    assert.deepEqual(k1, k0);

    // AES-128: the playlist names the key the platform serves; the aesKey field is that key.
    const small = full[0];
    assert.equal(small.hlsEncryptType, 6);
    assert.match(small.aesKey ?? '', /^[0-9a-f]{32}$/);
    const playlistUrl = small.hlsUrl!;
    const playlist = await (await fetch(playlistUrl)).text();
    const keyUri = /#EXT-X-KEY:METHOD=AES-128,URI="([^"]+)"/.exec(playlist)?.[1];
    assert.ok(keyUri, playlist);
    const key = Buffer.from(await (await fetch(new URL(keyUri, playlistUrl))).arrayBuffer());
    assert.equal(key.toString('hex'), small.aesKey);
    const segment = playlist.split('\n').find((l) => l.endsWith('.ts'))!;
    const encrypted = Buffer.from(await (await fetch(new URL(segment, playlistUrl))).arrayBuffer());
    assert.notEqual(encrypted[0], 0x47, 'the segment is not plain MPEG-TS');
    const decipher = createDecipheriv('aes-128-cbc', key, Buffer.alloc(16));
    const plain = Buffer.concat([decipher.update(encrypted), decipher.final()]);
    assert.equal(plain[0], 0x47, 'decrypted: MPEG-TS sync byte');
    assert.equal(plain[188], 0x47);

    // The logo: a red square whose top-left corner is at 50 % / 50 %.
    const rgb = await frameRgb(tools, small.mp4Url!, 1);
    const at = (x: number, y: number) => rgb.subarray((y * 320 + x) * 3, (y * 320 + x) * 3 + 3);
    const inside = at(180, 110);
    assert.ok(inside[0] > 200 && inside[1] < 60 && inside[2] < 60, `logo pixel ${[...inside].join(',')}`);
  });

  it('runs a template group on upload: queued, running (1), done with the group renditions, cover and thumbnail', async () => {
    const groupId = await client.templateGroup({
      name: 'media test group',
      type: 0,
      trailor: false,
      trailorDuration: 0,
      logoGroupId: 0,
      transcodeTemplates: [
        {
          name: 'a',
          videoWidth: 256,
          videoHeight: 144,
          videoBitrate: 200,
          audioBitrate: 48000,
          format: 0,
          encryptType: 0,
          defaultVideo: 1,
        },
        {
          name: 'a',
          videoWidth: 256,
          videoHeight: 144,
          videoBitrate: 200,
          audioBitrate: 48000,
          format: 1,
          encryptType: 0,
          defaultVideo: 0,
        },
      ],
    });
    const token = await client.getToken();
    const answer = await uploadFile(tp.platform.baseUrl, token.accessToken, clip, {
      transcodeTemplateGroupId: String(groupId),
      capturePoints: '1,3',
      tag: 'uploaded',
    });
    assert.equal(answer.code, 0, answer.message);
    const [r] = answer.result!;
    assert.equal(r.fileName, 'clip.mp4');
    assert.equal(r.width, 320);
    assert.equal(r.height, 180);
    assert.equal(r.duration, 4000);
    assert.ok([1, 7].includes(r.status), `status ${r.status}`);
    const cover = await rawGet(tp.platform.port, new URL(r.thumbnail).pathname);
    assert.equal(cover.status, 200);
    assert.equal(cover.headers['content-type'], 'image/jpeg');
    assert.equal(cover.body.subarray(0, 2).toString('hex'), 'ffd8');
    const done = await waitForStatus(client, r.videoId, SETTLED);
    assert.equal(done.status, 2);
    assert.equal(done.tag, 'uploaded');
    const [s] = done.transcodedVideoList;
    assert.equal(`${s.videoWidth}x${s.videoHeight}`, '256x144');
    assert.ok(s.hlsUrl && s.mp4Url && !s.flvUrl);
    const p = await probeUrl(tools, s.hlsUrl);
    assert.ok(Math.abs(Number(p.format.duration) - 4) < 0.15);
    const onDisk = await readFile(join(accountDir(tp.dataDir, ACCOUNT.accessKey), 'media', r.videoId, 'cover.jpg'));
    assert.equal(onDisk.subarray(0, 2).toString('hex'), 'ffd8');
  });

  it('maps advancedArguments: gopSize in frames to the keyframe interval, smartBorder 1 to black bars', async () => {
    const advancedArguments = JSON.stringify({ gopSize: 25, gopType: 0, smartBorder: 1, bFrame: 0 });
    const groupId = await client.templateGroup({
      name: 'advanced group',
      type: 0,
      trailor: false,
      trailorDuration: 0,
      logoGroupId: 0,
      transcodeTemplates: [
        {
          name: 'sq',
          videoWidth: 180,
          videoHeight: 180,
          videoBitrate: 200,
          audioBitrate: 48000,
          format: 1,
          encryptType: 0,
          defaultVideo: 1,
          advancedArguments,
        },
      ],
    });
    await client.secondTranscodeV2({ videoIds: [sourceId], replace: true, transcodeTemplateGroupId: groupId });
    const v = await waitForStatus(client, sourceId, SETTLED);
    assert.equal(v.status, 2);
    const s = v.transcodedVideoList[0];
    assert.equal(`${s.videoWidth}x${s.videoHeight}`, '180x180');
    assert.deepEqual(await keyframes(tools, s.mp4Url!), [0, 1, 2, 3]);
    // 320x180 fitted into 180x180: about 50 rows of black above the picture.
    const rgb = await frameRgb(tools, s.mp4Url!, 1);
    const top = rgb.subarray((10 * 180 + 90) * 3, (10 * 180 + 90) * 3 + 3);
    assert.ok(top[0] < 30 && top[1] < 30 && top[2] < 30, `bar pixel ${[...top].join(',')}`);
    const middle = rgb.subarray((90 * 180 + 90) * 3, (90 * 180 + 90) * 3 + 3);
    assert.ok(middle[0] + middle[1] + middle[2] > 90, `picture pixel ${[...middle].join(',')}`);
  });

  it('keeps two templates of one run with the same name and size apart, each at its own bitrate', async () => {
    const same = {
      name: 'dup',
      videoWidth: 160,
      videoHeight: 90,
      audioBitrate: 32000,
      hls: true,
      mp4: true,
      flv: false,
    };
    const upload = await uploadFile(tp.platform.baseUrl, (await client.getToken()).accessToken, clip, {
      isTranscoder: '0',
    });
    const id = upload.result![0].videoId;
    await client.secondTranscodeV2({
      videoIds: [id],
      replace: true,
      transcodeTemplates: [
        { ...same, videoBitrate: 80 },
        { ...same, videoBitrate: 400 },
      ],
    });
    const v = await waitForStatus(client, id, SETTLED);
    assert.equal(v.status, 2);
    const [low, high] = v.transcodedVideoList;
    assert.notEqual(low.mp4Url, high.mp4Url);
    assert.notEqual(low.hlsUrl, high.hlsUrl);
    assert.ok(high.mp4Size > low.mp4Size * 2, `${low.mp4Size} vs ${high.mp4Size}`);
    for (const s of [low, high])
      assert.equal((await rawGet(tp.platform.port, new URL(s.hlsUrl!).pathname)).status, 200);
  });

  it('serves byte ranges, HEAD and CORS, and 404 for what does not exist or escapes the data folder', async () => {
    const v = await waitForStatus(client, sourceId, [VideoStatuses.completed]);
    void v;
    const item = (await client.queryVideo({ start: 1, number: 50, sort: 'uploadTime', order: 'desc' })).find(
      (x) => x.parentId === sourceId,
    )!;
    const mp4 = new URL(item.transcodedVideoList[0].mp4Url!);
    const size = item.transcodedVideoList[0].mp4Size;
    const whole = await rawGet(tp.platform.port, mp4.pathname, { Origin: 'http://example.test' });
    assert.equal(whole.status, 200);
    assert.equal(whole.headers['access-control-allow-origin'], '*');
    assert.equal(whole.headers['accept-ranges'], 'bytes');
    assert.equal(whole.body.length, size);
    const part = await rawGet(tp.platform.port, mp4.pathname, { Range: 'bytes=100-199' });
    assert.equal(part.status, 206);
    assert.equal(part.headers['content-range'], `bytes 100-199/${size}`);
    assert.deepEqual(part.body, whole.body.subarray(100, 200));
    const tail = await rawGet(tp.platform.port, mp4.pathname, { Range: 'bytes=-10' });
    assert.deepEqual(tail.body, whole.body.subarray(size - 10));
    const beyond = await rawGet(tp.platform.port, mp4.pathname, { Range: `bytes=${size}-` });
    assert.equal(beyond.status, 416);
    assert.equal(beyond.headers['content-range'], `bytes */${size}`);
    const folder = mp4.pathname.slice(0, mp4.pathname.lastIndexOf('/'));
    // A file placed in the data folder beside the video's own, through a symbolic link, is refused.
    const accountMedia = join(accountDir(tp.dataDir, ACCOUNT.accessKey), 'media');
    await writeFile(join(tp.dataDir, 'secret.txt'), 'CONTENT-OF-THE-SECRET-FILE');
    const { symlink } = await import('node:fs/promises');
    await symlink(join(tp.dataDir, 'secret.txt'), join(accountMedia, item.id, 'link.jpg'));
    for (const path of [
      `${folder}/missing.mp4`,
      `/vod/${item.id}/link.jpg`,
      `/vod/${item.id}/source`,
      `/vod/${sourceId}/source`,
      `/vod/${item.id}/../../secret.txt`,
      `/vod/${item.id}/%2e%2e/%2e%2e/%2e%2e/secret.txt`,
      `/vod/${item.id}/..%2f..%2f..%2fsecret.txt`,
      `/vod/${item.id}/%2fetc%2fpasswd`,
      `/vod/${'0'.repeat(32)}/cover.jpg`,
      `/logo/..%2f..%2fsecret.txt`,
      `/logo/%2fetc%2fpasswd`,
    ]) {
      const answer = await rawGet(tp.platform.port, path);
      assert.equal(answer.status, 404, path);
      assert.ok(!answer.body.toString().includes('CONTENT-OF-THE'), path);
    }
    const page = await rawGet(tp.platform.port, new URL(item.playCode.previewUrl).pathname);
    assert.equal(page.status, 200);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.ok(page.body.toString().includes(`src="${mp4.pathname}"`), page.body.toString());
    const logo = await rawGet(tp.platform.port, '/logo/red.png');
    assert.equal(logo.status, 200);
    assert.equal(logo.headers['content-type'], 'image/png');
  });
});
