import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '../../src/api/client';
import type { Channel } from '../../src/api/types';
import { ChannelNode, type TreeNode } from '../../src/app/tree/nodes';
import { startLocalPlatform, type LocalPlatform } from '../../src/localPlatform/server';
import { eventually } from '../helpers/eventually';
import { loadTools, pushTestPattern, type Encoder } from '../localPlatform/live/media';
import { createHarness, type Harness } from './helpers/harness';
import { ACCESS_KEY, SECRET_KEY } from './helpers/platform';

/** The platform's answered requests by action, so a test can tell list reads from reads by id. */
class Requests {
  readonly actions: string[] = [];
  count(action: string, since = 0): number {
    return this.actions.slice(since).filter((candidate) => candidate === action).length;
  }
}

async function startPlatform(
  requests: Requests,
  live?: { rtmpPort: number; npmFallback: boolean },
): Promise<{ platform: LocalPlatform; client: PlatformClient; close(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vp-live-watch-'));
  const platform = await startLocalPlatform({
    dataDir,
    accounts: [{ accessKey: ACCESS_KEY, secretKey: SECRET_KEY }],
    host: '127.0.0.1',
    port: 0,
    demo: false,
    onRequest: (entry) => requests.actions.push(entry.action),
    ...(live ? { live } : {}),
  });
  const client = new PlatformClient({ baseUrl: platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
  return {
    platform,
    client,
    async close() {
      await client.close();
      await platform.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function pushChannel(client: PlatformClient, name: string): Promise<Channel> {
  const template = await client.liveTemplateCreate({
    displayName: `${name} 180p`,
    videoWidth: 320,
    videoHeight: 180,
    videoBitrate: 300,
  });
  return client.liveCreateChannel({
    name,
    signalType: '1',
    outputGroupList: [{ protocolType: 1, outputTemplateList: [{ templateId: template.id, isDefault: '1' }] }],
  });
}

/** What the row shows: the view's description of the channel, as the tree draws it now. */
async function rowOf(harness: Harness, name: string): Promise<string> {
  const roots: TreeNode[] = await harness.channels.getChildren();
  const node = roots.find(
    (candidate): candidate is ChannelNode => candidate instanceof ChannelNode && candidate.channel.name === name,
  );
  return String(node?.view().description ?? '(no row)');
}

describe('Live channels view follows live channels without a Refresh', function () {
  this.timeout(60_000);
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.dispose();
    harness = undefined;
  });

  describe('simulated live (no ffmpeg)', () => {
    const requests = new Requests();
    let platform: Awaited<ReturnType<typeof startPlatform>>;
    const ids: string[] = [];

    before(async () => {
      platform = await startPlatform(requests);
      for (const name of ['Live A', 'Live B', 'Live C', 'Idle D'])
        ids.push((await pushChannel(platform.client, name)).id);
      for (const id of ids.slice(0, 3)) await platform.client.liveStartChannel(id);
    });
    after(async () => platform.close());

    it('reads the live channels again with one list request per page, and shows a stop made elsewhere', async () => {
      harness = await createHarness({
        account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
        pageSize: 2,
        liveRefreshMs: 100,
      });
      // Two pages of two: the three live channels are on both.
      for (const id of ids)
        assert.ok(await harness.channels.locateChannel(id), 'loads pages until it lists the channel');
      assert.equal(harness.channels.loadedChannels().length, 4);
      assert.match(await rowOf(harness, 'Live A'), /^Live · /);

      const since = requests.actions.length;
      harness.ctx.poller.channels.setVisible(true);
      await platform.client.liveStopChannel(ids[0]!);
      await eventually('the row of the channel stopped elsewhere to say so', async () =>
        (await rowOf(harness!, 'Live A')).startsWith('Stopped'),
      );
      assert.equal(requests.count('liveGetChannelById', since), 0, 'no read per channel');
      assert.ok(requests.count('liveGetChannelsByPage', since) >= 1);
      assert.match(await rowOf(harness, 'Live B'), /^Live · /);
      assert.match(await rowOf(harness, 'Idle D'), /^New/);
    });

    it('stops polling when the view is hidden, and when no channel is live any longer', async () => {
      harness = await createHarness({
        account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
        liveRefreshMs: 100,
      });
      await harness.channels.getChildren();
      const poller = harness.ctx.poller.channels;
      poller.setVisible(true);
      assert.ok(poller.scheduled, 'live channels are followed while the view is visible');
      poller.setVisible(false);
      assert.ok(!poller.scheduled, 'nothing is read while the view is hidden');

      poller.setVisible(true);
      for (const id of ids.slice(1, 3)) await platform.client.liveStopChannel(id);
      await eventually('every row to say Stopped, and the polling to end', async () => {
        const rows = await Promise.all(['Live B', 'Live C'].map((name) => rowOf(harness!, name)));
        return rows.every((row) => row.startsWith('Stopped')) && !poller.scheduled;
      });
    });
  });

  describe('a channel pushed by ffmpeg', () => {
    const requests = new Requests();
    let platform: Awaited<ReturnType<typeof startPlatform>>;
    let channel: Channel;
    let encoder: Encoder | undefined;

    before(async () => {
      await loadTools();
      platform = await startPlatform(requests, { rtmpPort: 0, npmFallback: true });
      channel = await pushChannel(platform.client, 'Pushed');
    });
    after(async () => {
      await encoder?.kill();
      await platform.close();
    });

    it('goes from "no source" to "source present" and back as the encoder pushes and stops', async () => {
      harness = await createHarness({
        account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
        liveRefreshMs: 500,
      });
      await harness.channels.getChildren();
      harness.ctx.poller.channels.setVisible(true);
      // Started here as the Start command does: the result applied, the poller kicked.
      harness.channels.applyChannel(await platform.client.liveStartChannel(channel.id), harness.connection.epoch);
      harness.ctx.poller.channels.kick();
      await eventually(
        'the started channel to show "no source"',
        async () => /^Live, no source/.test(await rowOf(harness!, 'Pushed')),
        30_000,
      );

      encoder = pushTestPattern(channel.pushUrl, 60);
      await eventually(
        'the row to show "source present" while the encoder pushes',
        async () => /^Live · /.test(await rowOf(harness!, 'Pushed')),
        30_000,
      );
      await encoder.kill();
      await eventually(
        'the row to show "no source" once the encoder stopped',
        async () => /^Live, no source/.test(await rowOf(harness!, 'Pushed')),
        30_000,
      );
    });
  });
});
