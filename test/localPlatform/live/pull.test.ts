/**
 * Pull channels and faults, with the platform in a child process (its command line): the built-in
 * test pattern goes live, a source that is down shows status 3, `kill -9` of the platform leaves no
 * ffmpeg behind, and the next start resumes the channel that was live.
 */
import * as assert from 'node:assert/strict';
import { PlatformClient } from '../../../src/api/client';
import type { Channel } from '../../../src/api/types';
import { removeDir, tempDir } from '../harness';
import { runCli, stopCli, type CliProcess } from '../child';
import { createServer } from 'node:net';
import { eventually } from '../../helpers/eventually';
import { commandsWith, loadTools, httpGet, probeUrl, pushTestPattern, type Encoder } from './media';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const KEY = 'live-pull-key';
const SECRET = 'live-Pull-Secret-42';

describe('local platform: pull channels, kill -9 and restart (real ffmpeg)', function () {
  this.timeout(90_000);
  let dir: string;
  let cli: CliProcess | undefined;
  let client: PlatformClient | undefined;

  async function start(): Promise<PlatformClient> {
    cli = runCli([
      ...['--data', dir, '--port', '0', '--rtmp-port', '0', '--access-key', KEY, '--secret-key', SECRET],
      // The source that is down, then up, is on loopback.
      '--allow-private-sources',
    ]);
    const url = await cli.ready;
    client = new PlatformClient({ baseUrl: url, accessKey: KEY, secretKey: SECRET, retry: { attempts: 1 } });
    return client;
  }

  before(async () => {
    await loadTools();
    dir = await tempDir();
    sourcePort = await freePort();
  });
  after(async () => {
    await source?.kill();
    await client?.close();
    await stopCli(cli);
    await removeDir(dir);
  });

  let pattern: Channel;
  let down: Channel;
  let sourcePort = 0;
  let source: Encoder | undefined;

  it('puts a pull channel on the built-in test pattern live, and shows a source that is down as status 3', async () => {
    const c = await start();
    const t = await c.liveTemplateCreate({ displayName: 'Tiny', videoWidth: 160, videoHeight: 90, videoBitrate: 150 });
    const group = { protocolType: 1 as const, outputTemplateList: [{ templateId: t.id, isDefault: '1' as const }] };
    // With an RTMP group beside its HLS one the pattern is not looped (patternLoop.ts): a relay and a ladder run.
    pattern = await c.liveCreateChannel({
      name: 'Pattern',
      signalType: '2',
      pullStream: 'testsrc://160x90',
      outputGroupList: [group, { ...group, protocolType: 2 }],
    });
    down = await c.liveCreateChannel({
      name: 'Down',
      signalType: '2',
      pullStream: `rtmp://127.0.0.1:${sourcePort}/live/source`,
      outputGroupList: [group],
    });
    await c.liveStartChannel(pattern.id);
    await c.liveStartChannel(down.id);
    const live = await eventually(
      'pattern live',
      async () => {
        const ch = await c.liveGetChannelById(pattern.id);
        return ch.status === 2 && ch.streamStatus === 1 && ch.streamWidth ? ch : undefined;
      },
      30_000,
    );
    assert.equal(live.streamWidth, 160);
    const [urls] = await c.liveGetChannelsPlayUrl(pattern.id);
    await eventually('playlist', async () => ((await httpGet(urls.playUrl)).status === 200 ? true : undefined), 30_000);
    const probed = await probeUrl(urls.playUrlList[0].url);
    assert.equal(probed.streams.find((s) => s.codec_type === 'video')?.height, 90);
    const notLive = await c.liveGetChannelById(down.id);
    assert.equal(notLive.status, 3);
    assert.equal(notLive.streamStatus, 2);
    await eventually(
      'the failure logged',
      async () => (/channel \w+ pull ended/.test(cli!.stderr()) ? true : undefined),
      30_000,
    );
    assert.doesNotMatch(cli!.stderr(), /auth=[0-9a-f]{6,}/, 'no auth code in the log');
  });

  it('recovers when the pull source comes up: status 2 and a source present', async () => {
    // ffmpeg as an RTMP server that sends the pattern to whoever plays it.
    source = pushTestPattern(`rtmp://127.0.0.1:${sourcePort}/live/source`, 60, ['-listen', '1']);
    const back = await eventually(
      'the pulled source delivering',
      async () => {
        const ch = await client!.liveGetChannelById(down.id);
        return ch.status === 2 && ch.streamStatus === 1 && ch.streamWidth ? ch : undefined;
      },
      30_000,
    );
    assert.equal(back.streamWidth, 320);
    await client!.liveStopChannel(down.id);
    await source.kill();
    source = undefined;
  });

  it('leaves no ffmpeg behind after kill -9 of the platform', async () => {
    assert.ok(commandsWith(pattern.stream).length >= 2, 'a relay and a ladder run');
    await client!.close();
    client = undefined;
    cli!.child.kill('SIGKILL');
    await cli!.exited;
    await eventually(
      'every ffmpeg gone',
      async () => (commandsWith(pattern.stream).length === 0 ? true : undefined),
      10_000,
    );
    assert.deepEqual(commandsWith(dir), []);
  });

  it('starts the channels that were live again on the next start, and stops them all on SIGTERM', async () => {
    const c = await start();
    const again = await eventually(
      'pattern live again',
      async () => {
        const ch = await c.liveGetChannelById(pattern.id);
        return ch.status === 2 && ch.streamStatus === 1 ? ch : undefined;
      },
      30_000,
    );
    assert.equal(again.streamHeight, 90);
    const [urls] = await c.liveGetChannelsPlayUrl(pattern.id);
    await eventually(
      'playlist again',
      async () => ((await httpGet(urls.playUrl)).status === 200 ? true : undefined),
      30_000,
    );
    assert.equal((await c.liveGetChannelById(down.id)).status, 1, 'stopped before the kill: stays stopped');
    await c.close();
    client = undefined;
    cli!.child.kill('SIGTERM');
    assert.equal(await cli!.exited, 0);
    assert.deepEqual(commandsWith(pattern.stream), []);
    assert.deepEqual(commandsWith(dir), []);
  });
});
