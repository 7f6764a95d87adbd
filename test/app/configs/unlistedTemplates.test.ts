import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '../../../src/api/client';
import { applyPlan } from '../../../src/app/configs/apply';
import { planFolder, planJson } from '../../../src/app/configs/plan';
import { pullFolder, pullNotes } from '../../../src/app/configs/pull';
import { startFaultyServer, type FaultyServer } from '../helpers/faultyServer';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from '../helpers/platform';

type Json = Record<string, unknown>;
const FILE = 'Mobile HLS.templategroup.json';

/** A real platform may list template groups without each group's templates: the loopback server does. */
function unlistTemplates(action: string, text: string): string | undefined {
  if (action !== 'templateGroupList') return undefined;
  const envelope = JSON.parse(text) as { result: Json[] };
  for (const group of envelope.result) delete group.transcodeTemplates;
  return JSON.stringify(envelope);
}

describe('configuration as code: a platform that lists template groups without their templates', function () {
  let platform: TestPlatform;
  let proxy: FaultyServer;
  let direct: PlatformClient;
  let unlisting: PlatformClient;
  let dir: string;
  /** The folder's account is the address it was pulled from: the loopback server's. */
  let account: string;

  const readJson = async (): Promise<Json> => JSON.parse(await readFile(join(dir, FILE), 'utf8')) as Json;
  /** The group's templates as the platform holds them (asked directly, where they are listed). */
  const platformTemplates = async (): Promise<unknown> =>
    (await direct.templateGroupList()).find((g) => g.name === 'Mobile HLS')?.transcodeTemplates;

  beforeEach(async () => {
    platform = await startTestPlatform();
    proxy = await startFaultyServer(platform.platform.baseUrl);
    proxy.rewrite = unlistTemplates;
    account = proxy.baseUrl;
    direct = new PlatformClient({ baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
    unlisting = new PlatformClient({ baseUrl: proxy.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
    dir = await mkdtemp(join(tmpdir(), 'vp-configs-unlisted-'));
  });
  afterEach(async () => {
    await unlisting.close();
    await direct.close();
    await proxy.close();
    await platform.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a first pull writes no empty template list and says so; a change planned from that file is refused, nothing sent', async () => {
    const before = await platformTemplates();
    assert.ok(Array.isArray(before) && before.length === 2, JSON.stringify(before));
    const result = await pullFolder(unlisting, dir, { account });
    const doc = await readJson();
    assert.equal('transcodeTemplates' in doc, false, JSON.stringify(doc));
    const notes = pullNotes(result).join(' ');
    assert.match(notes, /without their templates: .*Mobile HLS\.templategroup\.json/);

    await writeFile(join(dir, FILE), `${JSON.stringify({ ...doc, trailorDuration: 45 }, null, 2)}\n`);
    const plan = await planFolder(unlisting, dir, { account });
    const problem = plan.problems.find((p) => p.file === FILE);
    assert.ok(problem, JSON.stringify(plan.problems));
    assert.match(problem.message, /without its templates, and this file has none: the update would leave the group/);
    proxy.seen.length = 0;
    await assert.rejects(applyPlan(unlisting, plan), /nothing was sent/);
    assert.deepEqual(proxy.seen, [], 'a request went out');
    assert.deepEqual(await platformTemplates(), before, "the group's templates changed");
  });

  it('pulling again keeps the templates the file has; a change of another field is one update, and the templates stay', async () => {
    // Pulled where the templates are listed (the file has them), then again where they are not.
    await pullFolder(direct, dir, { account });
    const pulled = await readJson();
    assert.equal((pulled.transcodeTemplates as unknown[]).length, 2);
    const state = await readFile(join(dir, '.video-platform-state.json'), 'utf8');
    // The same folder, now read through the loopback server: its state names that address.
    await writeFile(
      join(dir, '.video-platform-state.json'),
      state.replace(JSON.stringify(platform.platform.baseUrl), JSON.stringify(account)),
    );
    const again = await pullFolder(unlisting, dir, { account });
    assert.equal(again.files.find((f) => f.file === FILE)?.change, 'unchanged');
    assert.deepEqual(await readJson(), pulled);
    const quiet = planJson(await planFolder(unlisting, dir, { account })) as {
      operations: Array<{ action: string }>;
      problems: unknown[];
    };
    assert.deepEqual(
      quiet.operations.filter((op) => op.action !== 'none'),
      [],
      'no drift where the platform says nothing',
    );

    await writeFile(join(dir, FILE), `${JSON.stringify({ ...pulled, trailorDuration: 45 }, null, 2)}\n`);
    const plan = await planFolder(unlisting, dir, { account });
    assert.deepEqual(plan.problems, []);
    const update = plan.operations.find((op) => op.file === FILE);
    assert.equal(update?.action, 'update');
    assert.deepEqual(
      update.changes.map((c) => c.path),
      ['trailorDuration'],
    );
    const before = await platformTemplates();
    const applied = await applyPlan(unlisting, plan);
    assert.equal(applied.failed, undefined);
    assert.deepEqual(applied.ran[0]?.normalised, [], 'the templates read back as "normalised"');
    assert.deepEqual(await platformTemplates(), before);
    const group = (await direct.templateGroupList()).find((g) => g.name === 'Mobile HLS');
    assert.equal(group?.trailorDuration, 45);
    const after = planJson(await planFolder(unlisting, dir, { account })) as { operations: Array<{ action: string }> };
    assert.deepEqual(
      after.operations.filter((op) => op.action !== 'none'),
      [],
    );
  });
});
