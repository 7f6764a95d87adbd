/**
 * Inspect Stream on a live channel right after it started: its playlists are written seconds after the source
 * arrives. The command waits for them (bounded) and inspects, or says the channel is still starting, never a bare
 * "HTTP 404". Real live media: an ffmpeg encoder pushes a test pattern to the local platform.
 */
import * as assert from 'node:assert/strict';
import { PlatformClient } from '../../src/api/client';
import type { Channel } from '../../src/api/types';
import { inspectStream } from '../../src/app/commands/inspectCommands';
import { ChannelNode } from '../../src/app/tree/nodes';
import { loadTools, pushTestPattern, type Encoder } from '../localPlatform/live/media';
import { createHarness, type Harness } from './helpers/harness';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from './helpers/platform';

describe('Inspect Stream on a live channel that is starting (real live media)', function () {
  this.timeout(120_000);
  let platform: TestPlatform;
  let client: PlatformClient;
  let harness: Harness;
  let channel: Channel;
  let encoder: Encoder | undefined;

  const channelNode = async (): Promise<ChannelNode> => {
    harness.channels.refresh();
    const node = (await harness.channels.getChildren()).find(
      (candidate): candidate is ChannelNode => candidate instanceof ChannelNode && candidate.channel.id === channel.id,
    );
    assert.ok(node, 'the channel is listed');
    return node;
  };

  before(async () => {
    await loadTools();
    platform = await startTestPlatform({ demo: false, live: { npmFallback: true, rtmpPort: 0, maxLiveChannels: 1 } });
    client = new PlatformClient({ baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
    const template = await client.liveTemplateCreate({
      displayName: 'Small',
      videoWidth: 320,
      videoHeight: 180,
      videoBitrate: 300,
    });
    channel = await client.liveCreateChannel({
      name: 'Starting',
      signalType: '1',
      outputGroupList: [{ protocolType: 1, outputTemplateList: [{ templateId: template.id, isDefault: '1' }] }],
    });
    channel = await client.liveStartChannel(channel.id);
    harness = await createHarness({
      account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
    });
    harness.ctx.inspection.live.watchSeconds = 2;
    harness.ctx.inspection.live.startPollMs = 200;
  });
  after(async () => {
    await encoder?.kill();
    await harness?.dispose();
    await client?.liveStopChannel(channel.id).catch(() => undefined);
    await client?.close();
    await platform?.close();
  });

  it('says the channel is still starting when its playlists do not come in time, not "HTTP 404"', async () => {
    harness.ctx.inspection.live.startWaitMs = 1_000;
    const session = await harness.run(inspectStream, { node: await channelNode() });
    assert.equal(session, undefined);
    assert.equal(harness.ui.errors.length, 1);
    assert.match(
      harness.ui.errors[0]!,
      /^Inspect stream failed: the channel "Starting" is still starting: its playlist/,
    );
    assert.doesNotMatch(harness.ui.errors[0]!, /404/);
    assert.ok(harness.ui.progress.some((title) => /^Waiting for the playlists of "Starting"/.test(title)));
  });

  it('waits for the playlists once the source arrives, then inspects the live ladder', async () => {
    harness.ui.errors.length = 0;
    harness.ctx.inspection.live.startWaitMs = 60_000;
    encoder = pushTestPattern((await client.liveGetChannelById(channel.id)).pushUrl, 60);
    // At once, as a user does when the source shows: the playlists are not written yet.
    const session = await harness.run(inspectStream, { node: await channelNode() });
    assert.deepEqual(harness.ui.errors, []);
    assert.ok(session?.report, 'a report');
    assert.equal(session.report.kind, 'hls-master');
    assert.equal(session.report.variants.length, 1);
    session.panel.dispose();
  });
});
