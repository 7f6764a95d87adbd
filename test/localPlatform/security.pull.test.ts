/**
 * Pull sources (issue 22, item 1), with the platform's command line in a child process: only
 * rtmp, rtmps, http(s), srt and the test pattern are sources; loopback, private and link-local
 * hosts (after resolving the name) are refused at create, update and start unless the platform is
 * started with --allow-private-sources; a refused call changes nothing.
 */
import * as assert from 'node:assert/strict';
import { createReadStream, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { PlatformClient } from '../../src/api/client';
import { Codes } from '../../src/api/errorCodes';
import type { ChannelDefinition } from '../../src/api/types';
import { runCli, stopCli, type CliProcess } from './child';
import { apiError, removeDir, tempDir } from './harness';
import { eventually } from '../helpers/eventually';
import { loadTools, pushTestPattern, TOOLS, type Encoder } from './live/media';
import { pullInputArgs } from '../../src/localPlatform/live/pullSource';
import { runTool } from '../../src/media/tools';
import { makeClip } from './media/helpers';

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

  const servers: Server[] = [];
  let encoder: Encoder | undefined;

  /** An HTTP server on 127.0.0.1 (a free port) that lists every path asked of it. */
  async function server(
    answer: (req: IncomingMessage, res: ServerResponse) => void,
  ): Promise<{ port: number; asked: string[] }> {
    const asked: string[] = [];
    const s = createServer((req, res) => {
      asked.push(req.url ?? '');
      answer(req, res);
    });
    servers.push(s);
    const port = await new Promise<number>((resolve) =>
      s.listen(0, '127.0.0.1', () => resolve((s.address() as { port: number }).port)),
    );
    return { port, asked };
  }

  before(async () => {
    await loadTools();
  });
  after(async () => {
    await encoder?.kill();
    for (const cli of started) await stopCli(cli);
    for (const s of servers) s.closeAllConnections();
    for (const s of servers) s.close();
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

  it('reads http through its proxy: a redirect or a playlist naming a private address or a local file reaches nothing, and the log says why', async () => {
    const dir = await tempDir();
    dirs.push(dir);
    const secret = await server((_req, res) => res.end('secret'));
    const clip = await makeClip({ ffmpeg: TOOLS.ffmpeg } as never, dir, 'clip.mp4', 4);
    const size = statSync(clip).size;
    const segment = join(dir, 'local.ts');
    await runTool(TOOLS.ffmpeg, ['-v', 'error', '-i', clip, '-c', 'copy', '-f', 'mpegts', segment]);
    // The stand-in for a public server: its address is made public for this platform only.
    const outside = await server((req, res) => {
      if (req.url === '/moved.m3u8') {
        res.writeHead(302, { location: `http://127.0.0.1:${secret.port}/secret.m3u8` });
        res.end();
      } else if (req.url === '/list.m3u8') {
        res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' });
        res.end(
          '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n' +
            `#EXTINF:2.0,\nhttp://127.0.0.1:${secret.port}/secret-0.ts\n#EXTINF:2.0,\nhttp://localhost:${secret.port}/secret-1.ts\n`,
        );
      } else if (req.url === '/local.m3u8') {
        // A real segment on this machine, named as a local file.
        res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' });
        res.end(
          `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nfile://${segment}\n#EXT-X-ENDLIST\n`,
        );
      } else if (req.url === '/clip.mp4') {
        // Ranges, as ffmpeg asks to loop the file.
        const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
        const start = range ? Number(range[1]) : 0;
        const end = range && range[2] ? Number(range[2]) : size - 1;
        res.writeHead(range ? 206 : 200, {
          'content-type': 'video/mp4',
          'content-length': end - start + 1,
          'accept-ranges': 'bytes',
          ...(range ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
        });
        createReadStream(clip, { start, end }).pipe(res);
      } else {
        res.writeHead(404).end();
      }
    });
    const c = await platform(dir, '--max-live-channels', '4', '--test-public-address', `127.0.0.1:${outside.port}`);
    const base = await definition(c, 'testsrc://160x90');
    const at = (path: string) => `http://127.0.0.1:${outside.port}${path}`;
    const moved = await c.liveCreateChannel({ ...base, name: 'Moved', pullStream: at('/moved.m3u8') });
    const listed = await c.liveCreateChannel({ ...base, name: 'Listed', pullStream: at('/list.m3u8') });
    const clipped = await c.liveCreateChannel({ ...base, name: 'Clip', pullStream: at('/clip.mp4') });
    const local = await c.liveCreateChannel({ ...base, name: 'Local', pullStream: at('/local.m3u8') });
    // Only the listed address:port is public: the secret server's port is not.
    await apiError(
      c.liveCreateChannel({ ...base, pullStream: `http://127.0.0.1:${secret.port}/secret.m3u8` }),
      Codes.parameterInvalid,
      'pullStream must name a public address',
    );
    for (const ch of [moved, listed, clipped, local]) await c.liveStartChannel(ch.id);
    const cli = started[started.length - 1];
    // The file read through the proxy goes live: the proxy passes what is allowed.
    await eventually(
      'the clip live',
      async () => {
        const ch = await c.liveGetChannelById(clipped.id);
        return ch.status === 2 && ch.streamStatus === 1 ? ch : undefined;
      },
      30_000,
    );
    for (const [ch, path] of [
      [moved, 'secret.m3u8'],
      [listed, 'secret-0.ts'],
    ] as const) {
      const refused = new RegExp(
        `channel ${ch.id} pull: refused http://127\\.0\\.0\\.1:${secret.port}/${path.replace('.', '\\.')}, which must name a public address`,
      );
      await eventually(
        `the refusal of ${path} logged`,
        async () => (refused.test(cli.stderr()) ? true : undefined),
        30_000,
      );
      const now = await c.liveGetChannelById(ch.id);
      assert.equal(now.status, 3, 'no source');
      assert.equal(now.streamStatus, 2);
    }
    // A playlist naming a local file opens no file: the relay's protocol whitelist has no `file`.
    const noFile = new RegExp(`channel ${local.id} pull ended \\(\\d+\\): .*first segment 'file:`);
    await eventually('the local segment refused', async () => (noFile.test(cli.stderr()) ? true : undefined), 30_000);
    assert.equal((await c.liveGetChannelById(local.id)).streamStatus, 2, 'the local file is no source');
    assert.deepEqual(secret.asked, [], 'the private server got no request');
    assert.ok(outside.asked.includes('/moved.m3u8') && outside.asked.includes('/list.m3u8'));
    await c.close();
  });

  it('pulls rtmp from the address it checked, keeping the name in the RTMP connect', async () => {
    const dir = await tempDir();
    dirs.push(dir);
    const port = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => resolve(p));
      });
    });
    // ffmpeg as an RTMP server on loopback; `localhost` resolves to it, and only its address and port are public.
    encoder = pushTestPattern(`rtmp://127.0.0.1:${port}/live/source`, 60, ['-listen', '1']);
    // Where `localhost` is also ::1, that address is listed too.
    const c = await platform(
      dir,
      '--test-public-address',
      `127.0.0.1:${port}`,
      '--test-public-address',
      `[::1]:${port}`,
    );
    const ch = await c.liveCreateChannel(await definition(c, `rtmp://localhost:${port}/live/source`));
    await c.liveStartChannel(ch.id);
    const live = await eventually(
      'the rtmp source live',
      async () => {
        const now = await c.liveGetChannelById(ch.id);
        return now.status === 2 && now.streamStatus === 1 && now.streamWidth ? now : undefined;
      },
      30_000,
    );
    assert.equal(live.streamWidth, 320);
    await c.liveStopChannel(ch.id);
    await c.close();
  });

  it('refuses a third-party RTMP output to a private address or another scheme at create, update and start', async () => {
    const dir = await tempDir();
    dirs.push(dir);
    const strictOne = await platform(dir);
    const t = await strictOne.liveTemplateCreate({
      displayName: 'Tiny',
      videoWidth: 160,
      videoHeight: 90,
      videoBitrate: 150,
    });
    const pushed = (url: string): ChannelDefinition => ({
      name: 'Pushed',
      signalType: '1',
      outputGroupList: [
        { protocolType: 2, rtmpThirdPartyOutputUrl: url, outputTemplateList: [{ templateId: t.id, isDefault: '1' }] },
      ],
    });
    const kept = await strictOne.liveCreateChannel(pushed('rtmp://203.0.113.10/live/copy'));
    for (const [url, rule] of [
      ['file:///tmp/out.flv', 'must be an rtmp:// or rtmps:// address'],
      ['http://203.0.113.10/out', 'must be an rtmp:// or rtmps:// address'],
      ['tee:rtmp://203.0.113.10/a|file:/tmp/x', 'must be an rtmp:// or rtmps:// address'],
      ['rtmp://127.0.0.1:1935/live/x', 'must name a public address'],
      ['rtmp://localhost/live/x', 'must name a public address'],
      ['rtmps://10.0.0.8/live/x', 'must name a public address'],
      ['rtmp://[::ffff:192.168.1.1]/live/x', 'must name a public address'],
    ]) {
      await apiError(
        strictOne.liveCreateChannel(pushed(url)),
        Codes.parameterInvalid,
        `outputGroupList[0].rtmpThirdPartyOutputUrl ${rule}`,
      );
      await apiError(
        strictOne.liveUpdate({ ...pushed(url), id: kept.id }),
        Codes.parameterInvalid,
        `outputGroupList[0].rtmpThirdPartyOutputUrl ${rule}`,
      );
    }
    assert.equal((await strictOne.liveGetChannelsByPage({ start: 1, number: 100 })).count, 1, 'nothing stored');
    const unchanged = await strictOne.liveGetChannelById(kept.id);
    assert.equal(unchanged.outputGroupList[0].rtmpThirdPartyOutputUrl, 'rtmp://203.0.113.10/live/copy');
    await strictOne.close();
    const first = started.pop()!;
    first.child.kill('SIGTERM');
    await first.exited;
    // Stored by a platform that allowed it, refused at start by one that does not.
    const allowed = await platform(dir, '--allow-private-sources');
    const inside = await allowed.liveCreateChannel(pushed('rtmp://127.0.0.1:9/live/copy'));
    await allowed.close();
    const second = started.pop()!;
    second.child.kill('SIGTERM');
    await second.exited;
    const strictTwo = await platform(dir);
    await apiError(
      strictTwo.liveStartChannel(inside.id),
      Codes.parameterInvalid,
      'outputGroupList[0].rtmpThirdPartyOutputUrl must name a public address',
      '--allow-private-sources',
    );
    assert.equal((await strictTwo.liveGetChannelById(inside.id)).status, 0, 'not started');
    await strictTwo.close();
  });

  it('hands ffmpeg the checked address of an rtmp or srt source, and http through the proxy', () => {
    const after = (args: string[], flag: string): string | undefined => args[args.indexOf(flag) + 1];
    const rtmp = pullInputArgs('rtmp://cdn.example:1936/live/feed?k=1', { address: '203.0.113.9' });
    assert.equal(after(rtmp, '-i'), 'rtmp://203.0.113.9:1936/live/feed?k=1');
    assert.equal(after(rtmp, '-rtmp_tcurl'), 'rtmp://cdn.example:1936/live');
    assert.equal(after(rtmp, '-rtmp_app'), 'live');
    assert.equal(after(rtmp, '-rtmp_playpath'), 'feed?k=1');
    // Three parts: the application has an instance, as ffmpeg reads it.
    const instance = pullInputArgs('rtmp://cdn.example/app/inst/name', { address: '2001:db8::5' });
    assert.equal(after(instance, '-i'), 'rtmp://[2001:db8::5]/app/inst/name');
    assert.equal(after(instance, '-rtmp_tcurl'), 'rtmp://cdn.example/app/inst');
    assert.equal(after(instance, '-rtmp_playpath'), 'name');
    const srt = pullInputArgs('srt://src.example:9000?streamid=feed', { address: '203.0.113.9' });
    assert.equal(after(srt, '-i'), 'srt://203.0.113.9:9000?streamid=feed');
    assert.ok(!srt.includes('-rtmp_tcurl'));
    const http = pullInputArgs('https://cdn.example/live.m3u8', { proxy: 'http://127.0.0.1:9999' });
    assert.equal(after(http, '-http_proxy'), 'http://127.0.0.1:9999');
    assert.equal(after(http, '-protocol_whitelist'), 'http,https,tcp,tls,crypto,httpproxy');
    assert.equal(after(http, '-i'), 'https://cdn.example/live.m3u8');
  });
});
