/**
 * Demo data with real media: the start is not held up, and in the background every demo video that
 * is meant to be transcoded or is being transcoded ends as status 2 with renditions that ffprobe reads,
 * the title burned in. From the first answer on, a video listed as done (2) has every rendition address
 * answering, and no status goes back (queued 7 -> transcoding 6 or 1 -> done 2). The slowest media test
 * (~40 s on 2 cores: the demo's 1080p and 4K profiles), run once.
 */
import * as assert from 'node:assert/strict';
import type { Video } from '../../../src/api/types';
import { DEMO_CLIP_SECONDS } from '../../../src/localPlatform/media/demoMedia';
import type { MediaTools } from '../../../src/media/tools';
import { TestPlatform } from '../harness';
import { checkPictures, mediaTools, probeUrl, rawGet, removeCopies } from './helpers';

/** The order of video statuses: uploaded 0, queued 7, transcoding 6 (or 1, the first), then done, failed. */
const STEP: Record<number, number> = { 0: 0, 7: 1, 6: 2, 1: 2, 2: 3, 3: 3, 4: 3, 5: 3 };

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
    // The videos meant to be done are transcoding until their renditions exist.
    assert.deepEqual(titles([1, 6, 7]), [
      'Keynote',
      'Match highlights',
      'Product demo',
      'Queued interview',
      'VR walkthrough',
      'Welcome tour',
    ]);
    assert.deepEqual(titles([2]), []);
    // The saved-as item too (transcoded from its parent's source).
    const watched = first.filter((v) => [1, 2, 6, 7].includes(v.status)).map((v) => v.id);
    assert.ok(first.some((v) => v.parentId && watched.includes(v.id)));
    // The saved-as item has no pictures of its own until its transcoding writes them.
    const item = first.find((v) => v.parentId)!;
    assert.equal(item.cover, '', 'the saved-as item before its transcoding');
    const served = async (address: string | null | undefined): Promise<boolean> =>
      !!address && (await rawGet(tp.platform.port, new URL(address).pathname)).status === 200;
    let all: Video[] = [];
    let videos: Video[] = [];
    const lastStatus = new Map(first.map((v) => [v.id, v.status]));
    for (;;) {
      all = await list();
      for (const v of all) {
        const before = lastStatus.get(v.id) ?? v.status;
        assert.ok(STEP[v.status] >= STEP[before], `${v.title}: status ${before} -> ${v.status} goes back`);
        lastStatus.set(v.id, v.status);
        if (v.status !== 2) continue;
        // Listed as done: every rendition it names answers at that moment.
        for (const s of v.transcodedVideoList) {
          for (const address of [s.hlsUrl, s.mp4Url].filter(Boolean)) {
            assert.ok(await served(address), `${v.title}: ${address} listed with status 2 answers`);
          }
        }
      }
      // Every picture address of every answer is served ("" where there is none), also while media is made.
      for (const v of all) await checkPictures(tp.platform.port, v);
      const now = all.find((v) => v.id === item.id)!;
      // Its cover comes in the same answer as its status 2 and renditions (a new record, no stale cached JSON).
      if (
        now.status === 2 &&
        (await served(now.transcodedVideoList[0]?.mp4Url ?? now.transcodedVideoList[0]?.hlsUrl))
      ) {
        assert.notEqual(now.cover, '', 'the saved-as item once transcoded');
      }
      videos = all.filter((v) => watched.includes(v.id));
      const played = await Promise.all(
        videos.map(async (v) => served(v.transcodedVideoList[0]?.hlsUrl ?? v.transcodedVideoList[0]?.mp4Url)),
      );
      const pictured = all.filter((v) => [0, 3].includes(v.status)).every((v) => v.cover !== '');
      if (pictured && videos.every((v, i) => v.status === 3 || (v.status === 2 && played[i]))) break;
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
      assert.equal(await checkPictures(tp.platform.port, v), true, `${v.title} cover`);
    }
    // A raw upload and a failed encode have their source, so pictures as an upload captures them; a failed
    // upload and a document have none: "" rather than addresses that answer 404.
    const byTitle = (title: string): Video => all.find((v) => v.title === title && !v.parentId)!;
    for (const title of ['Raw upload', 'Broken encode'])
      assert.equal(await checkPictures(tp.platform.port, byTitle(title)), true, title);
    for (const title of ['Interrupted upload', 'Meeting notes']) {
      assert.equal(byTitle(title).cover, '', title);
      assert.equal(byTitle(title).thumbnail, '', title);
    }
    // The Corner logo of the default group has an image the platform serves.
    assert.equal((await rawGet(tp.platform.port, '/logo/logos/corner.png')).status, 200);
  });
});
