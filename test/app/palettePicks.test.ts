import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PlatformClient } from '../../src/api/client';
import type { Channel } from '../../src/api/types';
import { COMMANDS } from '../../src/app/commands/commandTable';
import { rowHandler } from '../../src/app/commands/runCommand';
import { PICK_LIMIT } from '../../src/app/ask/targets';
import { deleteChannels } from '../../src/app/commands/deleteChannel';
import { showVideoPlayAddresses } from '../../src/app/commands/playAddresses';
import { startChannels, stopChannels } from '../../src/app/commands/startStopChannel';
import { transcodeVideos } from '../../src/app/commands/transcodeVideos';
import type { PickItem } from '../../src/app/ui';
import { createHarness, type Harness } from './helpers/harness';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from './helpers/platform';
import { accept, choose, chooseMany, type } from './helpers/scriptedUi';

const rows = (items: readonly PickItem<unknown>[] | undefined): string[] =>
  (items ?? []).filter((item) => !item.separator).map((item) => item.label);

/**
 * Commands run from the palette on an account with more records than one pick lists (100): the
 * pick shows the ones the command applies to first, and a search row reaches the rest. For videos
 * (which cannot be created in bulk here) `pickLimit` makes the demo data "more than a page".
 */
describe('Palette picks on accounts with more records than one pick lists', () => {
  let platform: TestPlatform;
  let harness: Harness;
  let client: PlatformClient;
  const account = (): { baseUrl: string; accessKey: string; secretKey: string } => ({
    baseUrl: platform.platform.baseUrl,
    accessKey: ACCESS_KEY,
    secretKey: SECRET_KEY,
  });
  const channelNamed = async (name: string): Promise<Channel> =>
    (await client.liveGetChannelsByPage({ searchType: 'name', keyword: name })).channels.find(
      (channel) => channel.name === name,
    )!;

  before(async () => {
    platform = await startTestPlatform();
    client = new PlatformClient({ baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
    // More new channels than a pick lists, all named before the demo ones.
    const [template] = await client.liveGetTemplates();
    for (let i = 0; i < PICK_LIMIT + 1; i++) {
      await client.liveCreateChannel({
        name: `Bulk ${String(i).padStart(3, '0')}`,
        signalType: '1',
        outputGroupList: [{ protocolType: 1, outputTemplateList: [{ templateId: template!.id, isDefault: '1' }] }],
      });
    }
  });
  after(async () => {
    await client.close();
    await platform.close();
  });
  afterEach(async () => harness?.dispose());

  it('Stop lists running channels first, even when the first page by name holds none', async () => {
    // By name the first 100 channels are "Bulk ..." (new): a name-ordered first page has nothing to stop.
    harness = await createHarness({ account: account() });
    harness.ui.script(chooseMany('Newsroom 24/7'), accept());
    const outcome = await harness.run(stopChannels);
    assert.deepEqual(
      harness.ui.infos.filter((text) => /no channel to choose from/.test(text)),
      [],
    );
    assert.deepEqual(
      outcome?.done.map(({ result }) => result.name),
      ['Newsroom 24/7'],
    );
    assert.equal((await channelNamed('Newsroom 24/7')).status, 1);
    await client.liveStartChannel((await channelNamed('Newsroom 24/7')).id);
  });

  it('offers a search row that lists the matches, keeping what was already picked', async () => {
    harness = await createHarness({ account: account() });
    let second: readonly PickItem<unknown>[] = [];
    harness.ui.script(chooseMany('Bulk 000', 'Search channels by name'), type('town'), {
      kind: 'pickMany',
      answer: (items) => {
        second = items;
        return items
          .filter((item) => !item.separator && (item.picked || item.label === 'Town hall'))
          .map((item) => item.value);
      },
    });
    const outcome = await harness.run(startChannels);
    const first = harness.ui.asked[0]!;
    assert.equal(rows(first.items).length, PICK_LIMIT + 1, 'a page of channels and the search row');
    assert.ok(!rows(first.items).includes('Town hall'), 'Town hall is beyond the first page by name');
    assert.match(
      first.items!.find((item) => item.label.includes('Search'))!.description ?? '',
      /106 channels in all; the first 100 are listed/,
    );
    assert.equal(harness.ui.asked[1]!.kind, 'input');
    assert.ok(rows(second).includes('Town hall'));
    assert.equal(second.find((item) => item.label === 'Bulk 000')?.picked, true, 'the earlier pick stays picked');
    assert.deepEqual(outcome?.done.map(({ result }) => result.name).sort(), ['Bulk 000', 'Town hall']);
    for (const name of ['Bulk 000', 'Town hall']) await client.liveStopChannel((await channelNamed(name)).id);
  });

  it('searches videos by title when the first page is full', async () => {
    harness = await createHarness({ account: account(), pickLimit: 3 });
    harness.ui.script(
      chooseMany('Search videos by title'),
      type('match'),
      chooseMany('Match highlights'),
      choose('HLS'),
      choose('Copy address'),
    );
    const used = await harness.run(showVideoPlayAddresses);
    assert.equal(used?.action, 'copy');
    assert.match(used?.address.what ?? '', /"Match highlights"/);
    assert.deepEqual(rows(harness.ui.asked[2]!.items), ['Match highlights', '$(search) Search videos by title...']);
  });

  it('does not offer deleting a running channel, and says why when one is given', async () => {
    harness = await createHarness({ account: account() });
    const live = await channelNamed('Newsroom 24/7');
    assert.equal(await harness.run(deleteChannels, { node: live }), undefined);
    assert.equal(harness.ui.asked.length, 0, 'no confirmation asked');
    assert.match(
      harness.ui.infos[0] ?? '',
      /^Delete channel: "Newsroom 24\/7" is live, source present; nothing to do \(stop a running channel before deleting it\)\.$/,
    );
    assert.equal((await channelNamed('Newsroom 24/7')).status, 2);

    // A multi-selection mixing states: the others go on, and the message names the one left out.
    const idle = await channelNamed('Bulk 100');
    harness.ui.script(accept());
    assert.deepEqual(await harness.run(deleteChannels, { node: idle, selection: [idle, live] }), [idle.id]);
    assert.match(
      harness.ui.infos.at(-1) ?? '',
      /^Delete channel: skipped "Newsroom 24\/7" is live, source present \(stop a running channel before deleting it\)\.$/,
    );
    assert.equal(harness.ui.asked[0]!.title, 'Delete "Bulk 100" on account "Test account"?');

    harness.ui.script({ kind: 'pickMany', answer: () => undefined });
    await harness.run(deleteChannels);
    assert.ok(!rows(harness.ui.asked[1]!.items).includes('Newsroom 24/7'), 'the palette does not offer it either');
  });

  it('offers for transcoding and for playback addresses only the videos where they can work', async () => {
    harness = await createHarness({ account: account() });
    harness.ui.script({ kind: 'pickMany', answer: () => undefined }, { kind: 'pickMany', answer: () => undefined });
    await harness.run(transcodeVideos);
    await harness.run(showVideoPlayAddresses);
    const transcodable = rows(harness.ui.asked[0]!.items);
    for (const title of ['Interrupted upload', 'Meeting notes', 'Keynote', 'Product demo', 'Queued interview'])
      assert.ok(!transcodable.includes(title), title);
    for (const title of ['Raw upload', 'Broken encode', 'Match highlights'])
      assert.ok(transcodable.includes(title), title);
    const playable = rows(harness.ui.asked[1]!.items);
    for (const title of ['Raw upload', 'Interrupted upload', 'Meeting notes', 'Queued interview', 'Broken encode'])
      assert.ok(!playable.includes(title), title);
    assert.ok(playable.includes('Match highlights'));
    // VR videos are listed by queryVideo only when asked for: the palette asks for both kinds.
    assert.ok(transcodable.includes('VR walkthrough') && playable.includes('VR walkthrough'));
    assert.equal(
      harness.ui.asked[0]!.items!.find((item) => item.label === 'VR walkthrough')?.description,
      'Transcoded · VR',
    );
  });

  it('asks with a quick pick whenever a command made for tree items runs from the palette (or hides it there)', async () => {
    const root = join(__dirname, '..', '..');
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      contributes: { menus: Record<string, Array<{ command: string; when?: string }>> };
    };
    const hidden = new Set(
      pkg.contributes.menus.commandPalette!.filter((entry) => entry.when === 'false').map((entry) => entry.command),
    );
    // Commands of a tree item's context menu: they work on the clicked item, and from the palette they ask.
    const itemCommands = [...new Set(pkg.contributes.menus['view/item/context']!.map((entry) => entry.command))];
    assert.ok(itemCommands.length >= 10, itemCommands.join(', '));
    for (const id of itemCommands) {
      if (hidden.has(id)) continue;
      const row = COMMANDS.find((candidate) => candidate.id === id);
      assert.ok(row, `${id} is in no row of the command table`);
      harness = await createHarness({ account: account() });
      try {
        // Whatever it asks first is a pick of records (dismissed here), never nothing at all.
        harness.ui.pick = async (items, options) => (
          harness.ui.asked.push({ kind: 'pick', title: options.title, items }),
          undefined
        );
        harness.ui.pickMany = async (items, options) => (
          harness.ui.asked.push({ kind: 'pickMany', title: options.title, items }),
          undefined
        );
        assert.equal(await harness.run(rowHandler(row)), undefined, id);
        const first = harness.ui.asked[0];
        assert.ok(
          first && (first.kind === 'pick' || first.kind === 'pickMany'),
          `${id} asked nothing: ${harness.ui.infos.join(' | ')}`,
        );
        assert.ok(rows(first.items).length > 0, `${id}: an empty pick`);
        assert.deepEqual(harness.ui.errors, [], id);
      } finally {
        await harness.dispose();
      }
    }
  });
});
