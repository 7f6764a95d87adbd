/**
 * Demo data with real media: the start is not held up, and in the background every demo video that
 * was transcoded or being transcoded (statuses 1, 2, 6, 7) ends as status 2 with renditions that
 * ffprobe reads, the title burned in. The slowest media test (~40 s on 2 cores: the demo's 1080p and
 * 4K profiles), run once.
 */
import * as assert from 'node:assert/strict';
import type { Video } from '../../../src/api/types';
import { DEMO_CLIP_SECONDS } from '../../../src/localPlatform/media/demoMedia';
import type { MediaTools } from '../../../src/media/tools';
import { TestPlatform } from '../harness';
import { mediaTools, probeUrl, rawGet, removeCopies } from './helpers';

describe('local platform media: demo videos', function () {
  this.timeout(300_000);
  let tools: MediaTools;
  let tp: TestPlatform;

  before(async function () {
    const found = await mediaTools();
    if (!found) this.skip();
    tools = found;
    tp = await TestPlatform.start({ demo: true, media: { npmFallback: true, preset: 'ultrafast' } });
  });

  after(async () => {
    await tp?.close();
    await removeCopies();
  });

  it('answers at once, then finishes the demo videos in statuses 1, 6 and 7 and makes the done ones real', async () => {
    const client = tp.client();
    const list = async (): Promise<Video[]> => [
      ...(await client.queryVideo({ start: 1, number: 100, sort: 'title', order: 'asc' })),
      ...(await client.queryVideo({ start: 1, number: 100, sort: 'title', order: 'asc', videoType: 1 })),
    ];
    const first = await list();
    const titles = (statuses: number[]) =>
      first
        .filter((v) => statuses.includes(v.status) && !v.parentId)
        .map((v) => v.title)
        .sort();
    assert.deepEqual(titles([1, 6, 7]), ['Keynote', 'Product demo', 'Queued interview']);
    // The saved-as item too (transcoded from its parent's source).
    const watched = first.filter((v) => [1, 2, 6, 7].includes(v.status)).map((v) => v.id);
    assert.ok(first.some((v) => v.parentId && watched.includes(v.id)));
    let videos: Video[] = [];
    for (;;) {
      videos = (await list()).filter((v) => watched.includes(v.id));
      const withFiles = await Promise.all(
        videos.map(async (v) => (await rawGet(tp.platform.port, new URL(v.cover).pathname)).status === 200),
      );
      if (videos.every((v, i) => v.status === 3 || (v.status === 2 && withFiles[i]))) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    for (const v of videos) {
      assert.equal(v.status, 2, v.title);
      assert.equal(v.duration, DEMO_CLIP_SECONDS * 1000, v.title);
      assert.ok(v.transcodedVideoList.length > 0, v.title);
      const s = v.transcodedVideoList[0];
      const url = s.hlsUrl ?? s.mp4Url!;
      const p = await probeUrl(tools, url);
      const video = p.streams.find((x) => x.codec_type === 'video')!;
      assert.equal(`${video.width}x${video.height}`, `${s.videoWidth}x${s.videoHeight}`, v.title);
      assert.equal((await rawGet(tp.platform.port, new URL(v.cover).pathname)).status, 200, `${v.title} cover`);
    }
    // The Corner logo of the default group has an image the platform serves.
    assert.equal((await rawGet(tp.platform.port, '/logo/logos/corner.png')).status, 200);
  });
});
