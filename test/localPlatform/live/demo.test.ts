/** The demo's test-pattern channel plays from the first start when real media runs. */
import * as assert from 'node:assert/strict';
import { DEMO_NAMES } from '../../../src/localPlatform/demo';
import { TestPlatform } from '../harness';
import { httpGet, loadTools, probeUrl, waitFor } from './media';

describe('local platform: demo live channel on the test pattern (real ffmpeg)', function () {
  this.timeout(60_000);
  let p: TestPlatform;
  before(async () => {
    await loadTools();
    p = await TestPlatform.start({ demo: true, live: { npmFallback: true, rtmpPort: 0 } });
  });
  after(async () => {
    await p.close();
  });

  it('is live with a source and plays as HLS; the pushed demo channel waits for an encoder', async () => {
    const client = p.client();
    const { channels: items } = await client.liveGetChannelsByPage({ number: 50 });
    const pattern = items.find((c) => c.name === DEMO_NAMES.channels.pattern)!;
    const newsroom = items.find((c) => c.name === DEMO_NAMES.channels.live)!;
    const live = await waitFor('source present', async () => {
      const ch = await client.liveGetChannelById(pattern.id);
      return ch.streamStatus === 1 && ch.streamWidth ? ch : undefined;
    });
    assert.equal(live.status, 2);
    assert.equal(live.streamWidth, 854);
    const [urls] = await client.liveGetChannelsPlayUrl(pattern.id);
    await waitFor('playlist', async () => ((await httpGet(urls.playUrl)).status === 200 ? true : undefined));
    const probed = await probeUrl(urls.playUrl);
    assert.ok(probed.streams.some((s) => s.codec_type === 'video' && s.height === 480));
    const waiting = await client.liveGetChannelById(newsroom.id);
    assert.equal(waiting.status, 2);
    assert.equal(waiting.streamStatus, 2, 'no encoder pushes to the newsroom');
  });
});
