import assert from 'node:assert/strict';
import { PlatformClient } from '../../src/api/client';
import type { Channel } from '../../src/api/types';
import { isRunning } from '../../src/app/tree/channelPresentation';
import { ChannelTreeModel } from '../../src/app/tree/channelTree';
import { readLiveRun } from '../../src/app/tree/liveRun';
import { ChannelNode, LoadMoreNode, type TreeNode } from '../../src/app/tree/nodes';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from './helpers/platform';

const namesOf = (nodes: TreeNode[]): string[] =>
  nodes.filter((node): node is ChannelNode => node instanceof ChannelNode).map((node) => node.channel.name);

/**
 * Live only in the user's order: the platform has no status filter, so the running channels are the first
 * run of the list sorted by status; the view reads that run and puts it in the chosen order.
 */
describe('Live only keeps the chosen sort (local platform, several live channels)', function () {
  this.timeout(60_000);
  let platform: TestPlatform;
  let client: PlatformClient;
  const started: string[] = [];

  const model = (maxSortedLive?: number): ChannelTreeModel =>
    new ChannelTreeModel(
      { epoch: 0, hasAccount: true, accountId: 'account', activeClient: () => Promise.resolve(client) },
      () => 4,
      maxSortedLive,
    );
  /** Every channel in the platform's own order for a sort: the oracle. */
  const platformOrder = async (sort: 'name' | 'createTime' | 'status', order: 'asc' | 'desc'): Promise<Channel[]> => {
    const all: Channel[] = [];
    for (let page = 1; ; page++) {
      const { channels, count } = await client.liveGetChannelsByPage({ start: page, number: 100, sort, order });
      all.push(...channels);
      if (channels.length === 0 || page * 100 >= (count ?? 0)) return all;
    }
  };

  before(async () => {
    platform = await startTestPlatform();
    client = new PlatformClient({ baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
    const [template] = await client.liveGetTemplates();
    // Created Zulu, Alpha, Mike and started: by status (newest first among equals) Mike, Alpha, Zulu;
    // by name descending Zulu, Mike, Alpha.
    for (const name of ['Zulu on air', 'Alpha on air', 'Mike on air']) {
      const channel = await client.liveCreateChannel({
        name,
        signalType: '1',
        outputGroupList: [{ protocolType: 1, outputTemplateList: [{ templateId: template!.id, isDefault: '1' }] }],
      });
      await client.liveStartChannel(channel.id);
      started.push(channel.id);
    }
  });
  after(async () => {
    for (const id of started) await client.liveStopChannel(id).catch(() => undefined);
    await client.close();
    await platform.close();
  });

  it('lists the running channels by name descending when that sort is chosen, and says so', async () => {
    const channels = model();
    channels.setFilter({ liveOnly: true, sort: 'name', order: 'desc' });
    const children = await channels.getChildren();
    const expected = (await platformOrder('name', 'desc')).filter(isRunning).map((channel) => channel.name);
    assert.ok(expected.length >= 4, 'the demo live channels and the three started here');
    assert.deepEqual(namesOf(children), expected);
    assert.ok(!children.some((node) => node instanceof LoadMoreNode), 'the whole run, in one list');
    assert.equal(channels.description, `${expected.length} channels · live only · by name desc`);
  });

  it('lists them newest first without a sort, as the list without Live only is', async () => {
    const channels = model();
    channels.setFilter({ liveOnly: true });
    const expected = (await platformOrder('createTime', 'desc')).filter(isRunning).map((channel) => channel.name);
    assert.deepEqual(namesOf(await channels.getChildren()), expected);
    assert.equal(channels.description, `${expected.length} channels · live only`);
  });

  it('keeps the status order, paged, when more channels run than it sorts, and the description says why', async () => {
    const channels = model(2);
    channels.setFilter({ liveOnly: true, sort: 'name', order: 'desc' });
    const first = await channels.getChildren();
    const byStatus = (await platformOrder('status', 'desc')).filter(isRunning).map((channel) => channel.name);
    assert.deepEqual(namesOf(first), byStatus.slice(0, 4), 'a page of the status order');
    assert.ok(first.at(-1) instanceof LoadMoreNode);
    assert.match(channels.description, /live only · by status \(over 2 live channels, too many to sort\)$/);
  });

  it('reads the run to its end, or says it stopped at the limit', async () => {
    const read = (page: number, size: number): Promise<{ channels: Channel[]; count?: number }> =>
      client.liveGetChannelsByPage({ start: page, number: size, sort: 'status', order: 'desc' });
    const whole = await readLiveRun(read, 1_000, 2);
    assert.equal(whole.complete, true);
    assert.ok(whole.channels.every(isRunning));
    const running = (await platformOrder('name', 'asc')).filter(isRunning).length;
    assert.equal(whole.channels.length, running);
    const cut = await readLiveRun(read, 2, 2);
    assert.deepEqual({ complete: cut.complete, count: cut.channels.length }, { complete: false, count: 2 });
  });
});
