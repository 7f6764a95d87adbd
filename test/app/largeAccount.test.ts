import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '../../src/api/client';
import { openChannelAsFileCommand } from '../../src/app/authoring/commands';
import { createChannel } from '../../src/app/commands/createChannel';
import { clearChannelFilter, filterChannels } from '../../src/app/commands/filterCommands';
import { showVideoPlayAddresses } from '../../src/app/commands/playAddresses';
import { ChannelNode, LoadMoreNode, type TreeNode } from '../../src/app/tree/nodes';
import type { PickItem } from '../../src/app/ui';
import { startLocalPlatform, type LocalPlatform } from '../../src/localPlatform/server';
import { bulkChannelName, bulkVideoTitle, seedLargeAccount } from '../e2e/largeAccount';
import { createHarness, type Harness } from './helpers/harness';
import { ACCESS_KEY, SECRET_KEY } from './helpers/platform';
import { choose, chooseMany, type } from './helpers/scriptedUi';

const CHANNELS = 10_000;
const VIDEOS = 2_000;

const rows = (items: readonly PickItem<unknown>[] | undefined): string[] =>
  (items ?? []).filter((item) => !item.separator).map((item) => item.label);
const channelsOf = (nodes: TreeNode[]): ChannelNode[] =>
  nodes.filter((node): node is ChannelNode => node instanceof ChannelNode);

/**
 * An account of 10,000 channels and 2,000 videos (seeded into the store, as the workbench flows' large
 * account is): picks reach every record, the views say how many there are and which filter is in force, and a
 * new channel shows without reading thousands of pages.
 */
