import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { PlatformClient } from '../../../src/api/client';
import { applyPlan } from '../../../src/app/configs/apply';
import { planFolder, planJson, type Plan } from '../../../src/app/configs/plan';
import { pullFolder } from '../../../src/app/configs/pull';
import { readSnapshot } from '../../../src/app/configs/snapshot';
import { driftMessage } from '../../../src/app/configs/render';
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
    (planJson(p) as { operations: Array<{ action: string; kind: string; name: string; file: string }> }).operations
      .filter((op) => op.action !== 'none')
      .map(({ action, kind, name, file }) => ({ action, kind, name, file }));
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
    // The Problems line a user reads names each field with the file's value and the platform's.
    assert.equal(
      driftMessage(driftOp),
      'Changed on the platform since the pull: trailor false → true; trailorDuration 0 → 12.',
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

  describe('bad input: a clear line in the plan, and nothing sent', () => {
    beforeEach(async () => {
      await pullFolder(client, dir, { account });
      // A real change beside each bad input: it must not be sent either.
      const group = await readJson('Mobile HLS.templategroup.json');
      await writeJson('Mobile HLS.templategroup.json', { ...group, trailorDuration: 45 });
    });

    const refusedWith = async (expected: RegExp, options: { allowDelete?: boolean } = {}): Promise<void> => {
      const before = await records();
      const refused = await plan(options.allowDelete);
      assert.ok(
        refused.problems.some((p) => expected.test(`${p.file}: ${p.message}`)),
        JSON.stringify(refused.problems),
      );
      await assert.rejects(applyPlan(client, refused), /nothing was sent/);
      assert.equal(await records(), before);
    };

    it('a file that is not valid JSON', async () => {
      await writeFile(join(dir, 'Town hall.channel.json'), '{ "name": "Town hall", ');
      await refusedWith(/^Town hall\.channel\.json: The file is not valid JSON/);
    });

    it('a document that breaks the schema, named by field', async () => {
      const group = await readJson('Corner logo.logogroup.json');
      await writeJson('Corner logo.logogroup.json', { ...group, logos: 'none' });
      await refusedWith(/^Corner logo\.logogroup\.json: logos/);
    });

    it('two files for one record', async () => {
      await writeFile(join(dir, 'Town hall copy.channel.json'), await readFile(join(dir, 'Town hall.channel.json')));
      await refusedWith(
        /Town hall copy\.channel\.json and Town hall\.channel\.json are two files for one channel "Town hall": keep one/,
      );
    });

    it("a reference to a name that does not exist (a template group's logo group)", async () => {
      const group = await readJson('Standard HLS + MP4.templategroup.json');
      await writeJson('Standard HLS + MP4.templategroup.json', { ...group, logoGroupId: 'Lost logos' });
      await refusedWith(/logoGroupId names logo group "Lost logos", which is neither in the folder nor on the account/);
    });

    it('a record deleted on the platform since the pull', async () => {
      const concert = (await client.liveGetChannelsByPage({ number: 100 })).channels.find(
        (c) => c.name === 'Concert VR',
      )!;
      await client.liveDelete([concert.id]);
      await refusedWith(/^Concert VR\.channel\.json: channel [0-9a-f]{32} was deleted on the platform since the pull/);
    });

    it('a folder pulled from another platform', async () => {
      const before = await records();
      const other = await planFolder(client, dir, { account: 'http://127.0.0.1:1' });
      assert.match(
        other.problems[0]!.message,
        /This folder was pulled from http:\/\/127\.0\.0\.1:\d+, not from http:\/\/127\.0\.0\.1:1/,
      );
      await assert.rejects(applyPlan(client, other), /nothing was sent/);
      assert.equal(await records(), before);
    });

    it('a state file naming a path outside the folder: refused, and no file outside is touched', async () => {
      const outside = join(dir, '..', `${basename(dir)}-outside.channel.json`);
      await writeFile(outside, '{}');
      try {
        const state = JSON.parse(await readFile(join(dir, STATE_FILE), 'utf8')) as { files: Record<string, unknown> };
        state.files[`../${basename(outside)}`] = state.files['Town hall.channel.json'];
        await writeFile(join(dir, STATE_FILE), JSON.stringify(state));
        await assert.rejects(plan(), /names "\.\.\/.*-outside\.channel\.json", which is not a document of this folder/);
        await assert.rejects(pullFolder(client, dir, { account }), /which is not a document of this folder/);
        assert.equal(await readFile(outside, 'utf8'), '{}');
      } finally {
        await rm(outside, { force: true });
      }
    });

    it('a removed file without --allow-delete', async () => {
      await rm(join(dir, 'Concert VR.channel.json'));
      await refusedWith(
        /^Concert VR\.channel\.json: The file was removed from the folder: deleting channel "Concert VR" needs --allow-delete/,
      );
    });

    it('a changed live logo (the platform cannot modify one)', async () => {
      const logo = await readJson('Watermark.livelogo.json');
      await writeJson('Watermark.livelogo.json', { ...logo, opacity: 10 });
      await refusedWith(/^Watermark\.livelogo\.json: A live logo cannot be modified on the platform/);
    });

    it('a record changed in the file and on the platform: a conflict, not applied', async () => {
      const channel = await readJson('Town hall.channel.json');
      await writeJson('Town hall.channel.json', { ...channel, description: 'mine' });
      // Someone else applies their own folder's change to the same channel.
      const theirs = await mkdtemp(join(tmpdir(), 'vp-configs-theirs-'));
      try {
        await pullFolder(client, theirs, { account });
        await writeFile(join(theirs, 'Town hall.channel.json'), JSON.stringify({ ...channel, description: 'theirs' }));
        assert.equal((await applyPlan(client, await planFolder(client, theirs, { account }))).failed, undefined);
      } finally {
        await rm(theirs, { recursive: true, force: true });
      }
      const before = await records();
      const conflicted = await plan();
      const op = conflicted.operations.find((o) => o.file === 'Town hall.channel.json')!;
      assert.equal(op.action, 'conflict');
      assert.deepEqual(op.changes, [{ path: 'description', old: 'theirs', new: 'mine' }]);
      assert.deepEqual(op.platformChanges, [{ path: 'description', old: channel.description, new: 'theirs' }]);
      await assert.rejects(
        applyPlan(client, conflicted),
        /Town hall\.channel\.json: changed in the file and on the platform/,
      );
      assert.equal(await records(), before);
    });
  });

  it("deletes a removed file's record with --allow-delete, creates new files in order with references by name", async () => {
    await pullFolder(client, dir, { account });
    await rm(join(dir, 'Concert VR.channel.json'));
    await writeJson('Weather.category.json', { name: 'Weather' });
    const town = await readJson('Town hall.channel.json');
    await writeJson('Weather desk.channel.json', { ...town, name: 'Weather desk', typeName: 'Weather' });
    const planned = await plan(true);
    assert.deepEqual(planned.problems, []);
    assert.deepEqual(changed(planned), [
      { action: 'create', kind: 'category', name: 'Weather', file: 'Weather.category.json' },
      { action: 'create', kind: 'channel', name: 'Weather desk', file: 'Weather desk.channel.json' },
      { action: 'delete', kind: 'channel', name: 'Concert VR', file: 'Concert VR.channel.json' },
    ]);
    const result = await applyPlan(client, planned);
    assert.equal(result.failed, undefined);
    const channels = (await client.liveGetChannelsByPage({ number: 100 })).channels;
    assert.ok(!channels.some((c) => c.name === 'Concert VR'));
    const weather = channels.find((c) => c.name === 'Weather desk')!;
    const category = (await client.liveChannelTypeList({})).find((c) => c.name === 'Weather')!;
    assert.equal(weather.type, category.id);
    assert.deepEqual(changed(await plan(true)), []);
  });

  it('reports a field the platform normalised, and does not plan it again (no perpetual diff)', async () => {
    await pullFolder(client, dir, { account });
    const channel = await readJson('Stadium feed.channel.json');
    await writeJson('Stadium feed.channel.json', { ...channel, name: 'Stadium feed  ' });
    const result = await applyPlan(client, await plan());
    assert.equal(result.failed, undefined);
    assert.deepEqual(result.ran[0]!.normalised, [{ path: 'name', old: 'Stadium feed  ', new: 'Stadium feed' }]);
    assert.deepEqual(changed(await plan()), []);
  });
});
