import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '../../../src/api/client';
import { run } from '../../../src/app/configs/cli';
import { readSnapshot } from '../../../src/app/configs/snapshot';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from '../helpers/platform';

describe('npm run configs (issue 27): the command line', function () {
  let platform: TestPlatform;
  let client: PlatformClient;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  /** The command in-process, as `node dist/configs.js` runs it; its exit code and what it printed. */
  const configs = async (...argv: string[]): Promise<{ code: number; out: string; err: string }> => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await run(
      argv,
      env,
      (line) => out.push(line),
      (line) => err.push(line),
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  const records = async (): Promise<string> => JSON.stringify(await readSnapshot(client));
  const editGroup = async (): Promise<void> => {
    const path = join(dir, 'Mobile HLS.templategroup.json');
    const group = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    await writeFile(path, JSON.stringify({ ...group, trailorDuration: 50 }));
  };

  beforeEach(async () => {
    platform = await startTestPlatform();
    client = new PlatformClient({ baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
    dir = await mkdtemp(join(tmpdir(), 'vp-configs-cli-'));
    env = {
      VIDEO_PLATFORM_BASE_URL: platform.platform.baseUrl,
      VIDEO_PLATFORM_ACCESS_KEY: ACCESS_KEY,
      VIDEO_PLATFORM_SECRET_KEY: SECRET_KEY,
    };
  });
  afterEach(async () => {
    await client.close();
    await platform.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('takes credentials only from the environment, and names what is missing', async () => {
    env = { VIDEO_PLATFORM_BASE_URL: platform.platform.baseUrl };
    const missing = await configs('pull', '--dir', dir);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /set VIDEO_PLATFORM_ACCESS_KEY, VIDEO_PLATFORM_SECRET_KEY in the environment/);
    const asArgument = await configs('pull', '--dir', dir, '--secret-key', SECRET_KEY);
    assert.equal(asArgument.code, 2);
    assert.match(asArgument.err, /unknown argument --secret-key/);
    assert.doesNotMatch(asArgument.err, new RegExp(SECRET_KEY));
  });

  it('refuses bad arguments with the rule', async () => {
    assert.match((await configs('push', '--dir', dir)).err, /the first argument is pull, plan or apply, not "push"/);
    assert.match((await configs('plan')).err, /--dir is required/);
    assert.match((await configs('plan', '--dir', dir, '--dry-run')).err, /--dry-run goes with apply/);
  });

  it('pulls, plans as JSON for scripts, and applies only with --yes outside a terminal', async () => {
    const pulled = await configs('pull', '--dir', dir);
    assert.equal(pulled.code, 0, pulled.err);
    assert.match(pulled.out, /18 created, 0 updated, 0 removed, 0 unchanged\./);
    await editGroup();

    const planned = await configs('plan', '--dir', dir, '--json');
    assert.equal(planned.code, 0, planned.err);
    const json = JSON.parse(planned.out) as { operations: Array<{ action: string }> };
    assert.deepEqual(
      json.operations.filter((op) => op.action !== 'none'),
      [
        {
          action: 'update',
          kind: 'templategroup',
          name: 'Mobile HLS',
          file: 'Mobile HLS.templategroup.json',
          changes: [{ path: 'trailorDuration', old: 30, new: 50 }],
        },
      ],
    );

    const before = await records();
    const unconfirmed = await configs('apply', '--dir', dir);
    assert.equal(unconfirmed.code, 1);
    assert.match(unconfirmed.out, /not in a terminal, pass --yes\nNothing was applied\./);
    assert.equal(await records(), before);

    const applied = await configs('apply', '--dir', dir, '--yes');
    assert.equal(applied.code, 0, applied.err);
    assert.match(applied.out, /Applied: update Mobile HLS\.templategroup\.json\./);
    assert.equal((await client.templateGroupList({})).find((g) => g.name === 'Mobile HLS')!.trailorDuration, 50);
    assert.doesNotMatch(applied.out + applied.err, new RegExp(SECRET_KEY));
    assert.match((await configs('plan', '--dir', dir)).out, /No changes: the folder and the platform agree\./);
  });

  it('--dry-run applies to a scratch copy in a local platform and leaves the account as it was', async () => {
    await configs('pull', '--dir', dir);
    await editGroup();
    const before = await records();
    const state = await readFile(join(dir, '.video-platform-state.json'), 'utf8');
    const dry = await configs('apply', '--dir', dir, '--dry-run');
    assert.equal(dry.code, 0, dry.err);
    assert.match(dry.out, /Dry run: Applied: update Mobile HLS\.templategroup\.json\./);
    assert.equal(await records(), before);
    assert.equal(await readFile(join(dir, '.video-platform-state.json'), 'utf8'), state);
  });

  it('exits 1 on a plan with a problem', async () => {
    await configs('pull', '--dir', dir);
    await writeFile(join(dir, 'Town hall.channel.json'), '{');
    const planned = await configs('plan', '--dir', dir);
    assert.equal(planned.code, 1);
    assert.match(
      planned.out,
      /Refused at plan time \(nothing will be sent\):\n {2}! Town hall\.channel\.json: The file is not valid JSON/,
    );
  });
});
