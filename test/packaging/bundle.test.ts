import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from '../app/helpers/platform';

const run = promisify(execFile);
const root = join(__dirname, '..', '..');
const bundle = join(root, 'dist', 'extension.js');
const probe = join(__dirname, 'bundleProbe.cjs');

interface ProbeResult {
  error?: string;
  exports: string[];
  hadDispatcher: boolean;
  dispatcherSameAfterLoad: boolean;
  dispatcherSameAfterActivate?: boolean;
  channels?: string[];
  firstItem?: { contextValue: string; hasId: boolean; icon: string };
  commands?: string[];
  status?: string[];
  hasAccount?: boolean;
  secretInLog?: boolean;
  requestLogged?: boolean;
  diagnosticCollections?: string[];
  rtmpOutput?: string;
  errorMessages?: string[];
  partsAtActivation?: string[];
  partsAfterList?: string[];
  partsAfterRun?: string[];
}

async function probeBundle(
  storageDir: string,
  flags: string[],
  env: NodeJS.ProcessEnv = {},
  extension = bundle,
): Promise<ProbeResult> {
  const { stdout } = await run(process.execPath, [probe, extension, storageDir, ...flags], {
    env: { ...process.env, ...env },
    timeout: 30_000,
  });
  const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as ProbeResult;
  assert.equal(result.error, undefined, result.error);
  return result;
}

