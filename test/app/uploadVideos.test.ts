/**
 * Upload Video through the command table's wrapper, with the scripted Ui, against the local platform with
 * real media (ffmpeg): files from the Explorer (several, non-media left out) or the file dialog, category
 * and template group picked, progress in bytes and percent, cancel, the new videos in the tree and followed
 * until their transcoding ends; a refusal reported by the wrapper's wording.
 */
import * as assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PlatformClient } from '../../src/api/client';
import { uploadVideos } from '../../src/app/commands/uploadVideos';
import { VideoNode } from '../../src/app/tree/nodes';
import type { MediaTools } from '../../src/media/tools';
import { eventually } from '../helpers/eventually';
import { removeDir, tempDir } from '../localPlatform/harness';
import { makeClip, mediaTools } from '../localPlatform/media/helpers';
import { createHarness, type Harness } from './helpers/harness';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from './helpers/platform';
import { choose, dismissPick, openFiles } from './helpers/scriptedUi';

describe('Upload Video (real media)', function () {
  this.timeout(120_000);
  let tools: MediaTools;
  let dir: string;
  let clipA: string;
  let clipB: string;
  let platform: TestPlatform;
  let client: PlatformClient;
  let harness: Harness;

  before(async function () {
    const found = await mediaTools();
    if (!found) this.skip();
    tools = found;
    dir = await tempDir();
    clipA = await makeClip(tools, dir, 'first clip.mp4', 2, 160, 90);
    clipB = await makeClip(tools, dir, 'second.mp4', 2, 160, 90);
    platform = await startTestPlatform({ media: { npmFallback: true } });
    client = new PlatformClient({ baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
    await client.templateGroup({
      name: 'Tiny MP4',
      type: 0,
      trailor: false,
      trailorDuration: 0,
      logoGroupId: 0,
      transcodeTemplates: [
        {
          name: 'tiny',
          videoWidth: 128,
          videoHeight: 72,
          videoBitrate: 100,
          audioBitrate: 32000,
          format: 1,
          encryptType: 0,
          defaultVideo: 1,
        },
      ],
    });
  });
  beforeEach(async () => {
    harness = await createHarness({
      account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
    });
  });
  afterEach(async () => harness?.dispose());
  after(async () => {
    await client?.close();
    await platform?.close();
    if (dir) await removeDir(dir);
  });

  it('uploads the media files chosen in the Explorer with a category and a group, shows them and follows them', async () => {
    const notes = join(dir, 'notes.txt');
    await writeFile(notes, 'not media');
    // The demo's videos are listed: their categories are offered.
    await harness.videos.getChildren();
    harness.ui.script(choose('Tutorials'), choose('Tiny MP4'));
    const outcome = await harness.run(uploadVideos, { files: [clipA, notes, clipB] });

    assert.ok(outcome, harness.ui.errors.join('\n'));
    assert.deepEqual(
      outcome.uploaded.map((video) => video.fileName),
      ['first clip.mp4', 'second.mp4'],
    );
    assert.deepEqual(harness.ui.errors, []);
    assert.match(harness.log.text(), /1 selected file is not media and left out/);
    assert.deepEqual(harness.ui.progress, ['Uploading 2 files']);
    // Bytes and percent for each file; the increments fill the bar once.
    const messages = harness.ui.reports.map((report) => report.message);
    assert.ok(
      messages.some((m) => /^first clip\.mp4: 0\.0 MB of \d+\.\d MB \(0%\)$/.test(m)),
      messages.join('\n'),
    );
    assert.ok(
      messages.some((m) => /^second\.mp4: \d+\.\d MB of \d+\.\d MB \(100%\)$/.test(m)),
      messages.join('\n'),
    );
    const filled = harness.ui.reports.reduce((sum, report) => sum + (report.increment ?? 0), 0);
    assert.ok(Math.abs(filled - 100) < 0.001, `the bar filled to ${filled}%`);
    assert.match(harness.ui.infos.at(-1) ?? '', /^Uploaded 2 videos; the Videos view follows their transcoding/);

    const tutorials = (await client.queryVideo({ start: 1, number: 100, sort: 'uploadTime', order: 'desc' })).find(
      (video) => video.category === 'Tutorials',
    )!.categoryId;
    for (const { videoId } of outcome.uploaded) {
      const video = await client.getVideoInfo(videoId);
      assert.equal(video.categoryId, tutorials);
      assert.deepEqual([video.width, video.height], [160, 90]);
    }
    // In the tree (refreshed), and followed by the poller until they settle.
    const listed = (await harness.videos.getChildren())
      .filter((node): node is VideoNode => node instanceof VideoNode)
      .map((node) => node.video.id);
    for (const { videoId } of outcome.uploaded) assert.ok(listed.includes(videoId), `${videoId} is listed`);
    assert.ok(harness.polled.videos >= 1, 'the poller was kicked');
    // Both done on the platform before the view looks again: the user is still told each one finished.
    for (const { videoId } of outcome.uploaded)
      await eventually(
        'the transcoding to end',
        async () => [2, 3].includes((await client.getVideoInfo(videoId)).status),
        90_000,
      );
    await harness.videos.pollSettling();
    assert.equal(harness.ui.infos.filter((info) => info.startsWith('Transcoding finished')).length, 2);
    const following = harness.videos.settlingIds();
    for (const { videoId } of outcome.uploaded) assert.ok(!following.includes(videoId), 'no longer followed');
    const done = await client.getVideoInfo(outcome.uploaded[0]!.videoId);
    assert.deepEqual(
      done.transcodedVideoList.map((s) => `${s.videoWidth}x${s.videoHeight}`),
      ['128x72'],
    );
  });

  it('from the Videos view asks for the files; "None" keeps them as uploaded', async () => {
    harness.ui.script(openFiles(clipA), choose('No category'), choose('None: no transcoding'));
    const outcome = await harness.run(uploadVideos, {});
    assert.equal(outcome?.uploaded.length, 1, harness.ui.errors.join('\n'));
    assert.equal(harness.ui.asked[0]?.kind, 'files');
    assert.equal(harness.ui.infos.at(-1), 'Uploaded "first clip.mp4".');
    const video = await client.getVideoInfo(outcome!.uploaded[0]!.videoId);
    assert.equal(video.status, 0);
    assert.equal(video.categoryId, 0);
  });

  it('stops on Cancel: no error shown, the platform keeps the cut-off upload as failed (status 4)', async () => {
    const big = join(dir, 'big.mp4');
    await writeFile(big, Buffer.alloc(64 * 1024 * 1024, 1));
    harness.ui.cancelWhen = (message) => /big\.mp4: [1-9]\d*\.\d MB/.test(message);
    harness.ui.script(choose('No category'), choose('None: no transcoding'));
    const outcome = await harness.run(uploadVideos, { files: [big] });
    assert.deepEqual(outcome?.uploaded, []);
    assert.deepEqual(harness.ui.errors, []);
    assert.match(harness.log.text(), /Upload: cancelled by the user after 0 done/);
    const record = await eventually('the cut-off upload recorded', async () =>
      (await client.queryVideo({ start: 1, number: 100, sort: 'uploadTime', order: 'desc' })).find(
        (video) => video.fileName === 'big.mp4',
      ),
    );
    assert.equal(record.status, 4);
  });

  it('ends quietly when a pick is dismissed, uploading nothing', async () => {
    const before = (await client.queryVideo({ start: 1, number: 1000, sort: 'uploadTime', order: 'desc' })).length;
    harness.ui.script(dismissPick());
    assert.equal(await harness.run(uploadVideos, { files: [clipA] }), undefined);
    assert.deepEqual(harness.ui.errors, []);
    const after = (await client.queryVideo({ start: 1, number: 1000, sort: 'uploadTime', order: 'desc' })).length;
    assert.equal(after, before);
  });
});

describe('Upload Video (simulated media)', function () {
  this.timeout(60_000);
  let platform: TestPlatform;
  let dir: string;

  before(async () => {
    platform = await startTestPlatform();
    dir = await tempDir();
  });
  after(async () => {
    await platform?.close();
    if (dir) await removeDir(dir);
  });

  it("reports the platform's refusal with the command's wording and Show Log", async () => {
    const file = join(dir, 'clip.mp4');
    await writeFile(file, 'bytes');
    const harness = await createHarness({
      account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
    });
    try {
      harness.ui.script(choose('No category'), choose('Default group'));
      await harness.run(uploadVideos, { files: [file] });
      assert.equal(harness.ui.errors.length, 1);
      assert.match(harness.ui.errors[0]!, /^Upload "clip\.mp4" failed: .*uploads need real media: simulated media/);
      assert.deepEqual(harness.ui.errorActions[0], ['Show Log']);
      assert.ok(!harness.ui.everythingShown().includes(SECRET_KEY));
    } finally {
      await harness.dispose();
    }
  });
});
