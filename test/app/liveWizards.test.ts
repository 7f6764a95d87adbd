import assert from 'node:assert/strict';
import { createLiveLogo } from '../../src/app/commands/createLiveLogo';
import { filterChannels } from '../../src/app/commands/filterCommands';
import { updateLiveTemplate } from '../../src/app/commands/updateLiveTemplate';
import { CategoryNode, ChannelNode } from '../../src/app/tree/nodes';
import { platformSuite } from './helpers/platformSuite';
import { choose, dismissInput, dismissPick, keep, type } from './helpers/scriptedUi';

describe('Live template, live logo and filter wizards against the local platform', () => {
  const suite = platformSuite();

  it('updates a live template, sending only the changed fields', async () => {
    suite.harness.ui.script(choose('480p'), type('480p mobile'), keep(), keep(), type('700'), keep(), keep());
    const updated = await suite.harness.run(updateLiveTemplate);
    assert.ok(updated, suite.harness.ui.errors.join('\n'));
    assert.equal(updated.displayName, '480p mobile');
    assert.equal(updated.videoBitrate, 700);
    const stored = (await suite.client.liveGetTemplates()).find((template) => template.id === updated.id)!;
    assert.equal(stored.videoBitrate, 700);
    assert.equal(stored.videoWidth, 854, 'kept fields unchanged');
    assert.ok(suite.harness.log.text().includes('displayName, videoBitrate'));
  });

  it('says so when nothing changed, and refuses a bad number naming the field (nothing sent)', async () => {
    suite.harness.ui.script(choose('720p'), keep(), keep(), keep(), keep(), keep(), keep());
    assert.equal(await suite.harness.run(updateLiveTemplate), undefined);
    assert.match(suite.harness.ui.infos[0]!, /Nothing changed in live template "720p"/);

    const before = (await suite.client.liveGetTemplates()).find((template) => template.displayName === '720p')!;
    suite.harness.ui.script(choose('720p'), keep(), type('wide'));
    assert.equal(await suite.harness.run(updateLiveTemplate), undefined);
    assert.match(suite.harness.ui.errors[0]!, /Update live template failed: Video width must be a whole number/);
    assert.deepEqual(
      (await suite.client.liveGetTemplates()).find((template) => template.id === before.id),
      before,
    );
  });

  it('creates a live logo with the wizard', async () => {
    suite.harness.ui.script(
      type('Corner bug'),
      type('logos/corner.png'),
      type('120'),
      type('60'),
      keep(),
      keep(),
      type('70'),
      keep(),
    );
    const logo = await suite.harness.run(createLiveLogo);
    assert.ok(logo, suite.harness.ui.errors.join('\n'));
    assert.deepEqual(
      [logo.name, logo.width, logo.height, logo.offsetWidth, logo.opacity, logo.resize],
      ['Corner bug', 120, 60, 0, 70, 100],
    );
    assert.ok((await suite.client.liveLogoList({ name: 'Corner bug' })).some((candidate) => candidate.id === logo.id));
  });

  it('refuses an absolute logo path and out-of-range opacity, naming the rule', async () => {
    suite.harness.ui.script(type('Bad'), type('https://cdn.example/logo.png'));
    assert.equal(await suite.harness.run(createLiveLogo), undefined);
    assert.match(suite.harness.ui.errors[0]!, /Image path must be relative/);
    suite.harness.ui.script(type('Bad'), type('logo.png'), type('1'), type('1'), keep(), keep(), type('101'));
    assert.equal(await suite.harness.run(createLiveLogo), undefined);
    assert.match(suite.harness.ui.errors[1]!, /Opacity must be from 0 to 100/);
    suite.harness.ui.script(type('Backed out'), dismissInput());
    assert.equal(await suite.harness.run(createLiveLogo), undefined);
    assert.equal(suite.harness.ui.errors.length, 2, 'backing out says nothing');
  });

  it('filters channels: search, category, sort, grouping and clear', async () => {
    suite.harness.ui.script(choose('Search by name...'), type('stadium'));
    await suite.harness.run(filterChannels);
    assert.equal(suite.harness.channels.filterText, 'name ~ "stadium"');
    assert.deepEqual(
      (await suite.harness.channels.getChildren()).map((node) => node.view().label),
      ['Stadium feed'],
    );

    // The pick says which search is in force, for either kind.
    suite.harness.ui.script(choose('Search by name or category'), type('sports'), dismissPick());
    await suite.harness.run(filterChannels);
    await suite.harness.run(filterChannels);
    const shown = suite.harness.ui.asked.at(-1)!.items!;
    assert.equal(shown.find((item) => item.label.includes('Search by name or category'))?.description, 'now "sports"');
    assert.equal(shown.find((item) => item.label.includes('Search by name...'))?.description, undefined);

    suite.harness.ui.script(choose('Only one category'), choose('Events'));
    await suite.harness.run(filterChannels);
    assert.deepEqual(
      (await suite.harness.channels.getChildren()).map((node) => node.view().label),
      ['Town hall'],
    );

    suite.harness.ui.script(choose('Sort'), choose('Name, Z to A'));
    await suite.harness.run(filterChannels);
    assert.deepEqual(suite.harness.channels.filter.sort, 'name');
    assert.match(suite.harness.channels.filterText, /category: Events · by name desc/);
    // The menu says which sort is in force, in its own words.
    suite.harness.ui.script(dismissPick());
    await suite.harness.run(filterChannels);
    const sortRow = suite.harness.ui.asked.at(-1)!.items!.find((item) => item.label.includes('Sort'));
    assert.equal(sortRow?.description, 'now "Name, Z to A"');

    suite.harness.ui.script(choose('Clear filter'));
    await suite.harness.run(filterChannels);
    assert.equal(suite.harness.channels.filterText, '');
    suite.harness.ui.script(choose('Group by category'));
    await suite.harness.run(filterChannels);
    const roots = await suite.harness.channels.getChildren();
    assert.ok(roots.every((node) => node instanceof CategoryNode));
    suite.harness.ui.script(choose('Show as one list'));
    await suite.harness.run(filterChannels);
    assert.ok((await suite.harness.channels.getChildren()).some((node) => node instanceof ChannelNode));
  });
});
