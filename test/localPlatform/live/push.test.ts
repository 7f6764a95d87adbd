/**
 * A pushed channel with real media: an ffmpeg encoder pushes a 320x180 test pattern to the push
 * address; ffprobe is the oracle for what the platform serves. One platform and one encoder run for
 * the whole suite (the tests follow the stream's life in order).
 */
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { PlatformClient } from '../../../src/api/client';
import type { Channel, ChannelPlayUrl, ChannelDefinition } from '../../../src/api/types';
import { TestPlatform } from '../harness';
import { eventually } from '../../helpers/eventually';
import { commandsWith, loadTools, grayFrame, httpGet, probeUrl, pushTestPattern, type Encoder } from './media';

/** Seconds one hour of time shift lasts here: 1 hour = 7 segments of 2 s. */
const HOUR_SECONDS = 14;
const PUSH_SECONDS = 22;

describe('local platform: live channel pushed by an encoder (real ffmpeg)', function () {
  this.timeout(90_000);
  let p: TestPlatform;
  let client: PlatformClient;
  let channel: Channel;
  let urls: ChannelPlayUrl[];
  let encoder: Encoder | undefined;
  const others: Encoder[] = [];

  before(async () => {
    await loadTools();
    p = await TestPlatform.start({
      live: { npmFallback: true, rtmpPort: 0, maxLiveChannels: 2, timeShiftHourSeconds: HOUR_SECONDS },
    });
    client = p.client();
    const big = await client.liveTemplateCreate({
      displayName: 'S',
      videoWidth: 320,
      videoHeight: 180,
      videoBitrate: 300,
    });
    const small = await client.liveTemplateCreate({
      displayName: 'T',
      videoWidth: 160,
      videoHeight: 90,
      videoBitrate: 150,
    });
    // A 40x20 opaque logo at (20, 10) of the 320x180 source: (10, 5) 20x10 in the 160x90 rendition.
    const logo = await client.liveLogoCreate({
      name: 'Box',
      uri: 'img/box.png',
      width: 40,
      height: 20,
      offsetWidth: 20,
      offsetHeight: 10,
    });
    const definition: ChannelDefinition = {
      name: 'Pushed',
      signalType: '1',
      outputGroupList: [
        {
          protocolType: 1,
          isRecord: '1',
          needToMp4: '1',
          isTimeShift: '1',
          timeShiftDuration: '1',
          outputTemplateList: [
            { templateId: big.id, isDefault: '1' },
            { templateId: small.id, isDefault: '0' },
          ],
        },
        { protocolType: 1, isLiveEncrypt: '1', outputTemplateList: [{ templateId: small.id, isDefault: '1' }] },
        { protocolType: 2, logoId: logo.id, outputTemplateList: [{ templateId: small.id, isDefault: '1' }] },
      ],
    };
    channel = await client.liveCreateChannel(definition);
    urls = await client.liveGetChannelsPlayUrl(channel.id);
  });
  after(async () => {
    await encoder?.kill();
    for (const e of others) await e.kill();
    await p.close();
  });

  const get = (): Promise<Channel> => client.liveGetChannelById(channel.id);
  const channelThumbnailAddress = (): string => `${p.platform.baseUrl}/live/thumbnail/${channel.id}.jpg`;

  it('starts with no source: status 2 once ready, streamStatus 2; the push address carries the real RTMP port', async () => {
    const started = await client.liveStartChannel(channel.id);
    assert.ok(started.status === 5 || started.status === 2, `status ${started.status}`);
    assert.equal(started.streamStatus, 2);
    const ready = await eventually('status 2', async () => ((await get()).status === 2 ? get() : undefined), 30_000);
    assert.equal(ready.streamStatus, 2);
    // No picture yet: the thumbnail is not listed (it would answer 404).
    assert.equal(ready.thumbnailUrl, '');
    assert.equal((await httpGet(channelThumbnailAddress())).status, 404);
    assert.match(ready.pushUrl, new RegExp(`^rtmp://127\\.0\\.0\\.1:\\d+/live/${channel.stream}\\?auth=`));
    assert.ok(ready.pushUrl.startsWith(`${p.platform.rtmpUrl}/`), `${ready.pushUrl} on ${p.platform.rtmpUrl}`);
    assert.equal((await httpGet(urls[0].playUrl)).status, 404);
  });

  it('refuses a publish with a wrong auth code, and one to an unknown stream', async () => {
    const wrong = pushTestPattern(channel.pushUrl.replace(/auth=\w+/, 'auth=nope'), 3);
    others.push(wrong);
    assert.notEqual(await wrong.exited, 0);
    const unknown = pushTestPattern(channel.pushUrl.replace(channel.stream, 'nosuchstream'), 3);
    others.push(unknown);
    assert.notEqual(await unknown.exited, 0);
    assert.equal((await get()).streamStatus, 2);
  });

  it('goes to streamStatus 1 with the stream fields of the real ingest when the encoder pushes', async () => {
    encoder = pushTestPattern(channel.pushUrl, PUSH_SECONDS);
    const live = await eventually(
      'stream fields',
      async () => {
        const ch = await get();
        return ch.streamStatus === 1 && ch.streamWidth ? ch : undefined;
      },
      30_000,
    );
    assert.equal(live.status, 2);
    assert.equal(live.streamWidth, 320);
    assert.equal(live.streamHeight, 180);
    assert.equal(live.streamFrameRate, 25);
    assert.ok((live.streamAudioBitrate ?? 0) > 0, 'an audio bitrate');
  });

  it('serves the HLS ladder: a master playlist whose children decode at the templates sizes', async () => {
    await eventually(
      'master playlist',
      async () => ((await httpGet(urls[0].playUrl)).status === 200 ? true : undefined),
      30_000,
    );
    const master = await httpGet(urls[0].playUrl);
    assert.equal(master.cors, '*');
    assert.match(master.type, /mpegurl/);
    assert.match(master.body.toString(), /RESOLUTION=320x180/);
    for (const [i, size] of [
      [0, [320, 180]],
      [1, [160, 90]],
    ] as const) {
      const probed = await probeUrl(urls[0].playUrlList[i].url);
      const v = probed.streams.find((s) => s.codec_type === 'video');
      assert.deepEqual([v?.width, v?.height], size);
      assert.ok(probed.streams.some((s) => s.codec_type === 'audio'));
    }
    const whole = await probeUrl(urls[0].playUrl);
    assert.ok(whole.streams.some((s) => s.codec_type === 'video' && s.width === 320));
  });

  it('encrypts an encrypted group with AES-128 and serves its key', async () => {
    const child = (await httpGet(urls[1].playUrlList[0].url)).body.toString();
    const key = /#EXT-X-KEY:METHOD=AES-128,URI="([^"]+)"/.exec(child);
    assert.ok(key, child);
    const base = urls[1].playUrl.replace(/[^/]+$/, '');
    const keyAnswer = await httpGet(base + key[1]);
    assert.equal(keyAnswer.body.length, 16);
    // The key on disk is the owner's only, in a folder that is too (as the whole data folder).
    const folder = join(p.dataDir, 'live', channel.id);
    assert.equal(statSync(folder).mode & 0o777, 0o700);
    // The key's address carries the token of its playlist (security.keys.test.ts); its file is the name before it.
    assert.equal(statSync(join(folder, key[1].replace(/\?.*$/, ''))).mode & 0o777, 0o600);
    const segment = child.split('\n').find((l) => l.endsWith('.ts'))!;
    const raw = await httpGet(base + segment);
    assert.notEqual(raw.body[0], 0x47, 'a segment is not plain MPEG-TS');
    const probed = await probeUrl(urls[1].playUrlList[0].url);
    assert.equal(probed.streams.find((s) => s.codec_type === 'video')?.width, 160);
  });

  it('plays the RTMP group from the RTMP server, the source as HTTP-FLV, and a thumbnail', async () => {
    const rtmp = await probeUrl(urls[2].playUrl);
    assert.equal(rtmp.streams.find((s) => s.codec_type === 'video')?.height, 90);
    // The group's logo is drawn: a white box where the test pattern has colours.
    const frame = await grayFrame(urls[2].playUrl);
    assert.equal(frame.length, 160 * 90);
    assert.ok(frame[10 * 160 + 20] > 230, `pixel inside the logo box: ${frame[10 * 160 + 20]}`);
    const flv = await probeUrl(channel.publicFlvPlayUrl);
    assert.equal(flv.streams.find((s) => s.codec_type === 'video')?.width, 320);
    // Listed once the ladder has written it, and then it answers: every list names only what is served.
    const thumbnailUrl = await eventually(
      'thumbnail listed',
      async () => (await get()).thumbnailUrl || undefined,
      30_000,
    );
    assert.equal(thumbnailUrl, channelThumbnailAddress());
    const [listed] = (await client.liveGetChannelsByPage({ searchType: 'name', keyword: 'Pushed' })).channels;
    assert.equal(listed?.thumbnailUrl, thumbnailUrl);
    const thumb = await httpGet(thumbnailUrl);
    assert.equal(thumb.status, 200);
    assert.equal(thumb.type, 'image/jpeg');
    const probed = await probeUrl(thumbnailUrl);
    assert.equal(probed.streams[0].width, 320);
  });

  it('refuses a path outside the channel folder and an unknown channel', async () => {
    const base = urls[0].playUrl.replace(/[^/]+$/, '');
    assert.equal((await httpGet(`${base}..%2F..%2Flock.ts`)).status, 404);
    assert.equal(
      (await httpGet(`${base.replace(channel.id, '0'.repeat(32))}${urls[0].channelGroupId}.m3u8`)).status,
      404,
    );
  });

  it('keeps the time-shift window: the playlist grows past the usual 6 segments and stops at the window', async () => {
    const child = await eventually(
      'a full window',
      async () => {
        const text = (await httpGet(urls[0].playUrlList[0].url)).body.toString();
        return (text.match(/\.ts$/gm) ?? []).length >= 7 ? text : undefined;
      },
      40_000,
    );
    await new Promise((r) => setTimeout(r, 4000));
    const later = (await httpGet(urls[0].playUrlList[0].url)).body.toString();
    assert.equal((later.match(/\.ts$/gm) ?? []).length, 7, child);
    const onDisk = readdirSync(join(p.dataDir, 'live', channel.id)).filter((f) =>
      f.startsWith(`${urls[0].channelGroupId}_0_`),
    );
    assert.ok(onDisk.length <= 7 + 3, `${onDisk.length} segments on disk`);
    // The group without time shift keeps the usual 6.
    const plain = (await httpGet(urls[1].playUrlList[0].url)).body.toString();
    assert.ok((plain.match(/\.ts$/gm) ?? []).length <= 6);
  });

  it('goes back to streamStatus 2 when the encoder stops', async () => {
    await encoder!.exited;
    const ch = await eventually(
      'no source',
      async () => ((await get()).streamStatus === 2 ? get() : undefined),
      15_000,
    );
    assert.equal(ch.status, 2);
  });

  it('shrugs off garbage on the RTMP port and takes the encoder again when it reconnects, with new segments', async () => {
    const segments = async (): Promise<string[]> =>
      (await httpGet(urls[0].playUrlList[0].url)).body
        .toString()
        .split('\n')
        .filter((line) => line.endsWith('.ts'));
    const before = new Set(await segments());
    assert.ok(before.size > 0, 'segments of the first push');
    await new Promise<void>((resolve) => {
      const socket = connect(Number(new URL(channel.pushUrl.replace(/^rtmp:/, 'http:')).port), '127.0.0.1', () => {
        socket.write(randomBytes(8192), () => setTimeout(() => socket.destroy(), 200));
      });
      socket.on('error', () => resolve());
      socket.on('close', () => resolve());
    });
    const again = pushTestPattern(channel.pushUrl, 10);
    others.push(again);
    await eventually('source present again', async () => ((await get()).streamStatus === 1 ? true : undefined), 30_000);
    // The new publish's ladder writes segments again, though the first run's files (its thumbnail) are still there.
    await eventually(
      'a segment of the new publish listed',
      async () => ((await segments()).some((s) => !before.has(s)) ? true : undefined),
      30_000,
    );
    await again.exited;
    await eventually('no source again', async () => ((await get()).streamStatus === 2 ? true : undefined), 15_000);
  });

  it('reads an encoder that stalls without closing its connection as no source', async () => {
    const stalling = pushTestPattern(channel.pushUrl, 30);
    others.push(stalling);
    await eventually('source present', async () => ((await get()).streamStatus === 1 ? true : undefined), 30_000);
    stalling.child.kill('SIGSTOP');
    await eventually(
      'no source after the stall',
      async () => ((await get()).streamStatus === 2 ? true : undefined),
      15_000,
    );
    await stalling.kill();
  });

  it('stops: status 1, no process left, and the recording becomes an MP4 video of the account', async () => {
    const stopped = await client.liveStopChannel(channel.id);
    assert.equal(stopped.status, 1);
    assert.equal(stopped.streamStatus, 2);
    // Its live files are gone: the thumbnail is no longer listed.
    assert.equal(stopped.thumbnailUrl, '');
    assert.equal((await httpGet(channelThumbnailAddress())).status, 404);
    assert.deepEqual(commandsWith(p.dataDir), []);
    assert.deepEqual(commandsWith(channel.stream), []);
    const videos = await client.queryVideo({ sort: 'uploadTime', order: 'desc', start: 1, number: 20 });
    // One recording per publish whose ladder ran: the first push and the reconnect at least (the stalled
    // encoder's may be a few frames).
    const recordings = videos.filter((v) => (v as unknown as { type: number }).type === 3);
    assert.ok(recordings.length >= 2, `${recordings.length} live-recording videos`);
    const infos = await Promise.all(recordings.map((v) => client.getVideoInfo(v.id)));
    const recording = infos.reduce((a, b) => (b.duration > a.duration ? b : a));
    assert.ok(recording.duration > 5000, `duration ${recording.duration}`);
    // Played from the address the platform lists for it, like any other video.
    const [playback] = await client.getTranscodedVideos([recording.id]);
    const address = playback?.cdns?.[0]?.mp4?.list[0]?.url;
    assert.match(address ?? '', /\/vod\/[0-9a-f]{32}\/recording\.mp4$/);
    const probed = await probeUrl(address!);
    assert.equal(probed.streams.find((s) => s.codec_type === 'video')?.width, 320);
    assert.match(probed.format.format_name ?? '', /mp4/);
  });
});
