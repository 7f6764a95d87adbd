import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isChannelRunning } from '../../../src/api/types';
import { applyPlan, applySummary } from '../../../src/app/configs/apply';
import { applyPlanCommand, planFolderCommand, pullAccountIntoFolder } from '../../../src/app/configs/lazy';
import { planFolder, planJson, type Plan } from '../../../src/app/configs/plan';
import { planRows } from '../../../src/app/configs/planTree';
import { planLines } from '../../../src/app/configs/render';
import { configsOf } from '../../../src/app/configs/service';
import { DEMO_NAMES } from '../../../src/localPlatform/demo/demo';
import { platformSuite } from '../helpers/platformSuite';
import { accept } from '../helpers/scriptedUi';

const FILE = 'Newsroom 24-7.channel.json';

describe('configuration as code: an update of a running channel stops it, updates it and starts it again', function () {
  const suite = platformSuite();
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vp-configs-running-'));
    await suite.harness.run(pullAccountIntoFolder, { files: [dir] });
  });
  afterEach(async () => {
    configsOf(suite.harness.ctx).dispose();
    await rm(dir, { recursive: true, force: true });
  });

  /** The demo's live channel as the platform has it now. */
  const liveChannel = async () =>
    (await suite.client.liveGetChannelsByPage({ start: 1, number: 100 })).channels.find(
      (c) => c.name === DEMO_NAMES.channels.live,
    )!;
  const describeAs = async (description: string): Promise<void> => {
    const doc = JSON.parse(await readFile(join(dir, FILE), 'utf8')) as Record<string, unknown>;
    await writeFile(join(dir, FILE), `${JSON.stringify({ ...doc, description }, null, 2)}\n`);
  };

  it('plans it with the restart shown, asks once naming the channel, and reports it; the channel is running again', async () => {
    const { harness } = suite;
    assert.ok(isChannelRunning((await liveChannel()).status), 'the demo channel is not running');
    await describeAs('updated while live');
    const plan = (await harness.run(planFolderCommand, { files: [dir] })) as Plan;
    assert.deepEqual(plan.problems, []);
    const update = plan.operations.find((op) => op.file === FILE)!;
    assert.equal(update.action, 'update');
    assert.equal(update.needsStop, true);
    // Scripts read it from --json too.
    const json = planJson(plan) as { operations: Array<{ file: string; needsStop?: boolean }> };
    assert.equal(json.operations.find((op) => op.file === FILE)?.needsStop, true);
    assert.ok(
      planLines(plan).some((line) =>
        /The channel is running: apply stops it, updates it and starts it again/.test(line),
      ),
      planLines(plan).join('\n'),
    );
    const row = planRows(plan).find((r) => r.label === `1. ${DEMO_NAMES.channels.live}`)!;
    assert.deepEqual(
      row.children.map((c) => c.label),
      ['Stopped, updated, started again', 'description'],
    );

    harness.ui.script(accept());
    await harness.run(applyPlanCommand, { files: [dir] });
    const asked = harness.ui.asked.find((entry) => entry.kind === 'confirm');
    assert.match(String(asked?.message), /Running now, so stopped, updated and started again: "Newsroom 24\/7"\./);
    assert.deepEqual(harness.ui.errors, []);
    assert.ok(
      harness.ui.infos.some((m) =>
        /^Applied: update Newsroom 24-7\.channel\.json \(stopped, updated and started again\)\.$/.test(m),
      ),
      harness.ui.infos.join('\n'),
    );
    const after = await liveChannel();
    assert.equal(after.description, 'updated while live');
    assert.ok(isChannelRunning(after.status), `status ${after.status} after apply`);
    assert.deepEqual(
      planRows(configsOf(harness.ctx).lastPlan).map((r) => r.label),
      ['No changes: the folder and the platform agree.'],
    );
    // Plan Folder from the plan view's title (no folder given) plans the folder it shows, asking nothing.
    const again = await harness.run(planFolderCommand);
    assert.equal((again as Plan | undefined)?.dir, dir);
  });

  it('starts the channel again when its update is refused after the stop, and says what happened', async () => {
    await describeAs('never sent');
    const account = suite.platform.platform.baseUrl;
    const plan = await planFolder(suite.client, dir, { account });
    const update = plan.operations.find((op) => op.file === FILE)!;
    assert.equal(update.needsStop, true);
    // The folder changed between plan and apply: its live template is one the account does not have.
    const doc = update.doc as { outputGroupList: Array<{ outputTemplateList: Array<{ templateId: string }> }> };
    doc.outputGroupList[0]!.outputTemplateList[0]!.templateId = 'No such template';
    const result = await applyPlan(suite.client, plan);
    assert.equal(result.failed?.operation.file, FILE);
    assert.match(applySummary(result), /Stopped at update Newsroom 24-7\.channel\.json: .*No such template/);
    const after = await liveChannel();
    assert.notEqual(after.description, 'never sent');
    assert.ok(isChannelRunning(after.status), `status ${after.status}: the channel was left stopped`);
  });
});