describe('Large accounts: picks, view descriptions and a new channel among 10,000', function () {
  this.timeout(120_000);
  let dataDir: string;
  let platform: LocalPlatform;
  let client: PlatformClient;
  let harness: Harness;
  const account = (): { baseUrl: string; accessKey: string; secretKey: string } => ({
    baseUrl: platform.baseUrl,
    accessKey: ACCESS_KEY,
    secretKey: SECRET_KEY,
  });
  const channelRequests = (): number => harness.log.lines.filter((line) => / liveGetChannelsByPage /.test(line)).length;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'vp-large-'));
    await seedLargeAccount(dataDir, ACCESS_KEY, { channels: CHANNELS, videos: VIDEOS });
    platform = await startLocalPlatform({
      dataDir,
      accounts: [{ accessKey: ACCESS_KEY, secretKey: SECRET_KEY }],
      host: '127.0.0.1',
      port: 0,
      demo: false,
      clockSpeed: 200,
    });
    client = new PlatformClient({ baseUrl: platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
  });
  after(async () => {
    await client.close();
    await platform.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  afterEach(async () => harness?.dispose());

  it('opens any of 10,000 channels as a file from the palette, through the search row', async () => {
    harness = await createHarness({ account: account() });
    const far = bulkChannelName(7321);
    harness.ui.script(choose('Search channels by name'), type('7321'), choose(far));
    await harness.run(openChannelAsFileCommand);
    assert.deepEqual(harness.ui.errors, []);
    const first = harness.ui.asked[0]!;
    assert.ok(!rows(first.items).includes(far), 'beyond the first page of the pick');
    assert.match(
      first.items!.find((item) => item.label.includes('Search'))?.description ?? '',
      /10,000 channels in all; the first 100 are listed/,
    );
    const opened = harness.editor.openDocuments()[0]!;
    assert.match(opened.fileName, /\.channel\.json$/);
    assert.equal((JSON.parse(opened.text()) as { name: string }).name, far);
  });

  it('reaches any of 2,000 videos from a palette pick by searching titles', async () => {
    harness = await createHarness({ account: account() });
    const far = bulkVideoTitle(1234);
    harness.ui.script(chooseMany('Search videos by title'), type('video 1234'), {
      kind: 'pickMany',
      answer: (items) => items.filter((item) => item.label === far).map((item) => item.value),
    });
    harness.ui.script(choose('HLS'), choose('Copy address'));
    const used = await harness.run(showVideoPlayAddresses);
    assert.deepEqual(harness.ui.errors, []);
    assert.ok(!rows(harness.ui.asked[0]!.items).includes(far));
    assert.match(used?.address.what ?? '', new RegExp(`"${far}"`));
  });

  it('describes the views with totals (thousands separated) and the filter in force', async () => {
    harness = await createHarness({ account: account() });
    const more = (await harness.channels.getChildren()).at(-1);
    assert.equal(harness.channels.description, '10,000 channels');
    assert.ok(more instanceof LoadMoreNode);
    assert.match(more.view().label, /^Load more \(\d+ of 10,000\)$/, 'thousands separated, as the description');
    await harness.videos.getChildren();
    assert.equal(harness.videos.description, '50+ videos', 'queryVideo tells no total: what is loaded so far');

    harness.channels.setFilter({ searchType: 'name', keyword: 'channel 00' });
    await harness.channels.getChildren();
    assert.equal(harness.channels.description, '99 channels · name ~ "channel 00"');
  });

  it('filters to live channels only, reading pages sorted by status until the first one not running', async () => {
    const live = [bulkChannelName(17), bulkChannelName(9001)];
    const ids: string[] = [];
    for (const name of live) {
      const [found] = (await client.liveGetChannelsByPage({ searchType: 'name', keyword: name })).channels;
      ids.push(found!.id);
      await client.liveStartChannel(found!.id);
    }
    try {
      harness = await createHarness({ account: account() });
      harness.ui.script(choose('Live only'));
      const filter = await harness.run(filterChannels);
      assert.equal(filter?.liveOnly, true);
      const children = await harness.channels.getChildren();
      assert.deepEqual(
        channelsOf(children)
          .map((node) => node.channel.name)
          .sort(),
        live,
      );
      assert.ok(!children.some((node) => node instanceof LoadMoreNode), 'no Load more after the running ones');
      assert.equal(harness.channels.description, '2 channels · live only');
      assert.equal(channelRequests(), 1, 'one page was enough');

      // Clear Filter clears the grouping too.
      harness.channels.setGrouping(true);
      assert.match(harness.channels.description, /grouped by category/);
      await harness.run(clearChannelFilter);
      assert.equal(harness.channels.groupedByCategory, false);
      assert.deepEqual(harness.channels.filter, {});
    } finally {
      for (const id of ids) await client.liveStopChannel(id);
    }
  });

  it('shows a new channel at the top of a list sorted by name without reading the pages before it', async () => {
    harness = await createHarness({ account: account() });
    harness.channels.setFilter({ sort: 'name', order: 'asc' });
    await harness.channels.getChildren();
    const before = channelRequests();
    harness.ui.script(
      type('Zulu desk'),
      choose('Push'),
      choose('No category'),
      chooseMany('HLS'),
      chooseMany(),
      chooseMany('Bulk 720p'),
      choose('Create channel'),
    );
    const channel = await harness.run(createChannel);
    assert.ok(channel, harness.ui.errors.join('\n'));
    assert.deepEqual(harness.revealed, [channel.id]);
    assert.equal(channelRequests() - before, 0, 'no page was read to find it');
    const children = await harness.channels.getChildren();
    assert.equal(channelsOf(children)[0]!.channel.id, channel.id);
    assert.equal(harness.ui.infos.at(-1), 'Created channel "Zulu desk".');
    await client.liveDelete([channel.id]);
  });

  it('says which part of the filter hides a new channel, and clears it when asked', async () => {
    harness = await createHarness({ account: account() });
    harness.channels.setFilter({ searchType: 'name', keyword: 'Bulk' });
    harness.ui.messageChoice = 'Clear Filter';
    harness.ui.script(
      type('Yankee desk'),
      choose('Push'),
      choose('No category'),
      chooseMany('HLS'),
      chooseMany(),
      chooseMany('Bulk 720p'),
      choose('Create channel'),
    );
    const channel = await harness.run(createChannel);
    assert.ok(channel, harness.ui.errors.join('\n'));
    assert.equal(
      harness.ui.infos.at(-1),
      'Created channel "Yankee desk". The Live channels filter hides it (search "Bulk").',
    );
    assert.deepEqual(harness.ui.infoActions.at(-1), ['Clear Filter']);
    assert.deepEqual(harness.channels.filter, {}, 'the filter was cleared on request');
    assert.deepEqual(harness.revealed, [channel.id]);
    await client.liveDelete([channel.id]);
  });
});
