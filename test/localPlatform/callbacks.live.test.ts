/**
 * Channel status callbacks with real live media: the demo's push channel started, an encoder (ffmpeg) pushing to
 * it and leaving, then a stop. The receiver on 127.0.0.1 sees each change as it happens (start, source present,
 * source lost, stop), each signed.
 */
import * as assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { accountDir } from '../../src/localPlatform/accounts';
import { DEMO_NAMES } from '../../src/localPlatform/demo/demo';
import { eventually } from '../helpers/eventually';
import { ACCOUNT, TestPlatform } from './harness';
import { loadTools, pushTestPattern, type Encoder } from './live/media';

describe('local platform: channel status callbacks with real live media', function () {
  this.timeout(90_000);
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.end();
    });
  });
  let p: TestPlatform | undefined;
  let encoder: Encoder | undefined;

  before(async () => {
    await loadTools();
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    await encoder?.kill();
    await p?.close();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('sends start, source present, source lost and stop as they happen', async () => {
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    p = await TestPlatform.start({
      demo: true,
      accounts: [{ ...ACCOUNT, callbackUrls: [hook] }],
      live: { npmFallback: true, rtmpPort: 0, maxLiveChannels: 1 },
    });
    const client = p.client();
    const { channels } = await client.liveGetChannelsByPage({ number: 50 });
    const channel = channels.find((c) => c.name === DEMO_NAMES.channels.fresh)!;
    const statuses = (): string[] =>
      received
        .map((r) => JSON.parse(r.body) as { channelId: string; channelStatus: number; streamStatus: number })
        .filter((b) => b.channelId === channel.id)
        .map((b) => `${b.channelStatus}/${b.streamStatus}`);

    const started = await client.liveStartChannel(channel.id);
    await eventually('live, no source yet', () => statuses().includes('2/2'), 30_000);
    assert.equal(statuses()[0], '5/2', 'starting first');
    encoder = pushTestPattern(started.pushUrl, 30);
    await eventually('source present', () => statuses().includes('2/1'), 30_000);
    await encoder.kill();
    encoder = undefined;
    await eventually('source lost', () => statuses().lastIndexOf('2/2') > statuses().indexOf('2/1'), 30_000);
    await client.liveStopChannel(channel.id);
    await eventually('stopped', () => statuses().at(-1)?.startsWith('1/'), 30_000);
    assert.deepEqual(statuses(), ['5/2', '2/2', '2/1', '2/2', '1/2']);

    const secret = (
      await readFile(join(accountDir(p.dataDir, ACCOUNT.accessKey), 'callbacks', 'secret'), 'utf8')
    ).trim();
    for (const { headers, body } of received) {
      const expected =
        'sha256=' + createHmac('sha256', secret).update(`${headers['x-callback-timestamp']}.${body}`).digest('hex');
      assert.equal(headers['x-callback-signature'], expected);
    }
  });
});
