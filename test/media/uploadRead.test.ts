/**
 * Uploads measured in-process (src/media/read.ts) by the local platform over real HTTP: a playlist, a concat list
 * or any file naming other files is "not media" (status 5), however real the media it names; an MPEG-TS upload is
 * measured as ffprobe would (width, height, duration).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PlatformClient } from '../../src/api/client';
import type { Video } from '../../src/api/types';
import { readMedia } from '../../src/media/read';
import { runTool } from '../../src/media/tools';
import { removeDir, tempDir, TestPlatform } from '../localPlatform/harness';
import { mediaTools, upload } from '../localPlatform/media/helpers';
import { eventually } from '../helpers/eventually';

describe('media reader: uploads are read as the container their bytes are', function () {
  this.timeout(120_000);
  let dir: string;
  let tp: TestPlatform;
  let client: PlatformClient;
  let token: string;
  let segment: string;

  before(async () => {
    const tools = await mediaTools();
    if (!tools) throw new Error('these tests make media with ffmpeg');
    dir = await tempDir();
    segment = join(dir, 'clip.ts');
    await runTool(tools.ffmpeg, [
      ...['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25:duration=2'],
      ...['-f', 'lavfi', '-i', 'sine=duration=2', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25'],
      ...['-c:a', 'aac', '-f', 'mpegts', segment],
    ]);
    tp = await TestPlatform.start({ media: { npmFallback: true } });
    client = tp.client();
    token = (await client.getToken()).accessToken;
  });
  after(async () => {
    await tp?.close();
    await removeDir(dir);
  });

  it('keeps a playlist or a concat list naming a local media file as not media (status 5)', async () => {
    const indirect = [
      ['list.m3u8', `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nfile://${segment}\n#EXT-X-ENDLIST\n`],
      ['list.txt', `ffconcat version 1.0\nfile '${segment}'\n`],
    ] as const;
    for (const [name, text] of indirect) {
      const answer = await upload(tp.platform.baseUrl, { token }, { name, data: Buffer.from(text) });
      assert.equal(answer.code, 0, answer.message);
      const video = await measured(client, answer.result![0]!.videoId);
      assert.equal(video.status, 5, `${name} became a video`);
      assert.equal(video.width ?? 0, 0);
    }
  });

  it('measures an MPEG-TS upload in-process: picture and duration', async () => {
    const answer = await upload(tp.platform.baseUrl, { token }, { name: 'clip.ts', data: await readFile(segment) });
    assert.equal(answer.code, 0, answer.message);
    const video = await measured(client, answer.result![0]!.videoId);
    assert.notEqual(video.status, 5);
    const read = await readMedia(segment);
    assert.deepEqual([video.width, video.height], [320, 180]);
    assert.equal(video.duration, Math.round(read.duration * 1000));
    assert.ok(Math.abs(video.duration! - 2000) < 100, String(video.duration));
  });
});

/** The upload's video once it was measured (0 normal, 2 transcoded, 5 not media, 7 failed). */
function measured(client: PlatformClient, videoId: string): Promise<Video> {
  return eventually(
    `video ${videoId} to be measured`,
    async () => {
      const video = await client.getVideoInfo(videoId);
      return [0, 2, 5, 7].includes(video.status) && video;
    },
    60_000,
  );
}