describe('The built bundle (dist/extension.js) with a minimal vscode seam', function () {
  this.timeout(60_000);
  let storageDir: string;
  let platform: TestPlatform;

  before(async () => {
    // `npm test` builds first; build here too when the suite runs alone.
    if (!existsSync(bundle))
      await run(process.execPath, [join(root, 'scripts', 'build.mjs'), '--only', 'extension'], { cwd: root });
    storageDir = await mkdtemp(join(tmpdir(), 'vp-bundle-'));
    platform = await startTestPlatform();
  });
  after(async () => {
    await platform.close();
    await rm(storageDir, { recursive: true, force: true });
  });

  it('loads without installing a global undici dispatcher', async () => {
    const result = await probeBundle(storageDir, []);
    assert.deepEqual(result.exports, ['activate', 'deactivate']);
    assert.equal(result.hadDispatcher, false);
    assert.equal(result.dispatcherSameAfterLoad, true);
  });

  it('activates with the npm start account, lists its channels, registers every command, and leaves the dispatcher alone', async () => {
    const result = await probeBundle(storageDir, ['preset', 'activate'], {
      VIDEO_PLATFORM_DEV_BASE_URL: platform.platform.baseUrl,
      VIDEO_PLATFORM_DEV_ACCESS_KEY: ACCESS_KEY,
      VIDEO_PLATFORM_DEV_SECRET_KEY: SECRET_KEY,
    });
    assert.equal(result.hadDispatcher, true);
    assert.equal(result.dispatcherSameAfterLoad, true);
    assert.equal(result.dispatcherSameAfterActivate, true);
    assert.ok(result.channels?.includes('Newsroom 24/7'), JSON.stringify(result.channels));
    assert.equal(result.firstItem?.hasId, true, 'tree items have a stable id (selection and reveal follow it)');
    assert.match(result.firstItem?.contextValue ?? '', /^channel\+/);
    assert.deepEqual(result.status, ['$(broadcast) Local platform (npm start)']);
    assert.equal(result.hasAccount, true);
    assert.equal(result.requestLogged, true);
    assert.equal(result.secretInLog, false);
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      contributes: { commands: Array<{ command: string }> };
    };
    const registered = new Set(result.commands);
    const missing = pkg.contributes.commands.map((entry) => entry.command).filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
    // Authoring problems, those of .m3u8 playlists and a pulled folder's drift are live from activation on, not
    // only after a first command.
    assert.deepEqual([...(result.diagnosticCollections ?? [])].sort(), [
      'videoPlatform.authoring',
      'videoPlatform.configs',
      'videoPlatform.hls',
    ]);
  });

  it("runs Inspect Stream from its lazy part (dist/lazy/inspect.js) with the bundle's own tree nodes and translator", async () => {
    const result = await probeBundle(storageDir, ['preset', 'activate', 'inspect'], {
      VIDEO_PLATFORM_DEV_BASE_URL: platform.platform.baseUrl,
      VIDEO_PLATFORM_DEV_ACCESS_KEY: ACCESS_KEY,
      VIDEO_PLATFORM_DEV_SECRET_KEY: SECRET_KEY,
    });
    assert.ok(result.rtmpOutput, 'a channel has an RTMP output');
    // The output is recognised (one OutputNode class for both parts, or the command would ask for an address)
    // and the refusal is in the installed translator's words (one l10n module, or the text would be unmarked).
    assert.deepEqual(result.errorMessages, [
      `««Inspect stream» failed: «the output's address ${result.rtmpOutput} is not an http(s) address (RTMP cannot be inspected)»»`,
    ]);
  });

  // Issue 29: activation loads the bundle alone; the client comes with the first list, a command's handlers with its
  // first run (and what that command needs, here the Ui's questions).
  it('loads no lazy part during activation, the client with the first list, the handlers with the first command', async () => {
    const result = await probeBundle(storageDir, ['preset', 'activate', 'run=videoPlatform.filterChannels'], {
      VIDEO_PLATFORM_DEV_BASE_URL: platform.platform.baseUrl,
      VIDEO_PLATFORM_DEV_ACCESS_KEY: ACCESS_KEY,
      VIDEO_PLATFORM_DEV_SECRET_KEY: SECRET_KEY,
    });
    assert.deepEqual(result.partsAtActivation, []);
    assert.ok(result.channels?.includes('Newsroom 24/7'), JSON.stringify(result.channels));
    assert.deepEqual(result.partsAfterList, ['lazy/client.js', 'lazy/undici.js']);
    assert.deepEqual(result.errorMessages, []);
    for (const part of ['lazy/commands.js', 'lazy/questions.js'])
      assert.ok(result.partsAfterRun?.includes(part), `${part} not loaded: ${result.partsAfterRun?.join(', ')}`);
  });

  /** The messages shown when `command` runs on a copy of the bundle whose lazy part `part` is missing. */
  async function runWithout(part: string, command: string): Promise<string[] | undefined> {
    const copy = await mkdtemp(join(tmpdir(), 'vp-damaged-'));
    try {
      await cp(join(root, 'dist', 'extension.js'), join(copy, 'extension.js'));
      await cp(join(root, 'dist', 'lazy'), join(copy, 'lazy'), { recursive: true });
      await rm(join(copy, 'lazy', part));
      const result = await probeBundle(storageDir, ['activate', `run=${command}`], {}, join(copy, 'extension.js'));
      return result.errorMessages;
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  }

  it("reports a lazy part that cannot be loaded (a damaged install) through the command's failure message", async () => {
    assert.deepEqual(await runWithout('commands.js', 'videoPlatform.refreshChannels'), [
      `««Refresh channels» failed: «The extension's commands part could not be loaded: Cannot find module './lazy/commands.js'»»`,
    ]);
  });

  it('reports a damaged configuration-as-code part like the other parts', async () => {
    assert.deepEqual(await runWithout('configs.js', 'videoPlatform.planFolder'), [
      `««Plan folder» failed: «The extension's configs part could not be loaded: Cannot find module './lazy/configs.js'»»`,
    ]);
  });

  it('without an account shows the welcome view (no items) and the "no account" status', async () => {
    const result = await probeBundle(storageDir, ['activate'], {
      VIDEO_PLATFORM_DEV_BASE_URL: '',
      VIDEO_PLATFORM_DEV_ACCESS_KEY: '',
      VIDEO_PLATFORM_DEV_SECRET_KEY: '',
    });
    assert.deepEqual(result.channels, []);
    assert.deepEqual(result.status, ['$(plug) Video Platform: no account']);
    assert.equal(result.hasAccount, false);
    assert.equal(result.dispatcherSameAfterActivate, true);
  });
});
