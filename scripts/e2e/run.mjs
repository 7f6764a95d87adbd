// `npm run test:e2e`: real VS Code, offline. Installs its tools into .e2e-cache/ on first run (Node 24,
// code-server; Debian's Chromium must be there), packages the VSIX, then
//   1. runs the extension-host suite (test/vscode) inside code-server's VS Code, as an extension under
//      development, a headless Chromium window providing the workbench that starts the extension host;
//   2. installs the VSIX into a fresh code-server and drives the workbench as a user would (test/e2e),
//      against a local platform with demo data, saving a screenshot per step into test-results/e2e/.
// Everything started is stopped at the end, even on failure. Closing line: "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { checkChromium, ensureTools, waitUntil } from './tools.mjs';
import { Processes } from './processes.mjs';
import { browserOptions, codeServerEnv, startCodeServer, workbenchUrl, writeUserSettings } from './codeServer.mjs';

const ROOT = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const CACHE = join(ROOT, '.e2e-cache');
const RESULTS = join(ROOT, 'test-results', 'e2e');
const TOTAL_BUDGET_MS = 14 * 60_000;
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined; // host | workbench

const started = Date.now();
const log = (message) => console.log(`[e2e ${((Date.now() - started) / 1000).toFixed(0).padStart(3)} s] ${message}`);

function runStep(title, command, args, timeoutMs) {
  log(title);
  const run = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', timeout: timeoutMs });
  if (run.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${run.signal ?? run.status}):\n${run.stdout}\n${run.stderr}`);
}

const results = []; // { suite, name, ok, error? }
const processes = new Processes();
const cleanups = [];
let tmp;

async function cleanup() {
  for (const fn of cleanups.reverse()) {
    try {
      await fn();
    } catch (error) {
      log(`cleanup: ${error.message}`);
    }
  }
  await processes.stopAll();
  if (tmp && !process.env.E2E_KEEP_TMP) rmSync(tmp, { recursive: true, force: true });
}

function report(exitCode) {
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  console.log('');
  for (const r of results)
    console.log(
      `${r.ok ? '  ✓' : '  ✗'} [${r.suite}] ${r.name}${r.ok ? '' : `\n      ${String(r.error).split('\n').join('\n      ')}`}`,
    );
  console.log(`\nscreenshots and logs: ${RESULTS}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || exitCode !== 0 ? 1 : 0);
}

// A hard limit for the whole run: whatever hangs, everything is stopped and the run fails.
const watchdog = setTimeout(async () => {
  results.push({
    suite: 'e2e',
    name: 'whole run finishes in time',
    ok: false,
    error: `still running after ${TOTAL_BUDGET_MS / 60000} min`,
  });
  await cleanup();
  report(1);
}, TOTAL_BUDGET_MS);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    log(`${signal}: stopping everything`);
    await cleanup();
    process.exit(130);
  });
}

