import assert from 'node:assert/strict';
import { PlatformClient } from '../../src/api/client';
import {
  CategoryNode,
  ChannelNode,
  ErrorNode,
  LoadMoreNode,
  MessageNode,
  OutputGroupNode,
  OutputNode,
  type TreeNode,
} from '../../src/app/tree/nodes';
import { createHarness, type Harness } from './helpers/harness';
import { startFaultyServer, type FaultyServer } from './helpers/faultyServer';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from './helpers/platform';
import { eventually } from '../helpers/eventually';

const labels = (nodes: TreeNode[]): string[] => nodes.map((node) => node.view().label);
const channelsOf = (nodes: TreeNode[]): ChannelNode[] =>
  nodes.filter((node): node is ChannelNode => node instanceof ChannelNode);

describe('Live channels view (tree model against the local platform)', () => {
  let platform: TestPlatform;
  let harness: Harness;
  let client: PlatformClient;

  before(async () => {
    platform = await startTestPlatform();
    client = new PlatformClient({ baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
    // Enough channels for several pages.
    const templates = await client.liveGetTemplates();
    for (let i = 1; i <= 7; i++) {
      await client.liveCreateChannel({
        name: `Paging ${i}`,
        signalType: '1',
        outputGroupList: [{ protocolType: 1, outputTemplateList: [{ templateId: templates[0]!.id, isDefault: '1' }] }],
      });
    }
  });
  after(async () => {
    await client.close();
    await platform.close();
  });
  afterEach(async () => harness?.dispose());

  it('shows nothing (the welcome view) without an account', async () => {
    harness = await createHarness();
    assert.deepEqual(await harness.channels.getChildren(), []);
  });

  it('pages with "Load more", keeping loaded pages until refresh', async () => {
    harness = await createHarness({
      account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
      pageSize: 4,
    });
    const first = await harness.channels.getChildren();
    assert.equal(channelsOf(first).length, 4);
    const more = first.at(-1);
    assert.ok(more instanceof LoadMoreNode);
    assert.match(more.view().label, /Load more \(4 of 12\)/);
    assert.equal(more.view().command?.command, 'videoPlatform.loadMore');

    let changed = 0;
    harness.channels.onDidChange((node) => {
      if (node === undefined) changed++;
    });
    await more.load();
    assert.equal(changed, 1, 'the root is redrawn after a page arrives');
    const second = await harness.channels.getChildren();
    assert.equal(channelsOf(second).length, 8);
    // The same node objects for the first page: VS Code keeps their state.
    assert.equal(channelsOf(second)[0], channelsOf(first)[0]);
    await (second.at(-1) as LoadMoreNode).load();
    const all = await harness.channels.getChildren();
    assert.equal(channelsOf(all).length, 12);
    assert.ok(!all.some((node) => node instanceof LoadMoreNode), 'no Load more after the last page');
    assert.equal(new Set(channelsOf(all).map((node) => node.channel.id)).size, 12);

    harness.channels.refresh();
    assert.equal(channelsOf(await harness.channels.getChildren()).length, 4, 'refresh starts again from page 1');
  });

  it('redraws at once on "Load more", the view waiting for the page (its progress bar) rather than nothing happening', async () => {
    harness = await createHarness({
      account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
      pageSize: 4,
    });
    const first = await harness.channels.getChildren();
    const pages = (): number => harness.log.lines.filter((line) => line.includes('liveGetChannelsByPage')).length;
    let answer: Promise<TreeNode[]> | undefined;
    let pagesWhenAsked = -1;
    harness.channels.onDidChange((node) => {
      if (node !== undefined || answer) return;
      // VS Code asks for the children again as soon as it hears of the change.
      pagesWhenAsked = pages();
      answer = harness.channels.getChildren();
    });
    await (first.at(-1) as LoadMoreNode).load();
    assert.equal(pagesWhenAsked, 1, 'the view was told before the second page arrived');
    assert.equal(channelsOf(await answer!).length, 8, 'and its answer holds the second page');
  });

  it('builds output groups and outputs under a channel, with their flags', async () => {
    harness = await createHarness({
      account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
    });
    harness.channels.setFilter({ searchType: 'name', keyword: 'Newsroom' });
    const [newsroom] = channelsOf(await harness.channels.getChildren());
    assert.ok(newsroom);
    assert.equal(newsroom.view().contextValue, 'channel+live+hls+rtmp+push');
    const groups = (await harness.channels.getChildren(newsroom)) as OutputGroupNode[];
    assert.deepEqual(
      groups.map((group) => group.view().contextValue),
      ['outputGroup+hls+record+timeshift+logo', 'outputGroup+rtmp'],
    );
    assert.match(groups[0]!.view().description ?? '', /3 outputs · recording \(MP4\) · time shift 2 h · logo/);
    const outputs = (await harness.channels.getChildren(groups[0])) as OutputNode[];
    assert.equal(outputs.length, 3);
    assert.ok(
      outputs.every((output) => output instanceof OutputNode && /^output\+hls/.test(output.view().contextValue)),
    );
    assert.match(outputs[0]!.view().description ?? '', /^http:\/\/127\.0\.0\.1:\d+\/.*\.m3u8$/);
    assert.equal(harness.channels.getParent(outputs[0]!), groups[0]);
    assert.equal(harness.channels.getParent(groups[0]!), newsroom);
  });

  it('filters and sorts through the list operation, and says when nothing matches', async () => {
    harness = await createHarness({
      account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
    });
    harness.channels.setFilter({ searchType: 'name', keyword: 'paging', sort: 'name', order: 'desc' });
    assert.equal(harness.channels.filterText, 'name ~ "paging" · by name desc');
    assert.deepEqual(labels(await harness.channels.getChildren()), [
      'Paging 7',
      'Paging 6',
      'Paging 5',
      'Paging 4',
      'Paging 3',
      'Paging 2',
      'Paging 1',
    ]);
    harness.channels.setFilter({ searchType: 'name', keyword: 'no such channel' });
    const empty = await harness.channels.getChildren();
    assert.equal(empty.length, 1);
    assert.ok(empty[0] instanceof MessageNode);
    assert.equal(empty[0].view().label, 'No channels match the filter');
  });

  it('groups by category (liveChannelTypeList) and filters to one category', async () => {
    harness = await createHarness({
      account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
    });
    harness.channels.setGrouping(true);
    const roots = await harness.channels.getChildren();
    assert.deepEqual(labels(roots), ['News', 'Sports', 'Events', 'No category']);
    assert.deepEqual(labels(await harness.channels.getChildren(roots[1])), ['Stadium feed']);
    const none = labels(await harness.channels.getChildren(roots[3]));
    assert.ok(none.includes('Concert VR') && none.includes('Paging 1') && !none.includes('Stadium feed'));

    const sports = (roots[1] as CategoryNode).category!;
    harness.channels.setGrouping(false);
    harness.channels.setFilter({ category: { id: sports.id, name: sports.name } });
    assert.equal(harness.channels.filterText, 'category: Sports');
    assert.deepEqual(labels(await harness.channels.getChildren()), ['Stadium feed']);
  });

  it('does not show the count of all channels as the size of a category list (filtered on our side)', async () => {
    harness = await createHarness({
      account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
      pageSize: 2,
    });
    harness.channels.setGrouping(true);
    const none = (await harness.channels.getChildren()).find((node) => node.view().label === 'No category')!;
    const children = await harness.channels.getChildren(none);
    const more = children.at(-1);
    assert.ok(more instanceof LoadMoreNode);
    assert.match(
      more.view().label,
      new RegExp(`^Load more \\(${channelsOf(children).length} shown, 2 of \\d+ searched\\)$`),
    );
    // The flat list is counted by the platform: there the total is right.
    harness.channels.setGrouping(false);
    assert.match((await harness.channels.getChildren()).at(-1)!.view().label, /^Load more \(2 of \d+\)$/);
  });

  it('searches a category list by the filter as the flat list does, page after page, with an honest count', async () => {
    // Its own platform: a category whose newest channels do not match the name filter.
    const own = await startTestPlatform({ demo: false });
    const ownClient = new PlatformClient({
      baseUrl: own.platform.baseUrl,
      accessKey: ACCESS_KEY,
      secretKey: SECRET_KEY,
    });
    try {
      const category = await ownClient.liveChannelTypeCreate('Studio');
      const template = await ownClient.liveTemplateCreate({
        displayName: '720p',
        videoWidth: 1280,
        videoHeight: 720,
        videoBitrate: 1500,
        audioBitrate: 128,
        frameRate: 25,
      });
      // Oldest first: the list is newest first, so "Special" comes on the last page.
      const names = ['Special', 'Dawn', 'Morning', 'Noon', 'Evening', 'Dusk', 'Night'];
      for (const name of names) {
        const created = Date.now();
        await ownClient.liveCreateChannel({
          name,
          signalType: '1',
          type: category.id,
          typeName: category.name,
          outputGroupList: [{ protocolType: 1, outputTemplateList: [{ templateId: template.id, isDefault: '1' }] }],
        });
        // Each one newer than the one before: equal creation times would be ordered by id, by chance.
        await eventually('a later creation time', () => Date.now() > created);
      }
      harness = await createHarness({
        account: { baseUrl: own.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
        pageSize: 1,
      });
      harness.channels.setGrouping(true);
      const studio = (): Promise<CategoryNode> =>
        harness.channels
          .getChildren()
          .then((roots) =>
            roots.find(
              (node): node is CategoryNode => node instanceof CategoryNode && node.category?.id === category.id,
            )!,
          );
      /** Clicks "Load more" until the list ends; the channel names. */
      const loadAll = async (parent: () => Promise<TreeNode | undefined>): Promise<string[]> => {
        for (
          let children = await harness.channels.getChildren(await parent());
          ;
          children = await harness.channels.getChildren(await parent())
        ) {
          const more = children.at(-1);
          if (!(more instanceof LoadMoreNode))
            return channelsOf(children)
              .map((node) => node.channel.name)
              .sort();
          await more.load();
        }
      };

      harness.channels.setFilter({ searchType: 'name', keyword: 'special' });
      const first = await harness.channels.getChildren(await studio());
      // Pages whose channels were all filtered out are not the end of the category: a few are read
      // at once, and Load more says how far the search got (not a count of the category).
      assert.deepEqual(labels(first), [`Load more (0 shown, 5 of ${names.length} searched)`]);
      assert.match(first[0]!.view().tooltip ?? '', /5 of 7 records read so far, 0 of them shown/);
      await (first[0] as LoadMoreNode).load();
      assert.deepEqual(labels(await harness.channels.getChildren(await studio())), ['Special']);

      // "Name or category": every channel of a category whose name matches, as in the flat list.
      harness.channels.setFilter({ searchType: 'all', keyword: 'studio' });
      const groupedNames = await loadAll(studio);
      harness.channels.setGrouping(false);
      const flatNames = await loadAll(async () => undefined);
      assert.deepEqual(groupedNames, [...names].sort());
      assert.deepEqual(groupedNames, flatNames);

      // Without a filter (a sort order alone filters nothing out) an empty list of the channels
      // without a category says so, not "No channels yet" nor "No channels match the filter".
      harness.channels.setGrouping(true);
      for (const filter of [{}, { sort: 'name', order: 'asc' }] as const) {
        harness.channels.setFilter(filter);
        const none = async (): Promise<TreeNode | undefined> =>
          (await harness.channels.getChildren()).find((node) => node.view().label === 'No category');
        assert.deepEqual(await loadAll(none), []);
        assert.deepEqual(
          labels(await harness.channels.getChildren(await none())),
          ['No channels without a category'],
          JSON.stringify(filter),
        );
      }
    } finally {
      await ownClient.close();
      await own.close();
    }
  });

  it('shows a loading error as one item with Retry, which loads again', async () => {
    const faulty = await startFaultyServer(platform.platform.baseUrl);
    try {
      harness = await createHarness({
        account: { baseUrl: faulty.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
      });
      faulty.failNext = 1;
      const failed = await harness.channels.getChildren();
      assert.equal(failed.length, 1);
      const error = failed[0];
      assert.ok(error instanceof ErrorNode);
      assert.match(error.message, /^Could not load channels: .*liveGetChannelsByPage.*502/);
      assert.equal(error.view().contextValue, 'error');
      assert.equal(error.view().command?.command, 'videoPlatform.retry');
      await error.retry();
      assert.ok(channelsOf(await harness.channels.getChildren()).length > 0);
    } finally {
      await faulty.close();
    }
  });

  it('drops answers for the previous account after a switch', async () => {
    const slow: FaultyServer = await startFaultyServer(platform.platform.baseUrl);
    try {
      harness = await createHarness({
        account: { baseUrl: slow.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY, name: 'Slow' },
      });
      slow.hang.add('liveGetChannelsByPage');
      const oldEpoch = harness.connection.epoch;
      const pending = harness.channels.getChildren();
      await eventually('the list request to reach the server', () => slow.seen.includes('liveGetChannelsByPage'));
      const fast = await harness.store.add(
        { name: 'Fast', baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY },
        SECRET_KEY,
      );
      await harness.connection.switchTo(fast.id);
      // The hung request of the old account is abandoned (its client closes); whatever comes, it shows nothing.
      const stale = await Promise.race([
        pending,
        new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 300)),
      ]);
      assert.ok(stale === 'hung' || (Array.isArray(stale) && stale.length === 0));
      const fresh = channelsOf(await harness.channels.getChildren());
      assert.ok(fresh.length > 0);
      // A late command result from the old account does not touch the new list.
      const record = { ...fresh[0]!.channel, name: 'From the old account' };
      assert.equal(harness.channels.applyChannel(record, oldEpoch), false);
      assert.notEqual(channelsOf(await harness.channels.getChildren())[0]!.channel.name, 'From the old account');
    } finally {
      await slow.close();
    }
  });

  it("drops the old account's filter and sorting on a switch, and keeps them when the same account starts over", async () => {
    harness = await createHarness({
      account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY, name: 'First' },
    });
    const [sports] = (await client.liveChannelTypeList()).filter((category) => category.name === 'Sports');
    harness.channels.setFilter({ category: { id: sports!.id, name: sports!.name }, sort: 'name', order: 'desc' });
    harness.videos.setFilter({ categoryId: 2, keyword: 'match' });
    harness.connection.restart();
    assert.equal(
      harness.channels.filterText,
      'category: Sports · by name desc',
      'the same account (edited, or a setting changed): kept',
    );
    assert.equal(harness.videos.filter.categoryId, 2);

    const second = await harness.store.add(
      { name: 'Second', baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY },
      SECRET_KEY,
    );
    await harness.connection.switchTo(second.id);
    assert.equal(harness.channels.filterText, '', "the old account's category, search and order are dropped");
    assert.deepEqual(harness.videos.filter, {});
    assert.ok(channelsOf(await harness.channels.getChildren()).length > 1, 'the whole list of the new account');
  });

  it('finds a channel further down the pages for reveal', async () => {
    harness = await createHarness({
      account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
      pageSize: 2,
    });
    harness.channels.setFilter({ sort: 'name', order: 'asc' });
    const target = (await client.liveGetChannelsByPage({ searchType: 'name', keyword: 'Town hall' })).channels[0]!;
    const node = await harness.channels.locateChannel(target.id);
    assert.ok(node);
    assert.equal(node.channel.name, 'Town hall');
  });
});
