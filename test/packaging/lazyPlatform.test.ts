// The local platform as the installed extension runs it: dist/lazy/localPlatform.js in a VSIX has no node_modules
// beside it, so everything it serves must come from dist/ itself.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(__dirname, '..', '..');

// Starts the copied bundle's platform, fetches the browser player's script, prints status and size, and stops.
const PROBE = `
const { startLocalPlatform } = require(process.argv[1]);
const { mkdtempSync } = require('node:fs');
const { join } = require('node:path');
const { tmpdir } = require('node:os');
(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vp-lazy-platform-data-'));
  const platform = await startLocalPlatform({
    dataDir, port: 0, accounts: [{ accessKey: 'lazy-probe', secretKey: 'lazy-probe-secret-key', userId: 1 }],
  });
  try {
    const answer = await fetch(platform.baseUrl + '/player/hls.js');
    const body = Buffer.from(await answer.arrayBuffer());
    console.log(JSON.stringify({ status: answer.status, type: answer.headers.get('content-type'), bytes: body.length }));
  } finally {
    await platform.close();
  }
})().catch((error) => { console.log(JSON.stringify({ error: String(error) })); process.exitCode = 1; });
`;

describe('The lazy local platform bundle (dist/lazy/localPlatform.js) outside the repository', function () {
  this.timeout(60_000);
  let copy: string;

  before(async () => {
    if (!existsSync(join(root, 'dist', 'lazy', 'localPlatform.js')))
      await run(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root });
    // A folder with no node_modules above it, like an installed VSIX's.
    copy = await mkdtemp(join(tmpdir(), 'vp-lazy-platform-'));
    await cp(join(root, 'dist'), join(copy, 'dist'), { recursive: true });
  });
  after(async () => {
    await rm(copy, { recursive: true, force: true });
  });

  it("is built without warnings: hls.js's require.resolve is meant to run at run time (scripts/build.mjs)", async () => {
    // The command line's bundle holds src/inspector/html.ts, which resolves hls.js's browser build at run time.
    const { stderr } = await run(process.execPath, [join(root, 'scripts', 'build.mjs'), '--only', 'platform'], {
      cwd: root,
    });
    assert.equal(stderr, '');
    assert.match(
      readFileSync(join(root, 'dist', 'localPlatform.js'), 'utf8'),
      /require\.resolve\("hls\.js\/dist\/hls\.min\.js"\)/,
    );
  });

  it("serves the browser player's hls.js from dist/, not from node_modules", async () => {
    const { stdout } = await run(process.execPath, ['-e', PROBE, join(copy, 'dist', 'lazy', 'localPlatform.js')], {
      cwd: copy,
      timeout: 30_000,
    });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      status?: number;
      type?: string;
      bytes?: number;
      error?: string;
    };
    assert.equal(result.error, undefined, result.error);
    assert.equal(result.status, 200);
    assert.match(result.type ?? '', /javascript/);
    assert.equal(result.bytes, readFileSync(require.resolve('hls.js/dist/hls.min.js')).length);
  });
});
