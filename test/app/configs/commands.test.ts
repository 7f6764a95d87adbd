import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  applyPlanCommand,
  planFolderCommand,
  planToPutMineBackCommand,
  pullAccountIntoFolder,
  takePlatformVersionCommand,
} from '../../../src/app/configs/lazy';
import { planRows } from '../../../src/app/configs/planTree';
import { configsOf } from '../../../src/app/configs/service';
import { platformSuite } from '../helpers/platformSuite';
import { accept, openFiles } from '../helpers/scriptedUi';

describe('configuration as code in the extension (issue 27): commands, plan view, drift and its quick fixes', function () {
  const suite = platformSuite();
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vp-configs-ext-'));
  });
  afterEach(async () => {
    configsOf(suite.harness.ctx).dispose();
    await rm(dir, { recursive: true, force: true });
  });

  const file = (name: string): string => join(dir, name);
  const editJson = async (name: string, change: Record<string, unknown>): Promise<void> => {
    const value = JSON.parse(await readFile(file(name), 'utf8')) as Record<string, unknown>;
    await writeFile(file(name), JSON.stringify({ ...value, ...change }, null, 2));
  };
  /** Someone changes Events' channel "Town hall" on the platform, outside the folder. */
  const changeOnPlatform = async (description: string): Promise<void> => {
    const other = await mkdtemp(join(tmpdir(), 'vp-configs-other-'));
    try {
      await suite.harness.run(pullAccountIntoFolder, { files: [other] });
      const value = JSON.parse(await readFile(join(other, 'Town hall.channel.json'), 'utf8')) as object;
      await writeFile(join(other, 'Town hall.channel.json'), JSON.stringify({ ...value, description }));
      suite.harness.ui.script(accept());
      await suite.harness.run(applyPlanCommand, { files: [other] });
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  };

  it('pulls the folder picked in the dialog, plans it into the view, applies after one confirmation naming the account', async () => {
    const { harness } = suite;
    harness.ui.script(openFiles(dir));
    await harness.run(pullAccountIntoFolder);
    assert.match(harness.ui.infos.at(-1)!, /^Pulled Test account into vp-configs-ext-\w+: 18 created, 0 updated/);

    await editJson('Mobile HLS.templategroup.json', { trailorDuration: 60 });
    const plan = await harness.run(planFolderCommand, { files: [dir] });
    assert.match(
      harness.ui.infos.at(-1)!,
      /0 to create, 1 to update, 0 to delete, 0 drifted, 0 in conflict, 17 unchanged/,
    );
    const rows = planRows(configsOf(harness.ctx).lastPlan);
    assert.equal(plan, configsOf(harness.ctx).lastPlan);
    assert.deepEqual(
      rows.map((row) => [row.label, row.description, row.children.map((c) => `${c.label}: ${c.description}`)]),
      [['1. Mobile HLS', 'update', ['trailorDuration: 30 → 60']]],
    );

    harness.ui.script(accept());
    await harness.run(applyPlanCommand);
    const asked = harness.ui.asked.find((entry) => entry.kind === 'confirm');
    assert.match(String(asked?.title), /^Apply 1 operation to account "Test account" \(http:\/\/127\.0\.0\.1:\d+\)\?$/);
    assert.deepEqual(harness.ui.errors, []);
    assert.equal((await suite.client.templateGroupList({})).find((g) => g.name === 'Mobile HLS')!.trailorDuration, 60);
    assert.deepEqual(
      planRows(configsOf(harness.ctx).lastPlan).map((row) => row.label),
      ['No changes: the folder and the platform agree.'],
    );
  });

  it('refuses to apply a plan with a refused line: an error naming it, and nothing sent', async () => {
    const { harness } = suite;
    await harness.run(pullAccountIntoFolder, { files: [dir] });
    const before = JSON.stringify(await suite.client.templateGroupList({}));
    await editJson('Mobile HLS.templategroup.json', { trailorDuration: 61, logoGroupId: 'Nowhere' });
    await harness.run(applyPlanCommand, { files: [dir] });
    assert.match(harness.ui.errors.at(-1)!, /^Nothing was sent: the plan of .* logoGroupId names logo group "Nowhere"/);
    assert.equal(JSON.stringify(await suite.client.templateGroupList({})), before);
  });

  it('shows drift after a change on the platform; "take the platform\'s version" writes it into the file', async () => {
    const { harness } = suite;
    await harness.run(pullAccountIntoFolder, { files: [dir] });
    await changeOnPlatform('changed elsewhere');
    const service = configsOf(harness.ctx);
    // Planned, so the plan view shows the drift too.
    await harness.run(planFolderCommand, { files: [dir] });
    assert.ok(
      planRows(service.lastPlan).some((row) => /Town hall/.test(row.label) && /drift/.test(row.description ?? '')),
    );
    const drift = service.driftOf(dir, 'Town hall.channel.json');
    assert.equal(drift?.action, 'drift');
    assert.deepEqual(
      drift.changes.map((c) => [c.path, c.new]),
      [['description', 'changed elsewhere']],
    );

    await harness.run(takePlatformVersionCommand, { files: [file('Town hall.channel.json')] });
    const taken = JSON.parse(await readFile(file('Town hall.channel.json'), 'utf8')) as { description: string };
    assert.equal(taken.description, 'changed elsewhere');
    assert.equal(service.driftOf(dir, 'Town hall.channel.json'), undefined);
    // The plan view no longer lists the drift it showed: the folder was planned again.
    assert.deepEqual(
      planRows(service.lastPlan).map((row) => row.label),
      ['No changes: the folder and the platform agree.'],
    );
    const plan = await harness.run(planFolderCommand, { files: [dir] });
    assert.deepEqual(
      plan!.operations.filter((op) => op.action !== 'none'),
      [],
    );
  });

  it('"plan to put mine back" plans the file over the drifted record, and apply restores it', async () => {
    const { harness } = suite;
    await harness.run(pullAccountIntoFolder, { files: [dir] });
    const mine = (JSON.parse(await readFile(file('Town hall.channel.json'), 'utf8')) as { description: string })
      .description;
    await changeOnPlatform('changed elsewhere again');
    await configsOf(harness.ctx).compareAll();
    const plan = await harness.run(planToPutMineBackCommand, { files: [file('Town hall.channel.json')] });
    const op = plan!.operations.find((o) => o.file === 'Town hall.channel.json')!;
    assert.equal(op.action, 'update');
    assert.deepEqual(op.changes, [{ path: 'description', old: 'changed elsewhere again', new: mine }]);
    harness.ui.script(accept());
    await harness.run(applyPlanCommand, { files: [dir] });
    const town = (await suite.client.liveGetChannelsByPage({ number: 100 })).channels.find(
      (c) => c.name === 'Town hall',
    )!;
    assert.equal(town.description, mine);
  });
});
