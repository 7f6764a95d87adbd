import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '../../../src/api/client';
import { applyPlan } from '../../../src/app/configs/apply';
import { planFolder, planJson, type Plan } from '../../../src/app/configs/plan';
import { pullFolder } from '../../../src/app/configs/pull';
import { readSnapshot } from '../../../src/app/configs/snapshot';
import { STATE_FILE } from '../../../src/app/configs/state';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from '../helpers/platform';

type Json = Record<string, unknown>;

describe('configuration as code (issue 27): pull, plan, apply against the local platform', function () {
  let platform: TestPlatform;
  let client: PlatformClient;
  let account: string;
  let dir: string;

  const readJson = async (file: string): Promise<Json> => JSON.parse(await readFile(join(dir, file), 'utf8')) as Json;
  const writeJson = (file: string, value: unknown): Promise<void> =>
    writeFile(join(dir, file), `${JSON.stringify(value, null, 2)}\n`);
  const plan = (allowDelete = false): Promise<Plan> => planFolder(client, dir, { account, allowDelete });
  const changed = (p: Plan): Array<{ action: string; kind: string; name: string; file: string }> =>
    (
      planJson(p) as { operations: Array<{ action: string; kind: string; name: string; file: string }> }
    ).operations.filter((op) => op.action !== 'none');
  /** Everything the account holds, as the platform answers it: to show that nothing was sent. */
  const records = async (): Promise<string> => JSON.stringify(await readSnapshot(client));

  beforeEach(async () => {
    platform = await startTestPlatform();
    account = platform.platform.baseUrl;
    client = new PlatformClient({ baseUrl: account, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
    dir = await mkdtemp(join(tmpdir(), 'vp-configs-'));
  });
  afterEach(async () => {
    await client.close();
    await platform.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('pulls every record as one file named by its name, references by name, ids only in the state file', async () => {
    const result = await pullFolder(client, dir, { account });
    const files = (await readdir(dir)).sort();
    assert.ok(files.includes(STATE_FILE));
    for (const expected of [
      'Corner logo.logogroup.json',
      'Mobile HLS.templategroup.json',
      '720p.livetemplate.json',
      'Station bug.livelogo.json',
      'News.category.json',
      'Stadium feed.channel.json',
    ])
      assert.ok(files.includes(expected), `${expected} in ${files.join(', ')}`);
    // Built-in template groups are the platform's, not the account's.
    assert.ok(!files.some((file) => file.startsWith('Built-in')), files.join(', '));
    assert.ok(result.files.every((file) => file.change === 'created'));
    const channel = await readJson('Newsroom 24-7.channel.json');
    assert.equal(channel.id, undefined);
    assert.equal(channel.typeName, 'News');
    const groups = channel.outputGroupList as Array<{ id?: string; outputTemplateList: Array<{ templateId: string }> }>;
    assert.equal(groups[0]!.id, undefined);
    assert.ok(
      groups.flatMap((g) => g.outputTemplateList.map((t) => t.templateId)).every((name) => /^\d+p$/.test(name)),
      JSON.stringify(groups),
    );
    const standard = await readJson('Standard HLS + MP4.templategroup.json');
    assert.equal(standard.logoGroupId, 'Corner logo');
    const state = JSON.parse(await readFile(join(dir, STATE_FILE), 'utf8')) as {
      files: Record<string, { id: string }>;
    };
    assert.equal(state.files['Mobile HLS.templategroup.json']!.id, '1002');
    assert.doesNotMatch(JSON.stringify(state), new RegExp(SECRET_KEY));
  });

  it('pulling twice without changes changes no file', async () => {
    await pullFolder(client, dir, { account });
    const before = await Promise.all(
      (await readdir(dir)).filter((f) => f !== STATE_FILE).map((f) => readFile(join(dir, f), 'utf8')),
    );
    const again = await pullFolder(client, dir, { account });
    assert.deepEqual(
      again.files.filter((file) => file.change !== 'unchanged'),
      [],
    );
    const after = await Promise.all(
      (await readdir(dir)).filter((f) => f !== STATE_FILE).map((f) => readFile(join(dir, f), 'utf8')),
    );
    assert.deepEqual(after, before);
    assert.deepEqual(changed(await plan()), []);
  });

  it('plans exactly the two changed records in order, applies them, then plans no change; a platform change is drift', async () => {
    await pullFolder(client, dir, { account });
    const group = await readJson('Mobile HLS.templategroup.json');
    await writeJson('Mobile HLS.templategroup.json', { ...group, trailorDuration: 45 });
    const channel = await readJson('Stadium feed.channel.json');
    await writeJson('Stadium feed.channel.json', { ...channel, description: 'Away games too' });

    const first = await plan();
    assert.deepEqual(first.problems, []);
    assert.deepEqual(changed(first), [
      { action: 'update', kind: 'templategroup', name: 'Mobile HLS', file: 'Mobile HLS.templategroup.json' },
      { action: 'update', kind: 'channel', name: 'Stadium feed', file: 'Stadium feed.channel.json' },
    ]);
    const groupOp = first.operations.find((op) => op.kind === 'templategroup' && op.action === 'update')!;
    assert.deepEqual(groupOp.changes, [{ path: 'trailorDuration', old: 30, new: 45 }]);

    const result = await applyPlan(client, first);
    assert.equal(result.failed, undefined);
    assert.equal(result.ran.length, 2);
    const onPlatform = (await client.templateGroupList({})).find((g) => g.name === 'Mobile HLS')!;
    assert.equal(onPlatform.trailorDuration, 45);
    const stadium = (await client.liveGetChannelsByPage({ number: 100 })).channels.find(
      (c) => c.name === 'Stadium feed',
    )!;
    assert.equal(stadium.description, 'Away games too');

    assert.deepEqual(changed(await plan()), []);

    // Someone changes a record on the platform: the folder did not, so it is drift.
    const vr = (await client.templateGroupList({})).find((g) => g.name === 'VR 4K')!;
    await client.templateGroup({
      id: vr.id,
      name: vr.name,
      type: vr.type,
      trailor: true,
      trailorDuration: 12,
      logoGroupId: 0,
      transcodeTemplates: vr.transcodeTemplates!.map(({ advancedArguments: _a, ...rest }) => rest),
    });
    const drift = await plan();
    assert.deepEqual(changed(drift), [
      { action: 'drift', kind: 'templategroup', name: 'VR 4K', file: 'VR 4K.templategroup.json' },
    ]);
    const driftOp = drift.operations.find((op) => op.action === 'drift')!;
    assert.deepEqual(
      driftOp.changes.map((c) => c.path),
      ['trailor', 'trailorDuration'],
    );
  });

  it('refuses a folder with a broken reference at plan time and sends nothing', async () => {
    await pullFolder(client, dir, { account });
    const channel = await readJson('Stadium feed.channel.json');
    const groups = channel.outputGroupList as Array<{ outputTemplateList: Array<{ templateId: string }> }>;
    groups[0]!.outputTemplateList[0]!.templateId = 'No such template';
    await writeJson('Stadium feed.channel.json', { ...channel, outputGroupList: groups, description: 'changed' });
    const group = await readJson('Mobile HLS.templategroup.json');
    await writeJson('Mobile HLS.templategroup.json', { ...group, trailorDuration: 45 });
    const before = await records();

    const refused = await plan();
    assert.deepEqual(refused.problems, [
      {
        file: 'Stadium feed.channel.json',
        message:
          'outputGroupList[0].outputTemplateList[0].templateId names live template "No such template", which is neither in the folder nor on the account.',
      },
    ]);
    await assert.rejects(
      applyPlan(client, refused),
      /problems or conflicts, so nothing was sent: Stadium feed\.channel\.json/,
    );
    assert.equal(await records(), before);
  });
});
