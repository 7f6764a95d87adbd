/**
 * Loading (and using) the client must not touch undici's process-wide dispatcher symbols, which VS
 * Code's extension host relies on for its own fetch. Each check runs in a fresh child process, for
 * the TypeScript source and for an esbuild bundle of it, with the symbol unset, pre-set, or set by
 * Node's own fetch; the slot must hold the same object with the same property descriptor. A
 * control run loads the undici package root plainly to prove the check does see a change.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../..');
const CLIENT_SOURCE = join(ROOT, 'src/api/client.ts');

interface Report {
  before1: string;
  after1: string;
  before2: string;
  after2: string;
  sameObject1: boolean;
  sameObject2: boolean;
  /** The slot's property descriptor (without its value) is the same before and after. */
  sameDescriptor1: boolean;
  called: string;
  /** What Node's own fetch gave afterwards ('ok', or its error). */
  nodeFetch: string;
}

/** The child: optionally pre-sets the symbols, loads the module, makes one call, reports. */
const CHILD = `
const S1 = Symbol.for('undici.globalDispatcher.1');
const S2 = Symbol.for('undici.globalDispatcher.2');
const describe = (v) => v === undefined ? 'undefined' : (v && v.marker) || 'other:' + (v && v.constructor && v.constructor.name);
const [modulePath, preset] = process.argv.slice(2);
const shape = () => JSON.stringify(Object.getOwnPropertyDescriptor(globalThis, S1), (k, v) => (k === 'value' ? undefined : v));
(async () => {
  if (preset === 'preset') {
    globalThis[S1] = { marker: 'host-dispatcher-1', dispatch() { throw new Error('must not be used'); } };
    globalThis[S2] = { marker: 'host-dispatcher-2', dispatch() { throw new Error('must not be used'); } };
  }
  // Node's own fetch installs its dispatcher (non-configurable), as happens in VS Code's extension host.
  if (preset === 'fetch') await fetch('data:text/plain,x');
  const descriptorBefore = shape();
  const held1 = globalThis[S1];
  const held2 = globalThis[S2];
  const before1 = describe(held1);
  const before2 = describe(held2);
  const loaded = require(modulePath);
  let called = 'no client';
  if (loaded.PlatformClient) {
    // Use it too: a real call to a closed port, so the pool is created and dispatches.
    // VPT_BASE_URL: an https:// address with HTTPS_PROXY set exercises the proxy agent and its tunnel.
    const client = new loaded.PlatformClient({ baseUrl: process.env.VPT_BASE_URL || 'http://127.0.0.1:9', accessKey: 'a', secretKey: 'b', retry: { attempts: 1 } });
    try { await client.getLogoGroupList(); called = 'succeeded?'; } catch (e) { called = e.name + ':' + e.kind + (/through proxy/.test(e.message) ? ':proxied' : ''); }
    await client.close();
  }
  const report = {
    before1, before2, after1: describe(globalThis[S1]), after2: describe(globalThis[S2]),
    sameObject1: globalThis[S1] === held1, sameObject2: globalThis[S2] === held2,
    sameDescriptor1: shape() === descriptorBefore, called,
  };
  // Node's own fetch still works afterwards (read after the slot was reported: it may install its dispatcher).
  if (preset !== 'preset') {
    try { report.nodeFetch = await (await fetch('data:text/plain,ok')).text(); } catch (e) { report.nodeFetch = String(e); }
  }
  process.stdout.write(JSON.stringify(report));
})().catch((e) => { console.error(e); process.exit(1); });
`;

describe('loading the client leaves the global dispatcher alone', function () {
  this.timeout(60_000);
  let dir: string;
  let childPath: string;
  let bundlePath: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vpt-global-'));
    childPath = join(dir, 'child.js');
    writeFileSync(childPath, CHILD);
    bundlePath = join(dir, 'client.bundle.js');
    await build({
      entryPoints: [CLIENT_SOURCE],
      outfile: bundlePath,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      logLevel: 'silent',
    });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function child(
    modulePath: string,
    preset: 'unset' | 'preset' | 'fetch',
    execArgv: string[] = [],
    env: NodeJS.ProcessEnv = {},
  ): Promise<Report> {
    const { stdout } = await run(process.execPath, [...execArgv, childPath, modulePath, preset], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    return JSON.parse(stdout) as Report;
  }

  const tsx = ['--require', 'tsx/cjs'];

  it('source, symbol unset: still unset after loading and using the client', async () => {
    const report = await child(CLIENT_SOURCE, 'unset', tsx);
    assert.equal(report.called, 'TransportError:network', 'the client really made a call');
    assert.deepEqual(
      [report.before1, report.after1, report.before2, report.after2],
      ['undefined', 'undefined', 'undefined', 'undefined'],
    );
    assert.ok(report.sameDescriptor1, 'the slot is left without a property, as it was');
    assert.equal(report.nodeFetch, 'ok', "Node's own fetch still works");
  });

  it('source, symbol pre-set by the host: the same object afterwards', async () => {
    const report = await child(CLIENT_SOURCE, 'preset', tsx);
    assert.equal(report.called, 'TransportError:network');
    assert.equal(report.after1, 'host-dispatcher-1');
    assert.equal(report.after2, 'host-dispatcher-2');
    assert.ok(report.sameObject1 && report.sameObject2 && report.sameDescriptor1);
  });

  it('esbuild bundle, symbol unset: still unset', async () => {
    const report = await child(bundlePath, 'unset');
    assert.equal(report.called, 'TransportError:network');
    assert.deepEqual([report.after1, report.after2], ['undefined', 'undefined']);
    assert.ok(report.sameDescriptor1);
    assert.equal(report.nodeFetch, 'ok', "Node's own fetch still works");
  });

  it('esbuild bundle, symbol pre-set: the same object afterwards', async () => {
    const report = await child(bundlePath, 'preset');
    assert.equal(report.called, 'TransportError:network');
    assert.ok(report.sameObject1 && report.sameObject2);
  });

  it('esbuild bundle, through a proxy to an https:// platform: the same object afterwards', async () => {
    const report = await child(bundlePath, 'preset', [], {
      HTTPS_PROXY: 'http://127.0.0.1:9',
      NO_PROXY: '',
      no_proxy: '',
      VPT_BASE_URL: 'https://platform.example',
    });
    assert.equal(report.called, 'TransportError:network:proxied', 'the call went to the (closed) proxy');
    assert.ok(report.sameObject1 && report.sameObject2);
  });

  it("esbuild bundle, dispatcher installed by Node's own fetch first (as in VS Code): the same object afterwards", async () => {
    const report = await child(bundlePath, 'fetch');
    assert.equal(report.called, 'TransportError:network');
    assert.notEqual(report.before1, 'undefined', "Node's fetch installed a dispatcher");
    assert.ok(report.sameObject1 && report.sameDescriptor1);
  });

  it('control: loading the undici package root does set it (so the checks above can fail)', async () => {
    const report = await child(require.resolve('undici'), 'unset');
    assert.equal(report.before1, 'undefined');
    assert.notEqual(report.after1, 'undefined');
  });
});
