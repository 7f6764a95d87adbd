// `npm start`: runs the local platform with demo data kept in .local-platform/ (git-ignored) and,
// where the `code` command is on the PATH, opens VS Code with this extension connected to it.
// The account's secret key is generated once, kept in .local-platform/account.json (mode 0600)
// and passed to VS Code through the environment; it is never printed.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, chmodSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = dirname(dirname(fileURLToPath(import.meta.url)));
// LOCAL_PLATFORM_HOME / LOCAL_PLATFORM_PORT move the folder and port (the test of this script uses them).
const home = process.env.LOCAL_PLATFORM_HOME ?? join(repo, '.local-platform');
const accountFile = join(home, 'account.json');
const dataDir = join(home, 'data');
const platformJs = join(repo, 'dist', 'localPlatform.js');
const preferredPort = Number(process.env.LOCAL_PLATFORM_PORT ?? 8790);

function loadAccount() {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  if (existsSync(accountFile)) {
    chmodSync(accountFile, 0o600);
    const [account] = JSON.parse(readFileSync(accountFile, 'utf8'));
    if (account && typeof account.accessKey === 'string' && typeof account.secretKey === 'string')
      return { account, created: false };
    throw new Error(`${accountFile} is not an account file; delete it to generate a new account`);
  }
  const account = {
    accessKey: `local-${randomBytes(6).toString('hex')}`,
    secretKey: randomBytes(24).toString('base64url'),
  };
  // Written in the accounts-file shape the platform's --accounts-file reads.
  writeFileSync(accountFile, `${JSON.stringify([account], null, 2)}\n`, { mode: 0o600 });
  chmodSync(accountFile, 0o600);
  return { account, created: true };
}

/** Starts the platform; resolves with the child and its `listening` address. */
function startPlatform(port) {
  const child = spawn(
    process.execPath,
    [platformJs, '--port', String(port), '--data', dataDir, '--accounts-file', accountFile, '--demo'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      const m = /^listening (\S+)\n/.exec(out);
      if (m) resolve({ child, restUrl: m[1] });
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      err += chunk;
    });
    child.on('exit', (code) =>
      reject(
        Object.assign(new Error(err.trim() || `the local platform exited with code ${code}`), {
          inUse: /already in use/.test(err),
        }),
      ),
    );
  });
}

/** Parent pid and state of a process from /proc (Linux), or undefined where there is no /proc. */
function procStat(pid) {
  try {
    // "pid (comm) state ppid ...": comm may hold spaces, so read after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

/**
 * Calls `stop` once the launchers are gone. `npm start` runs this script under `sh -c`: on SIGTERM npm passes the
 * signal to that shell only, which exits and leaves this process running; after `kill -9` of npm the shell
 * stays and npm becomes a zombie. So watch the parent (its pid changes when it exits) and, where /proc
 * exists, the grandparent too (gone or a zombie).
 */
function stopWhenLaunchersExit(stop) {
  const parent = process.ppid;
  const grandparent = procStat(parent)?.ppid;
  const timer = setInterval(() => {
    let gone = process.ppid !== parent;
    if (!gone && grandparent && grandparent > 1) {
      const stat = procStat(grandparent);
      gone = !stat || stat.state === 'Z';
    }
    if (gone) {
      clearInterval(timer);
      console.log('npm start was stopped; stopping the local platform.');
      stop();
    }
  }, 1000);
  timer.unref();
}

/** The `code` launcher on the PATH, if any. */
function findCode() {
  const names = process.platform === 'win32' ? ['code.cmd', 'code.exe', 'code'] : ['code'];
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const file = join(dir, name);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

async function main() {
  if (!existsSync(platformJs))
    throw new Error(`${platformJs} is missing: run "node scripts/build.mjs" first (npm start does)`);
  const { account, created } = loadAccount();
  let started;
  try {
    started = await startPlatform(preferredPort);
  } catch (error) {
    if (!error.inUse) throw error;
    console.log(`Port ${preferredPort} is busy; using a free port instead.`);
    started = await startPlatform(0);
  }
  const { child, restUrl } = started;
  const baseUrl = restUrl.replace(/\/rest$/, '');
  child.stderr.pipe(process.stderr);

  console.log(`Local platform with demo data: ${restUrl}`);
  console.log(`  base URL:   ${baseUrl}`);
  console.log(`  upload:     ${baseUrl}/multipart/upload (media mode: the "media:" line on stderr)`);
  console.log(`  access key: ${account.accessKey}`);
  console.log(`  secret key: kept in ${accountFile} (${created ? 'generated now' : 'reused'}; not shown)`);
  console.log(`  data:       ${dataDir}`);

  const code = findCode();
  if (code) {
    const vscode = spawn(code, ['--new-window', `--extensionDevelopmentPath=${repo}`], {
      stdio: 'ignore',
      detached: true,
      shell: process.platform === 'win32',
      env: {
        ...process.env,
        VIDEO_PLATFORM_DEV_BASE_URL: baseUrl,
        VIDEO_PLATFORM_DEV_ACCESS_KEY: account.accessKey,
        VIDEO_PLATFORM_DEV_SECRET_KEY: account.secretKey,
      },
    });
    vscode.on('error', (error) =>
      console.error(`Could not open VS Code (${error.message}); connect by hand with the details above.`),
    );
    vscode.unref();
    console.log('Opening VS Code with the extension connected as "Local platform (npm start)".');
  } else {
    console.log(
      'The "code" command is not on the PATH: in VS Code, add an account with the base URL and access key above',
    );
    console.log(`and the secret key from ${accountFile}.`);
  }
  console.log('Serving until Ctrl+C.');

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    child.kill('SIGTERM');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  stopWhenLaunchersExit(stop);
  child.on('exit', (exitCode) => process.exit(stopping ? 0 : (exitCode ?? 1)));
}

main().catch((error) => {
  console.error(`npm start: ${error.message}`);
  process.exit(1);
});
