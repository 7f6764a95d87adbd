/** The callbacks from the command line: --callback-url, then trigger, callbacks (list), resend and callback-faults. */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PlatformClient } from '../../src/api/client';
import { parseArgs, UsageError } from '../../src/localPlatform/cliArgs';
import { DEMO_NAMES } from '../../src/localPlatform/demo/demo';
import { eventually } from '../helpers/eventually';
import { runCli, stopCli, type CliProcess } from './child';
import { removeDir, tempDir } from './harness';

const CLI = join(__dirname, '..', '..', 'src', 'localPlatform', 'cli.ts');
const KEYS = ['--access-key', 'cb-cli-key', '--secret-key', 'cb-cli-Secret-42'];

async function verb(url: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', CLI, ...args, '--url', url, ...KEYS],
      { cwd: join(__dirname, '..', '..') },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('local platform: callbacks from the command line', () => {
  let dir: string | undefined;
  let cli: CliProcess | undefined;
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.end();
    });
  });
  let hook = '';
  before(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  after(async () => {
    await stopCli(cli);
    await removeDir(dir);
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('refuses a bad --callback-url naming the option and the rule', () => {
    const base = ['--data', '/tmp/x', ...KEYS];
    assert.throws(
      () => parseArgs([...base, '--callback-url', 'ftp://127.0.0.1/'], {}),
      (e: Error) => {
        return e instanceof UsageError && /^--callback-url must be an http:\/\/ or https:\/\/ address/.test(e.message);
      },
    );
    assert.throws(() => parseArgs([...base, '--callback-url', 'http://example.com/'], {}), /--allow-remote-callbacks/);
    const ok = parseArgs([...base, '--callback-url', 'http://example.com/', '--allow-remote-callbacks'], {});
    assert.deepEqual(ok.accounts[0].callbackUrls, ['http://example.com/']);
    assert.deepEqual(ok.callbacks, { allowRemote: true, allowPrivate: false });
  });

  it('triggers a channel-status callback, lists it, resends it, and sets receiver faults', async function () {
    this.timeout(60_000);
    dir = await tempDir();
    cli = runCli(['--port', '0', '--data', dir, ...KEYS, '--demo', '--simulated-live', '--callback-url', hook]);
    const restUrl = await cli.ready;
    const base = restUrl.replace(/\/rest$/, '');
    const client = new PlatformClient({ baseUrl: base, accessKey: KEYS[1], secretKey: KEYS[3] });
    const { channels } = await client.liveGetChannelsByPage({ number: 50 });
    await client.close();
    const channel = channels.find((c) => c.name === DEMO_NAMES.channels.fresh)!;

    const sent = await verb(base, 'trigger', 'channel-status', '--channel', channel.id, '--status', '2');
    assert.equal(sent.code, 0, sent.stderr);
    assert.match(sent.stdout, /^sent channel-status cb_[0-9a-f]{16}: \{"channelId":"[0-9a-f]+","channelStatus":2,/);
    await eventually('the triggered callback', () => received.length === 1);
    assert.equal(JSON.parse(received[0].body).channelStatus, 2);

    const listed = await eventually('the listed delivery', async () => {
      const l = await verb(base, 'callbacks');
      return / channel-status +200 /.test(l.stdout) && l;
    });
    assert.match(listed.stdout, new RegExp(`^callback URLs: ${hook}\n`));
    const id = /Z {2}(d[0-9a-f]{10}) /.exec(listed.stdout)![1];
    const resent = await verb(base, 'resend', id);
    assert.equal(resent.code, 0, resent.stderr);
    await eventually('the resent callback', () => received.length === 2);
    assert.equal(received[1].body, received[0].body);

    const faults = await verb(base, 'callback-faults', '--duplicate');
    assert.match(faults.stdout, /"duplicate":true/);
    const bad = await verb(base, 'trigger', 'channel-status', '--channel', 'nope');
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /channel nope does not exist in this account/);
    const usage = await verb(base, 'trigger', 'transcode');
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /trigger transcode needs --video ID/);
    // The secret keys are never printed.
    for (const text of [sent.stdout, listed.stdout, bad.stderr, cli.stderr(), cli.stdout()])
      assert.ok(!text.includes(KEYS[3]));
  });
});
