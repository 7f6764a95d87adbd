import assert from 'node:assert/strict';
import { PlatformClient } from '../../src/api/client';
import type { Channel } from '../../src/api/types';
import { channelView } from '../../src/app/tree/channelPresentation';
import { md } from '../../src/app/tree/nodeView';
import { PagedList } from '../../src/app/tree/pagedList';
import { Poller, shouldPoll, type PollTimers } from '../../src/app/tree/poller';
import { formatBytes, formatDuration, videoView } from '../../src/app/tree/videoPresentation';
import { eventually } from '../helpers/eventually';
import { createHarness, MemoryLog, type Harness } from './helpers/harness';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from './helpers/platform';

describe('Labels, icons and tooltips of platform records', () => {
  let platform: TestPlatform;
  let client: PlatformClient;
  const byName = async (name: string): Promise<Channel> =>
    (await client.liveGetChannelsByPage({ searchType: 'name', keyword: name })).channels[0]!;

  before(async () => {
    platform = await startTestPlatform();
    client = new PlatformClient({ baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
  });
  after(async () => {
    await client.close();
    await platform.close();
  });

  it('shows a live push channel with its state colour, description and a tooltip with source and outputs', async () => {
    const view = channelView(await byName('Newsroom'));
    assert.equal(view.label, 'Newsroom 24/7');
    assert.deepEqual(view.icon, { id: 'broadcast', color: 'charts.green' });
    // Short state words in the row (the default side bar width cuts long ones); the full state in the tooltip.
    assert.equal(view.description, 'Live · HLS+RTMP · News');
    assert.match(view.tooltip!, /^\*\*Newsroom 24\/7\*\*\n\nLive, source present\n/);
    assert.match(view.tooltip!, /^\*\*Newsroom 24\/7\*\*/);
    assert.match(view.tooltip!, /- Source: push to `rtmp:\/\/[^`]+`/);
    assert.match(
      view.tooltip!,
      /- HLS: 1920x1080 \d+ kbps, 1280x720 \d+ kbps, 854x480 \d+ kbps \(recording \(MP4\), time shift 2 h, logo\)/,
    );
    assert.match(view.tooltip!, /- RTMP: 1280x720/);
    assert.equal(view.collapsible, 'collapsed');
  });

  it('shows pull, stopped and new channels differently, and the transient text while busy', async () => {
    const stadium = channelView(await byName('Stadium'));
    assert.deepEqual(stadium.icon, { id: 'debug-stop', color: 'descriptionForeground' });
    assert.match(stadium.tooltip!, /- Source: pull from `rtmp:\/\/203\.0\.113\.10\/live\/stadium`/);
    assert.match(stadium.tooltip!, /encrypted/);
    assert.equal(stadium.contextValue, 'channel+stopped+hls+pull');
    const town = await byName('Town hall');
    assert.deepEqual(channelView(town).icon, { id: 'circle-large-outline', color: 'descriptionForeground' });
    const busy = channelView(town, 'Starting...');
    assert.equal(busy.description, 'Starting...');
    assert.equal(busy.icon?.id, 'loading~spin');
    assert.equal(busy.contextValue, 'channel+new+rtmp+push+busy');
    assert.deepEqual(
      channelView({ ...town, status: 2, streamStatus: 2 }).icon,
      { id: 'broadcast', color: 'charts.orange' },
      'live without a source',
    );
  });

  it('escapes Markdown in names from the platform', () => {
    assert.equal(md('a*b_[c](d)'), 'a\\*b\\_\\[c\\]\\(d\\)');
  });

  it('formats durations and sizes', () => {
    assert.equal(formatDuration(3_737_000), '1:02:17');
    assert.equal(formatDuration(65_000), '1:05');
    assert.equal(formatBytes(512), '512 B');
    assert.equal(formatBytes(5 * 1024 * 1024), '5.0 MB');
    assert.equal(formatBytes(300 * 1024 * 1024), '300 MB');
  });

  it('describes a video with status, duration and category', async () => {
    const [video] = await client.queryVideo({
      start: 1,
      number: 1,
      sort: 'title',
      order: 'asc',
      searchType: 'title',
      keyword: 'Match highlights',
    });
    const view = videoView(video!);
    assert.equal(view.description, 'Transcoded · 8:17 · Highlights');
    assert.match(view.tooltip!, /- Renditions: \d+/);
  });

  it('shows no still for a video or channel the platform lists without a picture, and the cover where it lists one', async () => {
    // Simulated media: the platform lists "" (no picture) for every cover, thumbnail and channel thumbnail.
    const videos = await client.queryVideo({ start: 1, number: 100, sort: 'title', order: 'asc' });
    assert.ok(videos.length > 0);
    for (const video of videos) {
      assert.equal(video.cover, '', video.title);
      assert.equal(videoView(video).still, undefined, video.title);
    }
    const live = await byName('Newsroom');
    assert.equal(live.thumbnailUrl, '');
    assert.equal(channelView(live).still, undefined);
    // With pictures: the cover, else the thumbnail; never as an http: picture in the Markdown (a hover shows
    // only https: and data: ones: stills.ts embeds it when the tooltip is shown).
    const video = videos[0]!;
    const cover = 'http://127.0.0.1:8790/vod/abc/cover.jpg';
    const thumbnail = 'http://127.0.0.1:8790/vod/abc/thumbnail.jpg';
    assert.equal(videoView({ ...video, cover, thumbnail }).still, cover);
    assert.equal(videoView({ ...video, thumbnail }).still, thumbnail);
    assert.equal(channelView({ ...live, thumbnailUrl: thumbnail }).still, thumbnail);
    assert.doesNotMatch(videoView({ ...video, cover }).tooltip!, /!\[still\]/);
    assert.equal(videoView({ ...video, cover: 'file:///etc/passwd' }).still, undefined, 'http(s) only');
  });
});

describe('PagedList', () => {
  it('drops a page that arrives after a reset, and never lists an item twice', async () => {
    let release: (() => void) | undefined;
    const pages: number[][] = [
      [1, 2],
      [2, 3],
    ];
    const list = new PagedList<number>(
      async (page) => {
        if (page === 99) await new Promise<void>((resolve) => (release = resolve));
        return { items: pages[page - 1] ?? [], total: 4 };
      },
      () => 2,
      String,
    );
    await list.loadMore();
    await list.loadMore();
    assert.deepEqual(list.items, [1, 2, 3], 'an item that moved to the next page is not repeated');
    assert.equal(list.hasMore, false);

    const slow = new PagedList<number>(
      async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return { items: [7], total: 1 };
      },
      () => 10,
      String,
    );
    const pending = slow.loadMore();
    slow.reset();
    release!();
    await pending;
    assert.deepEqual(slow.items, [], 'the old answer is dropped');
    assert.equal(slow.started, false);
  });

  it('keeps a failure for the error row, and a retry loads the same page', async () => {
    let fail = true;
    const asked: number[] = [];
    const list = new PagedList<number>(
      async (page) => {
        asked.push(page);
        if (fail) throw new Error('down');
        return { items: [page] };
      },
      () => 1,
      String,
    );
    await list.loadMore();
    assert.equal((list.error as Error).message, 'down');
    fail = false;
    await list.loadMore();
    assert.deepEqual(asked, [1, 1]);
    assert.equal(list.error, undefined);
    assert.deepEqual(list.items, [1]);
  });
});

describe('Polling of settling items', () => {
  let platform: TestPlatform;
  let harness: Harness;

  before(async () => {
    platform = await startTestPlatform();
  });
  after(async () => platform.close());
  afterEach(async () => harness?.dispose());

  it('decides: only visible, only when something settles', () => {
    assert.equal(shouldPoll({ visible: true, settling: true, disposed: false }), true);
    assert.equal(shouldPoll({ visible: false, settling: true, disposed: false }), false);
    assert.equal(shouldPoll({ visible: true, settling: false, disposed: false }), false);
    assert.equal(shouldPoll({ visible: true, settling: true, disposed: true }), false);
  });

  it('re-reads transcoding videos while the view is visible, and stops when hidden', async () => {
    harness = await createHarness({
      account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
    });
    await harness.videos.getChildren();
    const settling = harness.videos.settlingIds();
    assert.equal(settling.length, 3, 'Keynote (1), Product demo (6), Queued interview (7)');

    const scheduled: Array<() => void> = [];
    const timers: PollTimers = {
      setTimeout: (callback) => scheduled.push(callback),
      clearTimeout: () => scheduled.splice(0),
    };
    const log = new MemoryLog();
    const poller = new Poller(harness.videos, () => 1000, log, timers);
    const reads = (): number => harness.log.lines.filter((line) => line.includes('getVideoInfo')).length;

    poller.setVisible(false);
    poller.kick();
    assert.equal(scheduled.length, 0, 'nothing scheduled while hidden');
    await poller.round();
    assert.equal(reads(), 0);

    poller.setVisible(true);
    assert.equal(scheduled.length, 1);
    scheduled.shift()!();
    await eventually('the round to finish and schedule the next', () => scheduled.length === 1);
    assert.equal(reads(), 3, 'one read per settling video');
    assert.equal(scheduled.length, 1, 'and the next round is scheduled');

    poller.setVisible(false);
    assert.equal(scheduled.length, 0, 'hiding the view cancels it');
    poller.dispose();
    assert.deepEqual(log.lines, []);
  });

  it('starts following settling items as soon as the view loads them, with no other event', async () => {
    harness = await createHarness({
      account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
    });
    const scheduled: Array<() => void> = [];
    const timers: PollTimers = {
      setTimeout: (callback) => scheduled.push(callback),
      clearTimeout: () => scheduled.splice(0),
    };
    const poller = new Poller(harness.videos, () => 1000, new MemoryLog(), timers);
    poller.setVisible(true);
    assert.equal(scheduled.length, 0, 'nothing loaded yet, nothing to follow');
    // VS Code asks for the view's children: the demo's transcoding videos arrive.
    const nodes = await harness.videos.getChildren();
    assert.ok(
      nodes.some((node) => /\.\.\.( [\d:]+)?$/.test(node.view().description ?? '')),
      'a transient "Transcoding..." description',
    );
    assert.equal(scheduled.length, 1, 'the first page holds transcoding videos: a round is scheduled');
    poller.setVisible(false);
    await harness.videos.getChildren();
    assert.equal(scheduled.length, 0, 'not while the view is hidden');
    poller.dispose();
    harness.videos.refresh();
    await harness.videos.getChildren();
    assert.equal(scheduled.length, 0, 'nor after dispose');
  });

  it('re-reads a starting channel until it settles', async () => {
    harness = await createHarness({
      account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
    });
    const nodes = await harness.channels.getChildren();
    assert.deepEqual(harness.channels.settlingIds(), [], 'demo channels are settled');
    const first = nodes[0]!;
    // A channel reported "starting" (status 5) by an earlier answer is followed until the platform says otherwise.
    const channel = (first as unknown as { channel: Channel }).channel;
    harness.channels.applyChannel({ ...channel, status: 5 }, harness.connection.epoch);
    assert.equal(first.view().description, 'Starting...');
    assert.deepEqual(harness.channels.settlingIds(), [channel.id]);
    await harness.channels.pollSettling();
    assert.deepEqual(harness.channels.settlingIds(), []);
    assert.equal((first as unknown as { channel: Channel }).channel.status, channel.status);
  });

  it('stops polling a starting channel that the platform no longer has', async () => {
    harness = await createHarness({
      account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
    });
    const client = await harness.connection.activeClient();
    const [template] = await client.liveGetTemplates();
    const doomed = await client.liveCreateChannel({
      name: 'Deleted elsewhere',
      signalType: '1',
      outputGroupList: [{ protocolType: 1, outputTemplateList: [{ templateId: template!.id, isDefault: '1' }] }],
    });
    await harness.channels.getChildren();
    harness.channels.applyChannel({ ...doomed, status: 5 }, harness.connection.epoch);
    assert.deepEqual(harness.channels.settlingIds(), [doomed.id]);
    await client.liveDelete([doomed.id]);
    const failures = await harness.channels.pollSettling();
    assert.equal(failures.length, 1);
    assert.deepEqual(harness.channels.settlingIds(), [], 'not asked again every round');
    harness.channels.refresh();
    assert.equal(
      (await harness.channels.getChildren()).some((node) => node.view().label === 'Deleted elsewhere'),
      false,
    );
  });
});
