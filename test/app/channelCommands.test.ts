import { Codes } from '../../src/api/errorCodes';
import assert from 'node:assert/strict';
import { PlatformClient } from '../../src/api/client';
import type { Channel } from '../../src/api/types';
import { copyPlayAddress, copyPushAddress } from '../../src/app/commands/copyAddresses';
import { createCategory } from '../../src/app/commands/createCategory';
import { createChannel } from '../../src/app/commands/createChannel';
import { createResource } from '../../src/app/commands/createResource';
import { deleteChannels } from '../../src/app/commands/deleteChannel';
import { showChannelPlayAddresses } from '../../src/app/commands/playAddresses';
import { startChannels, stopChannels } from '../../src/app/commands/startStopChannel';
import { refreshItem } from '../../src/app/commands/viewCommands';
import { ChannelNode, OutputGroupNode, OutputNode } from '../../src/app/tree/nodes';
import { createHarness, type Harness } from './helpers/harness';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from './helpers/platform';
import { platformSuite } from './helpers/platformSuite';
import { accept, choose, chooseMany, decline, dismissPick, type } from './helpers/scriptedUi';

describe('Channel commands against the local platform', () => {
  const suite = platformSuite();

  const channelNamed = async (name: string): Promise<Channel> =>
    (await suite.client.liveGetChannelsByPage({ searchType: 'name', keyword: name })).channels.find(
      (channel) => channel.name === name,
    )!;
  const nodeNamed = async (name: string): Promise<ChannelNode> => {
    suite.harness.channels.setFilter({ searchType: 'name', keyword: name });
    const node = (await suite.harness.channels.getChildren()).find(
      (candidate): candidate is ChannelNode => candidate instanceof ChannelNode && candidate.channel.name === name,
    );
    assert.ok(node, `no node for ${name}`);
    return node;
  };
  const newChannel = async (name: string): Promise<Channel> => {
    const [template] = await suite.client.liveGetTemplates();
    return suite.client.liveCreateChannel({
      name,
      signalType: '1',
      outputGroupList: [{ protocolType: 1, outputTemplateList: [{ templateId: template!.id, isDefault: '1' }] }],
    });
  };

  it('refreshes every selected item, each channel once, and names the one that could not be read', async () => {
    const [a, b, c] = [await newChannel('Refresh A'), await newChannel('Refresh B'), await newChannel('Refresh C')];
    suite.harness.channels.setFilter({ searchType: 'name', keyword: 'Refresh ' });
    const nodes = (await suite.harness.channels.getChildren()).filter(
      (node): node is ChannelNode => node instanceof ChannelNode,
    );
    const byId = (id: string): ChannelNode => nodes.find((node) => node.channel.id === id)!;
    const [na, nb, nc] = [byId(a.id), byId(b.id), byId(c.id)];
    const outputOfA = new OutputNode(
      new OutputGroupNode(na, na.channel.outputGroupList[0]!),
      na.channel.outputGroupList[0]!.liveOutputs[0]!,
    );
    // Changed elsewhere (another client): two started, one deleted.
    await suite.client.liveStartChannel(a.id);
    await suite.client.liveStartChannel(b.id);
    await suite.client.liveDelete([c.id]);
    try {
      const reads = (): number =>
        suite.harness.log.lines.filter((line) => / GET liveGetChannelById /.test(line)).length;
      const before = reads();
      // VS Code's arguments for a context-menu command on a multi-selection: clicked item, selection.
      await suite.harness.run(refreshItem, { node: nb, selection: [na, nb, nc, outputOfA] });
      assert.equal(na.channel.status, 2, 'the selected item that was not clicked is refreshed too');
      assert.equal(nb.channel.status, 2);
      assert.equal(reads() - before, 3, 'a channel and its output selected together are read once');
      assert.equal(suite.harness.ui.errors.length, 1);
      assert.match(
        suite.harness.ui.errors[0]!,
        /^Refresh "Refresh C" failed: The channel does not exist in this account\./,
      );
      const after = (await suite.harness.channels.getChildren()).filter(
        (node): node is ChannelNode => node instanceof ChannelNode,
      );
      assert.deepEqual(
        after.map((node) => node.channel.name).sort(),
        ['Refresh A', 'Refresh B'],
        'the channel deleted elsewhere leaves the view',
      );
      assert.ok(suite.harness.polled.channels > 0);
    } finally {
      await suite.client.liveStopChannel(a.id);
      await suite.client.liveStopChannel(b.id);
    }
  });

  it('starts a channel from its tree item and updates the item from the result', async () => {
    const node = await nodeNamed('Town hall');
    assert.match(node.view().contextValue, /^channel\+new\+/);
    const transients: Array<string | undefined> = [];
    suite.harness.channels.onDidChange((changed) => {
      if (changed === node) transients.push(node.view().description);
    });
    const outcome = await suite.harness.run(startChannels, { node: node, selection: [node] });
    assert.equal(outcome?.done.length, 1);
    assert.equal(transients[0], 'Starting...', 'the item says what is going on');
    assert.equal(node.channel.status, 2);
    assert.match(node.view().contextValue, /^channel\+live\+/);
    assert.equal((await channelNamed('Town hall')).status, 2);
    assert.deepEqual(suite.harness.ui.errors, []);
    assert.equal(suite.harness.polled.channels, 1, 'polling is kicked for settling channels');
  });

  it('asks before stopping a live channel, naming it and the account, Stop not the default; declining changes nothing', async () => {
    const node = await nodeNamed('Newsroom 24/7');
    suite.harness.ui.script(decline());
    assert.equal(await suite.harness.run(stopChannels, { node: node }), undefined);
    assert.equal(suite.harness.ui.asked[0]!.title, 'Stop live channel "Newsroom 24/7" on account "Test account"?');
    assert.equal(suite.harness.ui.asked[0]!.action, 'Stop');
    assert.equal(suite.harness.ui.asked[0]!.destructive, true, 'Stop is not the default button');
    assert.equal((await channelNamed('Newsroom 24/7')).status, 2);

    suite.harness.ui.script(accept());
    const outcome = await suite.harness.run(stopChannels, { node: node, selection: [node] });
    assert.equal(outcome?.done.length, 1);
    assert.equal(node.channel.status, 1);
    assert.ok(node.channel.endTime);
    assert.match(node.view().contextValue, /^channel\+stopped\+/);
    await suite.client.liveStartChannel(node.channel.id);
  });

  it('works on a multi-selection, skipping channels where the command makes no sense', async () => {
    const a = await newChannel('Multi A');
    const b = await newChannel('Multi B');
    suite.harness.channels.setFilter({ searchType: 'name', keyword: 'Multi' });
    const nodes = (await suite.harness.channels.getChildren()).filter(
      (node): node is ChannelNode => node instanceof ChannelNode,
    );
    const live = await nodeNamed('Newsroom 24/7');
    const outcome = await suite.harness.run(startChannels, { node: nodes[0], selection: [...nodes, live] });
    assert.deepEqual(outcome?.done.map(({ item }) => item.name).sort(), ['Multi A', 'Multi B']);
    assert.equal((await suite.client.liveGetChannelById(a.id)).status, 2);
    assert.equal((await suite.client.liveGetChannelById(b.id)).status, 2);
  });

  it('from the palette, offers only the channels the command applies to', async () => {
    await newChannel('Palette start');
    suite.harness.ui.script(chooseMany('Palette start'));
    const outcome = await suite.harness.run(startChannels);
    assert.equal(outcome?.done[0]?.result.name, 'Palette start');
    const offered = suite.harness.ui.asked[0]!.items!.map((item) => item.label);
    assert.ok(!offered.includes('Newsroom 24/7'), 'a live channel is not offered for start');
  });

  it('reports a refused start with the explanation of the code and a Show Log button', async () => {
    const channel = await newChannel('Conflict');
    const stale = { ...channel };
    await suite.client.liveStartChannel(channel.id);
    suite.harness.ui.messageChoice = 'Show Log';
    const outcome = await suite.harness.run(startChannels, { node: stale });
    assert.equal(outcome?.failed.length, 1);
    assert.equal(suite.harness.ui.errors.length, 1);
    assert.match(
      suite.harness.ui.errors[0]!,
      new RegExp(
        `^Start channel "Conflict" failed: The platform would not start the channel.*code ${Codes.channelStateConflict}.*already live`,
      ),
    );
    assert.equal(suite.harness.ui.showLogCount, 1);
  });

  it('deletes after a confirmation naming the channel and the account, and refreshes the view', async () => {
    const channel = await newChannel('To delete');
    const node = await nodeNamed('To delete');
    suite.harness.ui.script(accept());
    const ids = await suite.harness.run(deleteChannels, { node: node });
    assert.deepEqual(ids, [channel.id]);
    assert.match(suite.harness.ui.asked[0]!.title, /^Delete "To delete" on account "Test account"\?$/);
    assert.equal(suite.harness.ui.asked[0]!.destructive, true, 'Delete is not the default button');
    await assert.rejects(suite.client.liveGetChannelById(channel.id), { code: Codes.channelNotExists });
    assert.ok(
      !(await suite.harness.channels.getChildren()).some(
        (candidate) => candidate instanceof ChannelNode && candidate.channel.id === channel.id,
      ),
    );
  });

  it('shows playback addresses grouped by output group; choosing one copies or opens it', async () => {
    const node = await nodeNamed('Newsroom 24/7');
    suite.harness.ui.script(choose('Master playlist'), choose('Copy address'));
    const used = await suite.harness.run(showChannelPlayAddresses, { node: node });
    assert.equal(used?.action, 'copy');
    assert.match(
      suite.harness.ui.copied[0]!,
      /^http:\/\/127\.0\.0\.1:\d+\/live\/hls\/[0-9a-f]{32}\/[0-9a-f]{32}\.m3u8$/,
    );
    const items = suite.harness.ui.asked[0]!.items!;
    const separators = items.filter((item) => item.separator).map((item) => item.label);
    assert.deepEqual(
      separators.map((label) => label.replace(/ .*output group$/, '')),
      ['HLS', 'RTMP'],
    );
    assert.ok(items.filter((item) => !item.separator).length >= 5, 'master and child streams');

    suite.harness.ui.script(choose('1920x1080'), choose('Open in browser'));
    const opened = await suite.harness.run(showChannelPlayAddresses, { node: node });
    assert.equal(opened?.action, 'open');
    assert.equal(suite.harness.ui.opened.length, 1);
    // The player page with the playlist, not the raw .m3u8 (a browser would download it as text).
    assert.match(opened!.address.url, /\.m3u8$/);
    // The player page Open Player uses (served by the platform bundled with the extension).
    assert.match(suite.harness.ui.opened[0]!, /^http:\/\/127\.0\.0\.1:\d+\/player\?src=/);
    assert.ok(suite.harness.ui.opened[0]!.endsWith(`/player?src=${encodeURIComponent(opened!.address.url)}`));

    // RTMP addresses cannot open in a browser: they are copied straight away.
    suite.harness.ui.script({
      kind: 'pick',
      answer: (rows) => rows.find((row) => !row.separator && (row.detail ?? '').startsWith('rtmp://'))?.value,
    });
    const rtmp = await suite.harness.run(showChannelPlayAddresses, { node: node });
    assert.equal(rtmp?.action, 'copy');
    assert.match(suite.harness.ui.copied.at(-1)!, /^rtmp:\/\//);
  });

  it('copies the push address of a push channel, and an output play address', async () => {
    const node = await nodeNamed('Newsroom 24/7');
    const push = await suite.harness.run(copyPushAddress, { node: node });
    assert.equal(push, node.channel.pushUrl);
    assert.equal(suite.harness.ui.copied[0], node.channel.pushUrl);
    // The message names the address without showing its auth code (messages end up in screenshots).
    const authCode = /auth=([^&]+)/.exec(node.channel.pushUrl)?.[1];
    assert.ok(authCode, 'the push address carries an auth code');
    assert.equal(
      suite.harness.ui.infos.at(-1),
      `Copied the push address of "Newsroom 24/7" (it contains the auth code).`,
    );
    assert.ok(!node.view().tooltip?.includes(`auth=${authCode}`), 'the tooltip hides the auth code');
    assert.match(node.view().tooltip ?? '', /auth=\*\*\*/);

    const [group] = (await suite.harness.channels.getChildren(node)) as OutputGroupNode[];
    const [output] = (await suite.harness.channels.getChildren(group)) as OutputNode[];
    assert.equal(await suite.harness.run(copyPlayAddress, { node: output }), output!.output.publicOutputUrl);
    assert.equal(suite.harness.ui.copied[1], output!.output.publicOutputUrl);

    // A pull channel has no push address to offer.
    const pull = await nodeNamed('Stadium feed');
    assert.equal(await suite.harness.run(copyPushAddress, { node: pull }), undefined);
    assert.match(suite.harness.ui.infos.at(-1)!, /nothing to do/);

    // From the palette: the channel, then the address, copied straight away.
    const asked = suite.harness.ui.asked.length;
    suite.harness.ui.script(chooseMany('Newsroom 24/7'), choose('Master playlist'));
    const copied = await suite.harness.run(copyPlayAddress);
    assert.match(copied ?? '', /\.m3u8$/);
    assert.equal(suite.harness.ui.copied.at(-1), copied);
    assert.equal(suite.harness.ui.asked.length - asked, 2, 'no "copy or open" question after the address');

    // On a multi-selection the clicked channel's address is copied, not the first selected one's.
    const town = await nodeNamed('Town hall');
    assert.equal(
      await suite.harness.run(copyPushAddress, { node: town, selection: [node, town] }),
      town.channel.pushUrl,
    );
    assert.notEqual(town.channel.pushUrl, node.channel.pushUrl);
  });

  it('creates a channel with the wizard, then refreshes and reveals it', async () => {
    suite.harness.ui.script(
      type('Wizard channel'),
      choose('Pull'),
      type('rtmp://198.51.100.7/live/feed'),
      choose('News'),
      chooseMany('HLS', 'RTMP'),
      chooseMany('Record', 'Time shift'),
      type('3'),
      chooseMany(),
      chooseMany('720p', '480p'),
      choose('720p'),
      choose('Create channel'),
    );
    const channel = await suite.harness.run(createChannel);
    assert.ok(channel, suite.harness.ui.errors.join('\n'));
    const stored = await suite.client.liveGetChannelById(channel.id);
    assert.equal(stored.signalType, '2');
    assert.equal(stored.pullStream, 'rtmp://198.51.100.7/live/feed');
    assert.equal(stored.typeName, 'News');
    assert.deepEqual(
      stored.outputGroupList.map((group) => group.protocolType),
      [1, 2],
    );
    assert.equal(stored.outputGroupList[0]!.isTimeShift, '1');
    assert.equal(stored.outputGroupList[0]!.timeShiftDuration, '3');
    assert.equal(stored.outputGroupList[0]!.liveOutputs.length, 2);
    assert.deepEqual(suite.harness.revealed, [channel.id]);
  });

  it('offers channels in Create Resource... (palette, view title): the Create Channel wizard', async () => {
    suite.harness.ui.script(
      choose('Channel'),
      type('From Create Resource'),
      choose('Push'),
      choose('News'),
      chooseMany('HLS'),
      chooseMany(),
      chooseMany('720p'),
      choose('Create channel'),
    );
    const id = await suite.harness.run(createResource);
    assert.deepEqual(suite.harness.ui.errors, []);
    const offered = suite.harness.ui.asked[0]!.items!.map((item) => item.label);
    assert.equal(offered[0], 'Channel', 'channels are offered first');
    assert.ok(offered.includes('Template Groups') && offered.includes('Channel Categories'), offered.join(', '));
    assert.ok(id);
    assert.equal((await suite.client.liveGetChannelById(id)).name, 'From Create Resource');
    assert.deepEqual(suite.harness.revealed, [id]);
  });

  it('refuses a bad pull address in the wizard, naming the field, and creates nothing', async () => {
    const before = (await suite.client.liveGetChannelsByPage({ number: 1 })).count;
    suite.harness.ui.script(type('Bad pull'), choose('Pull'), type('not an address'));
    assert.equal(await suite.harness.run(createChannel), undefined);
    assert.match(suite.harness.ui.errors[0]!, /Pull address must be an rtmp:\/\//);
    assert.equal((await suite.client.liveGetChannelsByPage({ number: 1 })).count, before);
  });

  it('ends the wizard quietly when the user backs out', async () => {
    suite.harness.ui.script(type('Backed out'), dismissPick());
    assert.equal(await suite.harness.run(createChannel), undefined);
    assert.deepEqual(suite.harness.ui.errors, []);
  });

  it('creates a category; a duplicate name is explained', async () => {
    suite.harness.ui.script(type('Weather'));
    const category = await suite.harness.run(createCategory);
    assert.equal(category?.name, 'Weather');
    assert.ok((await suite.client.liveChannelTypeList()).some((candidate) => candidate.name === 'Weather'));
    suite.harness.ui.script(type('Weather'));
    assert.equal(await suite.harness.run(createCategory), undefined);
    assert.match(
      suite.harness.ui.errors[0]!,
      new RegExp(
        `A channel category with this name already exists\\. \\(liveChannelTypeCreate: code ${Codes.channelCategoryExists}`,
      ),
    );
  });
});

describe('Starting a channel beyond the live-channel limit (real live media)', function () {
  this.timeout(60_000);
  let platform: TestPlatform;
  let harness: Harness;
  let client: PlatformClient;

  before(async () => {
    platform = await startTestPlatform({ demo: false, live: { npmFallback: true, rtmpPort: 0, maxLiveChannels: 1 } });
    client = new PlatformClient({ baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
    harness = await createHarness({
      account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
    });
  });
  after(async () => {
    await harness.dispose();
    await client.close();
    await platform.close();
  });

  it('says the platform would not start it and gives its reason (the limit), not "already live"', async () => {
    assert.equal(platform.platform.liveSimulatedReason, undefined, 'live media is real here');
    const template = await client.liveTemplateCreate({
      displayName: 'Small',
      videoWidth: 320,
      videoHeight: 180,
      videoBitrate: 300,
    });
    // The limit counts channels whose ffmpeg runs: pulled test patterns with an RTMP group run a relay from their
    // start (a plain HLS test pattern is a loop that runs nothing, a pushed channel counts only with an encoder).
    const make = (name: string): Promise<Channel> =>
      client.liveCreateChannel({
        name,
        signalType: '2',
        pullStream: 'testsrc://160x90',
        outputGroupList: [{ protocolType: 2, outputTemplateList: [{ templateId: template.id, isDefault: '1' }] }],
      });
    const first = await make('First live');
    const second = await make('Second live');
    await client.liveStartChannel(first.id);
    try {
      const outcome = await harness.run(startChannels, { node: second });
      assert.equal(outcome?.failed.length, 1);
      const [message] = harness.ui.errors;
      assert.match(message ?? '', /^Start channel "Second live" failed: The platform would not start the channel/);
      assert.match(message ?? '', /the limit is 1/);
      assert.doesNotMatch(message ?? '', /already live, or already stopped/);
      assert.equal((await client.liveGetChannelById(second.id)).status, second.status, 'nothing started');
    } finally {
      await client.liveStopChannel(first.id);
    }
  });
});
