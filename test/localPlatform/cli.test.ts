/** The command line: one ready line, clean stop on SIGTERM/SIGINT, usage errors, no secrets printed. */
import * as assert from 'node:assert/strict';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PlatformClient } from '../../src/api/client';
import { parseArgs } from '../../src/localPlatform/cliArgs';
import { runCli, stopCli, type CliProcess } from './child';
import { removeDir, tempDir } from './harness';

describe('local platform: command line', () => {
  let dir: string | undefined;
  let cli: CliProcess | undefined;
  afterEach(async () => {
    await stopCli(cli);
    cli = undefined;
    await removeDir(dir);
    dir = undefined;
  });

  it('prints exactly one line "listening http://127.0.0.1:PORT/rest", serves, and stops on SIGTERM', async function () {
    this.timeout(30_000);
    dir = await tempDir();
    cli = runCli([
      '--port',
      '0',
      '--data',
      dir,
      '--access-key',
      'cli-key',
      '--secret-key',
      'cli-Secret-77',
      '--demo',
      '--clock-speed',
      '100',
    ]);
    const url = await cli.ready;
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/rest$/);
    const client = new PlatformClient({ baseUrl: url, accessKey: 'cli-key', secretKey: 'cli-Secret-77' });
    assert.ok((await client.liveGetChannelsByPage()).count >= 3, 'demo channels are there');
    await client.close();
    cli.child.kill('SIGTERM');
    assert.equal(await cli.exited, 0);
    assert.equal(cli.stdout(), `listening ${url}\n`);
    // stderr: the media mode, the upload address, then the live media mode and the RTMP address.
    assert.match(cli.stderr(), /^media: (real media \(ffmpeg \S+|simulated media \()/);
    assert.match(cli.stderr(), /\nupload: http:\/\/127\.0\.0\.1:\d+\/multipart\/upload\n/);
    assert.match(
      cli.stderr(),
      /\nlocalPlatform: (real live media, RTMP ingest rtmp:\/\/127\.0\.0\.1:\d+\/live|simulated live media .*)\n$/,
    );
    assert.ok(!cli.stdout().includes('cli-Secret-77'));
  });

  it('serves several accounts given as --account KEY:SECRET and from --accounts-file, stops on SIGINT', async function () {
    this.timeout(30_000);
    dir = await tempDir();
    const file = join(dir, 'accounts.json');
    await writeFile(
      file,
      JSON.stringify([{ accessKey: 'file-key', secretKey: 'file:secret:with:colons', userId: 4242 }]),
    );
    await chmod(file, 0o600);
    cli = runCli(['--port', '0', '--data', join(dir, 'data'), '--account', 'a-key:a:secret', '--accounts-file', file]);
    const url = await cli.ready;
    const a = new PlatformClient({ baseUrl: url, accessKey: 'a-key', secretKey: 'a:secret' });
    const f = new PlatformClient({ baseUrl: url, accessKey: 'file-key', secretKey: 'file:secret:with:colons' });
    const ca = await a.liveChannelTypeCreate('A');
    const cf = await f.liveChannelTypeCreate('F');
    assert.equal(cf.userId, 4242);
    assert.notEqual(ca.userId, cf.userId);
    assert.deepEqual(
      (await f.liveChannelTypeList()).map((c) => c.name),
      ['F'],
    );
    await Promise.all([a.close(), f.close()]);
    cli.child.kill('SIGINT');
    assert.equal(await cli.exited, 0);
    assert.ok(!`${cli.stdout()}${cli.stderr()}`.includes('secret'));
  });

  it('exits 2 with the reason and the usage on a bad option, never echoing the secret', async () => {
    cli = runCli(['--access-key', 'k', '--secret-key', 'Very-Secret-1', '--port', 'eighty']);
    assert.equal(await cli.exited, 2);
    assert.match(cli.stderr(), /--port needs a number/);
    assert.match(cli.stderr(), /Usage:/);
    assert.equal(cli.stdout(), '');
    assert.ok(!cli.stderr().includes('Very-Secret-1'));
  });

  it('reports a port in use in one sentence and exits 1', async function () {
    this.timeout(30_000);
    dir = await tempDir();
    const first = runCli(['--port', '0', '--data', dir, '--access-key', 'k', '--secret-key', 's']);
    try {
      const port = new URL(await first.ready).port;
      cli = runCli(['--port', port, '--data', join(dir, 'other'), '--access-key', 'k', '--secret-key', 's']);
      assert.equal(await cli.exited, 1);
      assert.match(cli.stderr(), /the port is already in use/);
    } finally {
      await stopCli(first);
    }
  });

  describe('options', () => {
    it('reads the flags, --flag=value forms and the secret from the environment', () => {
      const o = parseArgs(
        [
          '--data=/d',
          '--port',
          '0',
          '--host',
          '0.0.0.0',
          '--access-key',
          'k',
          '--demo',
          '--clock-speed=50',
          '--timestamp-window-ms',
          '1000',
          '--max-body-bytes',
          '2048',
        ],
        {
          LOCAL_PLATFORM_SECRET_KEY: 'env-secret',
        },
      );
      assert.equal(o.dataDir, '/d');
      assert.equal(o.port, 0);
      assert.equal(o.host, '0.0.0.0');
      assert.deepEqual(o.accounts, [{ accessKey: 'k', secretKey: 'env-secret' }]);
      assert.equal(o.demo, true);
      assert.equal(o.clockSpeed, 50);
      assert.equal(o.timestampWindowMs, 1000);
      assert.equal(o.maxBodyBytes, 2048);
      assert.equal(parseArgs(['--data', 'x', '--account', 'k:s'], {}).port, 8790, 'port defaults to 8790');
    });

    it('reads --allowed-host (repeatable) and --replay-guard, both off by default', () => {
      const o = parseArgs(
        ['--data', 'd', '--account', 'k:s', '--allowed-host', 'box.lan', '--allowed-host=10.0.0.5', '--replay-guard'],
        {},
      );
      assert.deepEqual(o.allowedHosts, ['box.lan', '10.0.0.5']);
      assert.equal(o.replayGuard, true);
      const plain = parseArgs(['--data', 'd', '--account', 'k:s'], {});
      assert.equal(plain.allowedHosts, undefined);
      assert.equal(plain.replayGuard, undefined);
    });

    it('reads the live media options; real live media (npm ffmpeg as a fallback) unless --simulated-live', () => {
      const o = parseArgs(
        [
          '--data',
          'd',
          '--account',
          'k:s',
          '--rtmp-port',
          '19350',
          '--max-live-channels=3',
          '--ffmpeg',
          '/opt/ffmpeg/bin',
        ],
        {},
      );
      assert.deepEqual(o.live, {
        npmFallback: true,
        rtmpPort: 19350,
        maxLiveChannels: 3,
        ffmpegDir: '/opt/ffmpeg/bin',
      });
      assert.deepEqual(parseArgs(['--data', 'd', '--account', 'k:s'], {}).live, { npmFallback: true });
      const simulated = parseArgs(['--data', 'd', '--account', 'k:s', '--simulated-live', '--rtmp-port', '0'], {});
      assert.equal(simulated.live, undefined);
      assert.deepEqual(parseArgs(['--data', 'd', '--account', 'k:s', '--max-jobs', '3'], {}).media, {
        npmFallback: true,
        maxJobs: 3,
      });
      // One --ffmpeg feeds on-demand media too.
      assert.deepEqual(o.media, { npmFallback: true, ffmpegDir: '/opt/ffmpeg/bin' });
      assert.deepEqual(parseArgs(['--data', 'd', '--account', 'k:s'], {}).media, { npmFallback: true });
    });

    it('keeps accounts in the order given, inline and from files', () => {
      const o = parseArgs(['--data', 'd', '--account', 'a:1', '--account', 'b:2'], {});
      assert.deepEqual(
        o.accounts.map((a) => a.accessKey),
        ['a', 'b'],
      );
    });

    for (const [args, message] of [
      [['--access-key', 'k', '--secret-key', 's'], /--data DIR is required/],
      [['--data', 'x'], /give an account/],
      [['--data', 'x', '--account', 'nocolon'], /--account needs KEY:SECRET/],
      [['--data', 'x', '--access-key', 'k'], /--access-key needs --secret-key/],
      [['--data', 'x', '--account', 'k:s', '--clock-speed', '0'], /--clock-speed needs a number/],
      [['--data', 'x', '--account', 'k:s', '--wat'], /unknown option --wat/],
      [['--data'], /--data needs a value/],
      [['--data', 'x', '--account', 'k:s', '--demo=yes'], /--demo takes no value/],
      [['--data', 'x', '--account', 'k:s', 'stray'], /unexpected argument stray/],
      [['--data', 'x', '--account', 'k:s', '--allowed-host', 'evil host/'], /--allowed-host needs a host name/],
      [['--data', 'x', '--account', 'k:s', '--port', '-1'], /--port needs a/],
      [['--data', 'x', '--account', 'k:s', '--rtmp-port', '65536'], /--rtmp-port needs an integer from 0 to 65535/],
      [['--data', 'x', '--account', 'k:s', '--rtmp-port', '19.5'], /--rtmp-port needs an integer/],
      [
        ['--data', 'x', '--account', 'k:s', '--max-live-channels', '0'],
        /--max-live-channels needs a number of at least 1/,
      ],
      [
        ['--data', 'x', '--account', 'k:s', '--simulated-live', '--max-live-channels', 'two'],
        /--max-live-channels needs a number/,
      ],
      [['--data', 'x', '--account', 'k:s', '--max-jobs', '0'], /--max-jobs needs a number of at least 1/],
      [['--data', 'x', '--account', 'k:s', '--max-jobs', '65'], /--max-jobs needs an integer from 1 to 64/],
      [['--data', 'x', '--account', 'k:s', '--ffmpeg'], /--ffmpeg needs a value/],
      [['--data', 'x', '--account', 'k:s', '--simulated-live=no'], /--simulated-live takes no value/],
      [['--data', 'x', '--account', 'k:s', '--ffmpeg='], /--ffmpeg needs a folder holding ffmpeg and ffprobe/],
    ] as const) {
      it(`refuses ${args.join(' ')}`, () => {
        assert.throws(() => parseArgs([...args], {}), message);
      });
    }
  });
});
