/** Following a transcoding video through a moment when the platform cannot be reached. */
import assert from 'node:assert/strict';
import { PlatformClient } from '../../src/api/client';
import type { Video } from '../../src/api/types';
import { transcodeVideos } from '../../src/app/commands/transcodeVideos';
import { VideoNode } from '../../src/app/tree/nodes';
import { startLocalPlatform, type LocalPlatform } from '../../src/localPlatform/server';
import { eventually } from '../helpers/eventually';
import { createHarness, type Harness } from './helpers/harness';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from './helpers/platform';
import { choose } from './helpers/scriptedUi';

describe('Videos view: following a transcoding', () => {
  let platform: TestPlatform;
  let restarted: LocalPlatform | undefined;
  let harness: Harness;

  before(async () => {
    // Slow enough (queued 0.5 s, running 2 s) for the platform to be down while the video transcodes.
    platform = await startTestPlatform({ clockSpeed: 4 });
    harness = await createHarness({
      account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
    });
  });
  after(async () => {
    await harness.dispose();
    await restarted?.close();
    await platform.close();
  });

  it('keeps following a video while the platform cannot be reached, and reports it when done', async () => {
    const client = new PlatformClient({
      baseUrl: platform.platform.baseUrl,
      accessKey: ACCESS_KEY,
      secretKey: SECRET_KEY,
    });
    const [video] = (
      await client.queryVideo({
        start: 1,
        number: 50,
        sort: 'uploadTime',
        order: 'desc',
        searchType: 'title',
        keyword: 'Match highlights',
      })
    ).filter((candidate: Video) => candidate.title === 'Match highlights');
    await client.close();
    assert.ok(video);
    await harness.videos.getChildren();
    const node = new VideoNode(video);
    harness.ui.script(choose('Mobile HLS'), choose('Replace'));
    const outcome = await harness.run(transcodeVideos, { node });
    assert.equal(outcome?.results[0]?.code, 0);
    const finished: Video[] = [];
    harness.videos.onSettled((settled) => finished.push(settled));

    // The platform goes away mid-transcoding: the round fails, and the video is still followed.
    const port = Number(new URL(platform.platform.baseUrl).port);
    await platform.platform.close();
    const failures = await harness.videos.pollSettling();
    assert.equal(failures.length >= 1, true, 'the round failed while the platform was down');
    assert.ok(harness.videos.settlingIds().includes(video.id), 'still followed after a network failure');

    // Back on the same address with the same data: the transcoding completes and is reported.
    restarted = await startLocalPlatform({
      dataDir: platform.dataDir,
      accounts: [{ accessKey: ACCESS_KEY, secretKey: SECRET_KEY }],
      host: '127.0.0.1',
      port,
      clockSpeed: 4,
    });
    await eventually('the transcoding to be reported done', async () => {
      await harness.videos.pollSettling();
      return finished.some((settled) => settled.id === video.id);
    });
    assert.equal(finished.find((settled) => settled.id === video.id)?.status, 2);
  });
});