async function runExtensionHostSuite(tools, chromium) {
  runStep('bundling the extension-host suite', process.execPath, ['scripts/e2e/build-vscode-tests.mjs'], 120_000);
  const dir = join(tmp, 'host');
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace, { recursive: true });
  writeUserSettings(join(dir, 'user-data'));
  const resultsFile = join(dir, 'results.json');
  const server = await startCodeServer({
    processes,
    tools,
    dir,
    logFile: join(RESULTS, 'host-code-server.log'),
    smokeTestDriver: true,
  });
  log(`extension-host suite: code-server (VS Code ${tools.vscodeVersion}) at ${server.url}`);
  const authority = new URL(server.url).host;
  const payload = [
    ['extensionDevelopmentPath', `vscode-remote://${authority}${ROOT}`],
    ['extensionTestsPath', `vscode-remote://${authority}${ROOT}/out/test/vscode/index.js`],
    ['extensionEnvironment', JSON.stringify({ VPT_TEST_RESULTS: resultsFile })],
  ];
  const browser = await chromium.launch(browserOptions(dir));
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${workbenchUrl(server.url, workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`, {
      timeout: 60_000,
    });
    await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    // The suite writes its results when done; the extension host then exits on its own.
    await waitUntil(() => existsSync(resultsFile), 5 * 60_000);
    await page.screenshot({ path: join(RESULTS, '00-extension-host-suite-finished.png') }).catch(() => undefined);
    if (!existsSync(resultsFile))
      throw new Error('the extension-host suite wrote no results within 5 minutes; see host-code-server.log');
    const suite = JSON.parse(readFileSync(resultsFile, 'utf8'));
    for (const t of suite.tests)
      results.push({ suite: 'extension host', name: t.title, ok: t.state === 'passed', error: t.error });
    if (suite.tests.length === 0)
      results.push({
        suite: 'extension host',
        name: 'suite ran tests',
        ok: false,
        error: suite.error ?? 'no tests ran',
      });
  } finally {
    await browser.close().catch(() => undefined);
    await server.stop();
  }
}

async function runWorkbenchFlows(tools, chromium) {
  const vsix = join(ROOT, 'dist', 'video-platform-tools.vsix');
  const dir = join(tmp, 'workbench');
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace, { recursive: true });
  writeUserSettings(join(dir, 'user-data'));
  const { writeWorkspace, flows } = await tsImport(join(ROOT, 'test', 'e2e', 'flows.ts'), import.meta.url);
  writeWorkspace(workspace);

  log('installing the VSIX into a fresh code-server profile');
  const install = spawnSync(
    tools.node,
    [
      tools.codeServerEntry,
      '--config',
      join(dir, 'config.yaml'),
      '--user-data-dir',
      join(dir, 'user-data'),
      '--extensions-dir',
      join(dir, 'extensions'),
      '--install-extension',
      vsix,
    ],
    { encoding: 'utf8', timeout: 120_000, env: codeServerEnv(dir) },
  );
  writeFileSync(join(RESULTS, 'install-extension.log'), `${install.stdout}\n${install.stderr}`);
  if (install.status !== 0 || !/successfully installed/i.test(install.stdout + install.stderr)) {
    throw new Error(`installing the VSIX failed:\n${install.stdout}\n${install.stderr}`);
  }

  const { startLocalPlatform } = await tsImport(join(ROOT, 'src', 'localPlatform', 'server.ts'), import.meta.url);
  const account = { accessKey: 'e2e-access-key', secretKey: randomBytes(12).toString('hex') };
  // A second account as a large customer's: its channels and videos are written into the platform's
  // folder before it starts (so it gets no demo data).
  const { seedLargeAccount, LARGE_COUNTS } = await tsImport(
    join(ROOT, 'test', 'e2e', 'largeAccount.ts'),
    import.meta.url,
  );
  const large = { accessKey: 'e2e-large-access-key', secretKey: randomBytes(12).toString('hex') };
  await seedLargeAccount(join(dir, 'platform'), large.accessKey);
  // A faster simulated clock so a transcode finishes in a few seconds instead of about ten.
  const platform = await startLocalPlatform({
    dataDir: join(dir, 'platform'),
    accounts: [account, large],
    demo: true,
    port: 0,
    clockSpeed: 4,
    // Real live media (RTMP ingest, ffmpeg ladders): a flow pushes to a channel with an encoder. Room for
    // the demo's two live channels and the one the flows start.
    live: { npmFallback: true, rtmpPort: 0, maxLiveChannels: 4 },
  });
  cleanups.push(() => platform.close());
  log(
    `local platform at ${platform.baseUrl}: demo data, and ${LARGE_COUNTS.channels} channels and ${LARGE_COUNTS.videos} videos on a second account`,
  );

  const server = await startCodeServer({ processes, tools, dir, logFile: join(RESULTS, 'workbench-code-server.log') });
  log(`workbench: code-server at ${server.url}`);
  const browser = await chromium.launch(browserOptions(dir));
  cleanups.push(() => browser.close());
  const { runFlows } = await tsImport(join(ROOT, 'test', 'e2e', 'runFlows.ts'), import.meta.url);
  const flowResults = await runFlows({
    browser,
    flows,
    url: workbenchUrl(server.url, workspace),
    screenshotsDir: RESULTS,
    workspace,
    platform: {
      baseUrl: platform.baseUrl,
      accessKey: account.accessKey,
      secretKey: account.secretKey,
      large: { ...large, ...LARGE_COUNTS },
    },
    log,
  });
  for (const r of flowResults) results.push({ suite: 'workbench', ...r });
}

async function main() {
  rmSync(RESULTS, { recursive: true, force: true });
  mkdirSync(RESULTS, { recursive: true });
  checkChromium();
  const tools = await ensureTools({ cacheDir: CACHE, log });
  runStep('packaging the VSIX (npm run package)', 'npm', ['run', '--silent', 'package'], 300_000);
  tmp = mkdtempSync(join(tmpdir(), 'vpt-e2e-'));
  const { chromium } = await import('playwright-core');
  for (const [name, fn] of [
    ['host', runExtensionHostSuite],
    ['workbench', runWorkbenchFlows],
  ]) {
    if (only && only !== name) continue;
    try {
      await fn(tools, chromium);
    } catch (error) {
      results.push({
        suite: name === 'host' ? 'extension host' : 'workbench',
        name: 'set-up',
        ok: false,
        error: error.stack ?? error.message,
      });
    }
  }
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  results.push({ suite: 'e2e', name: 'set-up', ok: false, error: error.message });
  exitCode = 1;
} finally {
  clearTimeout(watchdog);
  await cleanup();
}
log(`done in ${Math.round((Date.now() - started) / 1000)} s`);
report(exitCode);
