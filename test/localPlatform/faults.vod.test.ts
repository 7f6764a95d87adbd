/**
 * Stream faults on a video's HLS (real transcoding of a 4 s clip): key-404 makes the AES-128 key answer 404 and
 * the inspector reports HLS-KEY-UNAVAILABLE; a rule chosen by variant hits that rendition only; segment-drop by
 * segment index is reported as HLS-TIMESTAMP-JUMP on a video as on a channel.
 */
import * as assert from 'node:assert/strict';
import type { PlatformClient } from '../../src/api/client';
import type { TranscodedStream } from '../../src/api/types';
import { inspect } from '../../src/inspector/inspect';
import { nodeFetch } from '../../src/inspector/source';
import type { MediaTools } from '../../src/media/tools';
import { clearFaults, inject } from './faultsHelpers';
import { removeDir, tempDir, TestPlatform } from './harness';
import { makeClip, mediaTools, uploadFile, waitForStatus } from './media/helpers';

describe('local platform: stream faults on a video (real ffmpeg)', function () {
  this.timeout(120_000);
  let tools: MediaTools;
  let clipDir: string;
  let tp: TestPlatform;
  let client: PlatformClient;
  let videoId: string;
  let small: TranscodedStream;
  let tiny: TranscodedStream;

  before(async function () {
    const found = await mediaTools();
    if (!found) this.skip();
    tools = found;
    clipDir = await tempDir();
    const clip = await makeClip(tools, clipDir, 'clip.mp4', 6);
    tp = await TestPlatform.start({ media: { npmFallback: true, maxJobs: 1, preset: 'ultrafast' } });
    client = tp.client();
    const token = await client.getToken();
    const answer = await uploadFile(tp.platform.baseUrl, token.accessToken, clip, { isTranscoder: '0' });
    assert.equal(answer.code, 0, answer.message);
    videoId = answer.result![0].videoId;
    const results = await client.secondTranscodeV2({
      videoIds: [videoId],
      replace: true,
      transcodeTemplates: [
        {
          name: 'small',
          videoWidth: 320,
          videoHeight: 180,
          videoBitrate: 400,
          audioBitrate: 64000,
          hls: true,
          mp4: true,
          flv: false,
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
          mp4: false,
          flv: false,
        },
      ],
    });
    assert.deepEqual(
      results.map((r) => r.code),
      [0],
    );
    const video = await waitForStatus(client, videoId, [2]);
    const streams = video.transcodedVideoList.filter((s) => s.type === 0);
    small = streams.find((s) => s.name === 'small')!;
    tiny = streams.find((s) => s.name === 'tiny')!;
    assert.ok(small.hlsUrl && tiny.hlsUrl);
  });
  after(async () => {
    await tp?.close();
    await removeDir(clipDir);
  });
  afterEach(async () => {
    if (tp) await clearFaults(tp.platform.baseUrl);
  });

  const found = async (url: string) => (await inspect(url, { fetch: nodeFetch })).findings.map((f) => f.code);

  it('key-404: the key answers 404 and the inspector reports HLS-KEY-UNAVAILABLE', async () => {
    assert.ok(!(await found(small.hlsUrl!)).includes('HLS-KEY-UNAVAILABLE'), 'the key answers without the fault');
    await inject(tp.platform.baseUrl, [{ target: videoId, fault: 'key-404' }]);
    const playlist = await (await fetch(small.hlsUrl!)).text();
    const keyUri = /URI="([^"]+)"/.exec(playlist)![1];
    assert.equal((await fetch(new URL(keyUri, small.hlsUrl!))).status, 404);
    assert.ok((await found(small.hlsUrl!)).includes('HLS-KEY-UNAVAILABLE'));
  });

  it('a rule by variant (template name or resolution) hits that rendition only', async () => {
    await inject(tp.platform.baseUrl, [{ target: videoId, fault: 'status', code: 502, variant: 'tiny' }]);
    assert.equal((await fetch(tiny.hlsUrl!)).status, 502);
    assert.equal((await fetch(small.hlsUrl!)).status, 200);
    await clearFaults(tp.platform.baseUrl);
    await inject(tp.platform.baseUrl, [{ target: '*', fault: 'status', code: 502, variant: '320x180' }]);
    assert.equal((await fetch(tiny.hlsUrl!)).status, 200);
    assert.equal((await fetch(small.hlsUrl!)).status, 502);
  });

  it('segment-drop by segment index: the inspector reports HLS-TIMESTAMP-JUMP', async () => {
    assert.ok(!(await found(tiny.hlsUrl!)).includes('HLS-TIMESTAMP-JUMP'));
    await inject(tp.platform.baseUrl, [{ target: videoId, fault: 'segment-drop', segmentIndex: 1 }]);
    const text = await (await fetch(tiny.hlsUrl!)).text();
    assert.doesNotMatch(text, /-seg001\.ts/);
    assert.ok((await found(tiny.hlsUrl!)).includes('HLS-TIMESTAMP-JUMP'));
  });
});
