/**
 * Per-account fairness of the transcoding queue (issue 22, item 2): with one job slot, an account
 * that queued several uploads does not keep the slot while another account's upload waits; the
 * slots go round the accounts one job at a time.
 */
import * as assert from 'node:assert/strict';
import type { PlatformClient } from '../../src/api/client';
import type { MediaTools } from '../../src/media/tools';
import { OTHER, removeDir, tempDir, TestPlatform } from './harness';
import { makeClip, mediaTools, uploadFile, SETTLED, waitForStatus } from './media/helpers';

describe('local platform security: job slots shared between accounts', function () {
  this.timeout(180_000);
  let tools: MediaTools;
  let clips: string;
  let tp: TestPlatform;

  before(async function () {
    const found = await mediaTools();
    if (!found) this.skip();
    tools = found;
    clips = await tempDir();
    tp = await TestPlatform.start({ media: { npmFallback: true, maxJobs: 1 } });
  });
  after(async () => {
    await tp?.close();
    await removeDir(clips);
  });

  it("runs another account's upload before the rest of one account's queue", async () => {
    const clip = await makeClip(tools, clips, 'clip.mp4', 6, 320, 180);
    const a = tp.client();
    const b = tp.client(OTHER);
    const upload = async (client: PlatformClient): Promise<string> => {
      const token = (await client.getToken()).accessToken;
      // The built-in MP4 group (720p and 360p): a run of a few seconds.
      const answer = await uploadFile(tp.platform.baseUrl, token, clip, { transcodeTemplateGroupId: '2' });
      assert.equal(answer.code, 0, answer.message);
      return answer.result![0].videoId;
    };
    const first = await upload(a);
    const queued = [await upload(a), await upload(a)];
    const other = await upload(b);
    const done = new Map<string, number>();
    await Promise.all([
      ...[first, ...queued].map(async (id) => {
        await waitForStatus(a, id, SETTLED);
        done.set(id, Date.now());
      }),
      (async () => {
        await waitForStatus(b, other, SETTLED);
        done.set(other, Date.now());
      })(),
    ]);
    const order = [...done.entries()].sort((x, y) => x[1] - y[1]).map(([id]) => id);
    assert.ok(
      order.indexOf(other) < order.indexOf(queued[1]),
      `the other account's video finished before the first account's third (order ${order.map((id) => (id === other ? 'B' : 'A')).join(' ')})`,
    );
    assert.ok(order.indexOf(other) <= 2);
  });
});
