/**
 * AES-128 keys (issue 22, item 7) over real HTTP: the playlist a player reads carries a short-lived
 * token in each key address, and the key is served only with it; a key fetched alone (no token, a
 * forged one, another key's) is refused. ffmpeg plays the encrypted rendition through its address.
 */
import * as assert from 'node:assert/strict';
import { PlatformClient } from '../../src/api/client';
import { runTool, type MediaTools } from '../../src/media/tools';
import { runCli, stopCli, type CliProcess } from './child';
import { httpGet, loadTools, probeUrl, startEncryptedPattern } from './live/media';
import { removeDir, tempDir, TestPlatform } from './harness';
import { makeClip, mediaTools, uploadFile, SETTLED, waitForStatus } from './media/helpers';

describe('local platform security: AES-128 keys', function () {
  this.timeout(120_000);
  let tools: MediaTools;
  let clips: string;
  let tp: TestPlatform;
  let hlsUrl: string;
  let aesKey: string;

  before(async function () {
    const found = await mediaTools();
    if (!found) this.skip();
    tools = found;
    clips = await tempDir();
    tp = await TestPlatform.start({ media: { npmFallback: true } });
    const client = tp.client();
    const token = (await client.getToken()).accessToken;
    const clip = await makeClip(tools, clips, 'clip.mp4', 4, 160, 90);
    const answer = await uploadFile(tp.platform.baseUrl, token, clip, { isTranscoder: '0' });
    const id = answer.result![0].videoId;
    const queued = await client.secondTranscodeV2({
      videoIds: [id],
      replace: true,
      transcodeTemplates: [
        {
          name: 'enc',
          videoWidth: 160,
          videoHeight: 90,
          videoBitrate: 150,
          audioBitrate: 32000,
          hls: true,
          mp4: false,
          flv: false,
          hlsEncryptType: 6,
          defaultVideo: 1,
        },
      ],
    });
    assert.deepEqual(
      queued.map((r) => r.code),
      [0],
    );
    const video = await waitForStatus(client, id, SETTLED);
    assert.equal(video.status, 2);
    const stream = video.transcodedVideoList.find((s) => s.hlsEncryptType === 6)!;
    hlsUrl = stream.hlsUrl!;
    aesKey = stream.aesKey!;
  });
  after(async () => {
    await tp?.close();
    await removeDir(clips);
  });

  it('serves the key only through the tokened address its playlist names', async () => {
    const playlist = await (await fetch(hlsUrl)).text();
    const uri = /#EXT-X-KEY:METHOD=AES-128,URI="([^"]+)"/.exec(playlist)?.[1];
    assert.ok(uri, playlist);
    assert.match(uri, /^[\w.-]+\.key\?token=\d+\.[\w-]{43}$/);
    const keyUrl = new URL(uri, hlsUrl);
    const key = await fetch(keyUrl);
    assert.equal(key.status, 200);
    assert.equal(Buffer.from(await key.arrayBuffer()).toString('hex'), aesKey);

    const bare = new URL(keyUrl);
    bare.search = '';
    const refused = await fetch(bare);
    assert.equal(refused.status, 403);
    assert.match(await refused.text(), /served only through the address its playlist names/);
    const token = keyUrl.searchParams.get('token')!;
    const forged = new URL(bare);
    forged.searchParams.set('token', `${Number(token.split('.')[0]) + 3600}.${token.split('.')[1]}`);
    assert.equal((await fetch(forged)).status, 403, 'a later expiry with the same signature');
    const elsewhere = new URL(bare.toString().replace(/[^/]+\.key$/, 'other.key'));
    elsewhere.searchParams.set('token', token);
    assert.equal((await fetch(elsewhere)).status, 404, 'no such key, and the token is bound to its own path');
  });

  it('lets ffmpeg play the encrypted rendition through its address', async function () {
    // The npm packages' static builds crash on any HLS input (shared/notes/media.md).
    if (tools.source === 'npm') this.skip();
    const { stdout } = await runTool(tools.ffmpeg, [
      '-v',
      'error',
      '-i',
      hlsUrl,
      '-map',
      '0:v:0',
      '-f',
      'framemd5',
      '-',
    ]);
    const frames = stdout
      .toString('utf8')
      .split('\n')
      .filter((l) => /^\d/.test(l));
    assert.ok(frames.length >= 90, `decoded ${frames.length} frames`);
  });

  describe('of live channels', () => {
    let dir: string;
    let cli: CliProcess | undefined;
    before(async () => {
      await loadTools();
      dir = await tempDir();
    });
    after(async () => {
      await stopCli(cli);
      await removeDir(dir);
    });

    it('serves a live key only through the tokened address its child playlist names, and the channel plays', async () => {
      cli = runCli([
        ...['--data', dir, '--port', '0', '--rtmp-port', '0'],
        ...['--access-key', 'sec-live-key', '--secret-key', 'sec-Live-Key-Secret-3'],
      ]);
      const url = await cli.ready;
      const c = new PlatformClient({ baseUrl: url, accessKey: 'sec-live-key', secretKey: 'sec-Live-Key-Secret-3' });
      const { channelId, child, playlist } = await startEncryptedPattern(c, 'Encrypted');
      const uri = /#EXT-X-KEY:METHOD=AES-128,URI="([^"]+)"/.exec(playlist)?.[1];
      assert.ok(uri, playlist);
      assert.match(uri, /^[\w-]+\.key\?token=\d+\.[\w-]{43}$/);
      const keyUrl = new URL(uri, child);
      const key = await httpGet(keyUrl.toString());
      assert.equal(key.status, 200);
      assert.equal(key.body.length, 16);
      const bare = new URL(keyUrl);
      bare.search = '';
      const refused = await httpGet(bare.toString());
      assert.equal(refused.status, 403);
      assert.match(refused.body.toString('utf8'), /served only through the address its playlist names/);
      const token = keyUrl.searchParams.get('token')!;
      const forged = new URL(bare);
      forged.searchParams.set('token', `${Number(token.split('.')[0]) + 3600}.${token.split('.')[1]}`);
      assert.equal((await httpGet(forged.toString())).status, 403, 'a later expiry with the same signature');
      // A player going through the address reads the key and decrypts the segments.
      const probed = await probeUrl(child);
      assert.equal(probed.streams.find((s) => s.codec_type === 'video')?.height, 90);
      await c.liveStopChannel(channelId);
      await c.close();
    });
  });
});
