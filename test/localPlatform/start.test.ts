/** `npm start` (scripts/start.mjs): account kept private, VS Code opened with the dev variables, no secret printed. */
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { chmod, readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PlatformClient } from '../../src/api/client';
import { eventually } from '../helpers/eventually';
import { removeDir, tempDir } from './harness';

const REPO = join(__dirname, '..', '..');

function runStart(
  home: string,
  binDir: string,
): { done: Promise<number | null>; output: () => string; kill: () => void } {
  const child = spawn(process.execPath, [join(REPO, 'scripts', 'start.mjs')], {
    cwd: REPO,
    env: { ...process.env, LOCAL_PLATFORM_HOME: home, LOCAL_PLATFORM_PORT: '0', PATH: binDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
  const done = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { done, output: () => out, kill: () => child.kill('SIGINT') };
}

describe('local platform: npm start', function () {
  this.timeout(60_000);
  let dir: string | undefined;

  before(() => {
    execFileSync(process.execPath, [join(REPO, 'scripts', 'build.mjs'), '--only', 'platform'], { cwd: REPO });
  });
  afterEach(async () => {
    await removeDir(dir);
    dir = undefined;
  });

  it('generates a private account once, opens `code` with the dev variables, and stops on Ctrl+C', async () => {
    dir = await tempDir();
    const home = join(dir, 'home');
    const bin = join(dir, 'bin');
    await mkdir(bin);
    const seen = join(dir, 'code-was-called.json');
    // A stand-in for the `code` launcher that records what it was given.
    await writeFile(
      join(bin, 'code'),
      `#!${process.execPath}\nrequire('fs').writeFileSync(${JSON.stringify(seen)}, JSON.stringify({ args: process.argv.slice(2), base: process.env.VIDEO_PLATFORM_DEV_BASE_URL, key: process.env.VIDEO_PLATFORM_DEV_ACCESS_KEY, secret: process.env.VIDEO_PLATFORM_DEV_SECRET_KEY }));\n`,
    );
    await chmod(join(bin, 'code'), 0o755);

    const first = runStart(home, bin);
    await eventually('the first start', () => first.output().includes('Serving until Ctrl+C.'));
    const [account] = JSON.parse(await readFile(join(home, 'account.json'), 'utf8')) as Array<{
      accessKey: string;
      secretKey: string;
    }>;
    assert.equal((await stat(join(home, 'account.json'))).mode & 0o777, 0o600);
    assert.ok(!first.output().includes(account.secretKey), 'the secret is never printed');
    assert.match(first.output(), new RegExp(`access key: ${account.accessKey}`));
    // The stand-in creates the file, then writes it: wait for its content, not just the file.
    await eventually('the code launcher', () => existsSync(seen) && statSync(seen).size > 0);
    const call = JSON.parse(await readFile(seen, 'utf8')) as {
      args: string[];
      base: string;
      key: string;
      secret: string;
    };
    assert.deepEqual(call.args, ['--new-window', `--extensionDevelopmentPath=${REPO}`]);
    assert.equal(call.key, account.accessKey);
    assert.equal(call.secret, account.secretKey);
    const client = new PlatformClient({ baseUrl: call.base, accessKey: call.key, secretKey: call.secret });
    assert.ok((await client.liveGetChannelsByPage()).count >= 3, 'demo data is served');
    await client.close();
    first.kill();
    assert.equal(await first.done, 0);

    const second = runStart(home, join(dir, 'empty-path'));
    await eventually('the second start', () => second.output().includes('Serving until Ctrl+C.'));
    assert.match(second.output(), /reused/);
    assert.match(second.output(), /"code" command is not on the PATH/);
    assert.match(second.output(), new RegExp(`access key: ${account.accessKey}`));
    assert.ok(!second.output().includes(account.secretKey));
    second.kill();
    assert.equal(await second.done, 0);
  });

  // npm runs the script under `sh -c`; a stand-in launcher plays npm, so that each way of stopping npm is tried.
  for (const how of ['SIGTERM to npm (the shell exits)', 'kill -9 of npm (the shell stays)'] as const) {
    it(`stops the local platform when npm is stopped: ${how}`, async function () {
      if (process.platform === 'win32') this.skip();
      dir = await tempDir();
      const launcher = spawn(
        process.execPath,
        [
          '-e',
          `const c = require('child_process').spawn('/bin/sh', ['-c', ${JSON.stringify(
            `"${process.execPath}" "${join(REPO, 'scripts', 'start.mjs')}"`,
          )}], { stdio: ['ignore', 'inherit', 'inherit'] });
           console.log('shell ' + c.pid);
           process.on('SIGTERM', () => { c.kill('SIGTERM'); process.exit(0); });
           setInterval(() => {}, 1e9);`,
        ],
        {
          cwd: REPO,
          env: { ...process.env, LOCAL_PLATFORM_HOME: join(dir, 'home'), LOCAL_PLATFORM_PORT: '0', PATH: dir },
          stdio: ['ignore', 'pipe', 'pipe'],
          // Its own process group, so that whatever is left after a failure can be stopped at once.
          detached: true,
        },
      );
      let out = '';
      launcher.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
      launcher.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
      try {
        await eventually('the start', () => out.includes('Serving until Ctrl+C.'));
        const baseUrl = /base URL: +(\S+)/.exec(out)![1];
        const shellPid = Number(/shell (\d+)/.exec(out)![1]);
        const platformAnswers = async () => {
          try {
            await fetch(`${baseUrl}/rest`);
            return true;
          } catch {
            return false;
          }
        };
        assert.equal(await platformAnswers(), true);
        launcher.kill(how.startsWith('SIGTERM') ? 'SIGTERM' : 'SIGKILL');
        const deadline = Date.now() + 15_000;
        while (await platformAnswers()) {
          if (Date.now() > deadline) assert.fail(`the local platform still answers after ${how}:\n${out}`);
          await new Promise((r) => setTimeout(r, 100));
        }
        // Nothing of npm start is left: the shell that stayed exits once its script has.
        if (how.startsWith('kill')) {
          const shellGone = () => {
            try {
              process.kill(shellPid, 0);
              return false;
            } catch {
              return true;
            }
          };
          await eventually('the shell to exit', shellGone);
        }
      } finally {
        try {
          process.kill(-launcher.pid!, 'SIGKILL');
        } catch {
          // the group has exited
        }
      }
    });
  }
});
