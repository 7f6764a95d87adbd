/**
 * Pull sources (issue 22, item 1), with the platform's command line in a child process: only
 * rtmp, rtmps, http(s), srt and the test pattern are sources; loopback, private and link-local
 * hosts (after resolving the name) are refused at create, update and start unless the platform is
 * started with --allow-private-sources; a refused call changes nothing.
 */
import * as assert from 'node:assert/strict';
import { PlatformClient } from '../../src/api/client';
import { Codes } from '../../src/api/errorCodes';
import type { ChannelDefinition } from '../../src/api/types';
import { runCli, stopCli, type CliProcess } from './child';
import { apiError, removeDir, tempDir } from './harness';
import { loadTools } from './live/media';

const KEY = 'sec-pull-key';
const SECRET = 'sec-Pull-Secret-17';

describe('local platform security: pull sources', function () {
  this.timeout(60_000);
  const started: CliProcess[] = [];
  const dirs: string[] = [];

  async function platform(dir: string, ...extra: string[]): Promise<PlatformClient> {
    const cli = runCli([
      '--data',
      dir,
      '--port',
      '0',
      '--rtmp-port',
      '0',
      '--access-key',
      KEY,
      '--secret-key',
      SECRET,
      ...extra,
    ]);
    started.push(cli);
    const url = await cli.ready;
    return new PlatformClient({ baseUrl: url, accessKey: KEY, secretKey: SECRET, retry: { attempts: 1 } });
  }

  async function definition(c: PlatformClient, pullStream: string): Promise<ChannelDefinition> {
    const t = await c.liveTemplateCreate({ displayName: 'Tiny', videoWidth: 160, videoHeight: 90, videoBitrate: 150 });
    return {
      name: 'Pulled',
      signalType: '2',
      pullStream,
      outputGroupList: [{ protocolType: 1, outputTemplateList: [{ templateId: t.id, isDefault: '1' }] }],
    };
  }

  before(async () => {
    await loadTools();
  });
  after(async () => {
    for (const cli of started) await stopCli(cli);
    for (const dir of dirs) await removeDir(dir);
  });

  it('refuses file:, other ffmpeg protocols and addresses it cannot check, naming pullStream; nothing is stored', async () => {
    const dir = await tempDir();
    dirs.push(dir);
    const c = await platform(dir);
    const base = await definition(c, 'testsrc://160x90');
    for (const source of [
      'file:///etc/passwd',
      'FILE:///tmp/x.ts',
      'concat:/etc/passwd|/etc/hosts',
      'subfile,,start,0,end,100,,:/etc/passwd',
      'data:video/mp2t;base64,AAAA',
      'pipe:0',
      'rtsp://203.0.113.7/cam',
      'udp://203.0.113.7:1234',
      'gopher://203.0.113.7/',
      'rtmp://a@b@203.0.113.7/live/x',
      'http://203.0.113.7\\@127.0.0.1/a.m3u8',
      'testsrc://../../etc',
    ]) {
      await apiError(
        c.liveCreateChannel({ ...base, pullStream: source }),
        Codes.parameterInvalid,
        'pullStream must be ',
      );
    }
    const list = await c.liveGetChannelsByPage({ start: 1, number: 100 });
    assert.equal(list.count, 0, 'nothing stored');
  });

  it('refuses loopback, private and link-local hosts, also by a name that resolves to one', async () => {
    const dir = await tempDir();
    dirs.push(dir);
    const c = await platform(dir);
    const base = await definition(c, 'rtmp://203.0.113.10/live/feed');
    const kept = await c.liveCreateChannel(base);
    for (const source of [
      'rtmp://127.0.0.1:1935/live/x',
      'rtmp://localhost/live/x',
      'http://localhost:8790/vod/a.m3u8',
      'rtmp://0x7f.1/live/x',
      'rtmps://[::1]/live/x',
      'rtmp://[::ffff:127.0.0.1]/live/x',
      'https://10.1.2.3/live.m3u8',
      'http://172.20.0.5/live.flv',
      'srt://192.168.1.20:9000',
      'http://169.254.169.254/latest/meta-data',
      'http://user:pw@100.64.1.1/x.m3u8',
      'rtmp://0.0.0.0/live/x',
    ]) {
      await apiError(
        c.liveCreateChannel({ ...base, pullStream: source }),
        Codes.parameterInvalid,
        'pullStream must name a public address',
        '--allow-private-sources',
      );
      await apiError(
        c.liveUpdate({ ...base, id: kept.id, pullStream: source }),
        Codes.parameterInvalid,
        'pullStream must name a public address',
      );
    }
    assert.equal((await c.liveGetChannelById(kept.id)).pullStream, 'rtmp://203.0.113.10/live/feed', 'unchanged');
    assert.equal((await c.liveGetChannelsByPage({ start: 1, number: 100 })).count, 1);
  });

  it('takes loopback sources with --allow-private-sources, and refuses to start them on a platform without it', async () => {
    const dir = await tempDir();
    dirs.push(dir);
    const allowed = await platform(dir, '--allow-private-sources');
    const stored = await allowed.liveCreateChannel(await definition(allowed, 'rtmp://127.0.0.1:9/live/source'));
    assert.equal(stored.pullStream, 'rtmp://127.0.0.1:9/live/source');
    await allowed.close();
    const first = started.pop()!;
    first.child.kill('SIGTERM');
    await first.exited;
    const strict = await platform(dir);
    await apiError(strict.liveStartChannel(stored.id), Codes.parameterInvalid, 'pullStream must name a public address');
    assert.equal((await strict.liveGetChannelById(stored.id)).status, 0, 'not started');
    await strict.close();
  });
});
