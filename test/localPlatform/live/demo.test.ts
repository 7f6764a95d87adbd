/**
 * The demo's live channels with real media: the test pattern is a loop encoded once and served as a live
 * window (its media sequence and program date-time follow the clock; no ffmpeg runs for it), what a list
 * says answers from the first second, and there is room to start channels beside the demo's.
 */
import * as assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PlatformClient } from '../../../src/api/client';
import type { Channel } from '../../../src/api/types';
import { DEMO_NAMES } from '../../../src/localPlatform/demo/demo';
import { SEGMENT_SECONDS } from '../../../src/localPlatform/live/ladder';
import { LOOP_SEGMENTS } from '../../../src/localPlatform/live/patternLoop';
import { OTHER, TestPlatform } from '../harness';
import { inspect } from '../../../src/inspector/inspect';
import { nodeFetch } from '../../../src/inspector/source';
import { readMedia } from '../../../src/media/read';
import { runTool } from '../../../src/media/tools';
import { eventually } from '../../helpers/eventually';
import { commandsWith, httpGet, loadTools, probeUrl, pushTestPattern, TOOLS, type Encoder } from './media';

interface Window {
  sequence: number;
  /** Program date-time of each segment, and its address. */
  segments: { at: number; uri: string }[];
}

function readWindow(text: string): Window {
  const sequence = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)?.[1]);
  const segments: Window['segments'] = [];
  let at = NaN;
  for (const line of text.split('\n')) {
    if (line.startsWith('#EXT-X-PROGRAM-DATE-TIME:')) at = Date.parse(line.slice(25));
    else if (line && !line.startsWith('#')) segments.push({ at, uri: line });
  }
  return { sequence, segments };
}

/** The decode times (s) of one track's packets in a file, in decode order (read in-process). */
async function packetTimes(file: string, track: 'video' | 'audio'): Promise<number[]> {
  const reading = await readMedia(file, { packets: true });
  return (reading.packets ?? []).filter((p) => p.track === track).map((p) => p.dts);
}

describe('local platform: the demo live channels (real ffmpeg)', function () {
  this.timeout(90_000);
  let p: TestPlatform;
  let client: PlatformClient;
  let pattern: Channel;
  const encoders: Encoder[] = [];

  before(async () => {
    await loadTools();
    // The pulled channel below pulls from this machine: allowed only when asked for (see Security).
    p = await TestPlatform.start({ demo: true, live: { npmFallback: true, rtmpPort: 0, allowPrivateSources: true } });
    client = p.client();
  });
  after(async () => {
    for (const e of encoders) await e.kill();
    await p.close();
  });

  const channels = async (): Promise<Channel[]> => (await client.liveGetChannelsByPage({ number: 50 })).channels;

  it('lists a channel with a source only once its play address and thumbnail answer, from the first second', async () => {
    const until = Date.now() + 20_000;
    let seen = false;
    while (Date.now() < until && !seen) {
      for (const ch of await channels()) {
        if (ch.thumbnailUrl) assert.equal((await httpGet(ch.thumbnailUrl)).status, 200, `${ch.name} thumbnail`);
        if (ch.status !== 2 || ch.streamStatus !== 1) continue;
        const [urls] = await client.liveGetChannelsPlayUrl(ch.id);
        assert.equal((await httpGet(urls.playUrl)).status, 200, `${ch.name} listed with a source`);
        seen = true;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    pattern = (await channels()).find((c) => c.name === DEMO_NAMES.channels.pattern)!;
    assert.equal(pattern.streamStatus, 1, 'the test pattern has its source within 20 s');
    assert.equal(pattern.streamWidth, 854);
    assert.notEqual(pattern.thumbnailUrl, '');
    const thumbnail = await httpGet(pattern.thumbnailUrl);
    assert.equal(thumbnail.type, 'image/jpeg');
    const newsroom = (await channels()).find((c) => c.name === DEMO_NAMES.channels.live)!;
    assert.equal(newsroom.status, 2);
    assert.equal(newsroom.streamStatus, 2, 'no encoder pushes to the newsroom');
  });

  it('serves the test pattern as a live window that follows the clock, with segments that read as media', async () => {
    const [urls] = await client.liveGetChannelsPlayUrl(pattern.id);
    const probed = await probeUrl(urls.playUrl);
    assert.ok(probed.streams.some((s) => s.codec_type === 'video' && s.height === 480));
    assert.ok(probed.streams.some((s) => s.codec_type === 'audio'));
    const child = urls.playUrlList[0].url;
    const first = readWindow((await httpGet(child)).body.toString());
    assert.equal(first.segments.length, 6);
    // The live edge is the clock: the last listed segment has just ended.
    const edge = first.segments[5].at + SEGMENT_SECONDS * 1000;
    assert.ok(Math.abs(Date.now() - edge) < 3 * SEGMENT_SECONDS * 1000, `edge ${new Date(edge).toISOString()}`);
    first.segments.forEach((s, i) => {
      assert.equal(s.at, first.segments[0].at + i * SEGMENT_SECONDS * 1000, 'program date-time per segment');
    });
    // The loop is continuous: no discontinuity where it turns (6 segments hold a turn of 4).
    const text = (await httpGet(child)).body.toString();
    assert.doesNotMatch(text, /DISCONTINUITY/);
    assert.ok(LOOP_SEGMENTS < first.segments.length);
    await new Promise((r) => setTimeout(r, (SEGMENT_SECONDS + 0.5) * 1000));
    const later = readWindow((await httpGet(child)).body.toString());
    assert.ok(later.sequence > first.sequence, `media sequence ${first.sequence} -> ${later.sequence}`);
    assert.equal(
      later.segments[0].at - first.segments[0].at,
      (later.sequence - first.sequence) * SEGMENT_SECONDS * 1000,
    );
    // A segment of the window reads as media of the template's size and lasts one segment.
    const segment = new URL(later.segments[5].uri, child).href;
    const media = await readMedia((await httpGet(segment)).body);
    const video = media.video!;
    assert.equal(`${video.codec} ${video.width}x${video.height}`, 'h264 854x480');
    // One segment is 2 s of 25 fps video: 50 frames.
    assert.equal(video.packets, SEGMENT_SECONDS * 25);
    // The window's segments one after the other, across the turn: every video and audio packet follows the one
    // before by one frame (40 ms; 1024 samples at 48 kHz), and ffmpeg reads them without a warning.
    const joined = join(p.dataDir, 'window.ts');
    const bytes = await Promise.all(later.segments.map(async (s) => (await httpGet(new URL(s.uri, child).href)).body));
    await writeFile(joined, Buffer.concat(bytes));
    for (const [stream, step] of [
      ['video', 0.04],
      ['audio', 1024 / 48_000],
    ] as const) {
      const times = await packetTimes(joined, stream);
      assert.ok(times.length > 100, `${stream}: ${times.length} packets`);
      times
        .slice(1)
        .forEach((t, i) => assert.ok(Math.abs(t - times[i] - step) < 0.002, `${stream} ${times[i]} -> ${t}`));
    }
    const decoded = await runTool(TOOLS.ffmpeg, ['-v', 'warning', '-i', joined, '-f', 'null', '-']);
    assert.equal(decoded.stderr.toString().trim(), '', 'ffmpeg reads the window without a warning');
    // No ffmpeg runs for it: the loop was encoded once.
    assert.deepEqual(commandsWith(join(p.dataDir, 'live-loops')), []);
    assert.deepEqual(commandsWith(`${p.platform.rtmpUrl}/${pattern.stream}`), []);
    // A number far from the live edge is not served.
    assert.equal((await httpGet(segment.replace(/_(\d+)\.ts$/, '_1.ts'))).status, 404);
  });

  it("declares in the test pattern's master the bit rates its segments measure: no bandwidth finding", async () => {
    const [urls] = await client.liveGetChannelsPlayUrl(pattern.id);
    const report = await inspect(urls.playUrl, { fetch: nodeFetch, liveSeconds: 0 });
    const master = (await httpGet(urls.playUrl)).body.toString();
    assert.match(master, /AVERAGE-BANDWIDTH=\d+/, 'the average is declared');
    const bandwidth = report.findings.filter((f) => /BANDWIDTH/.test(f.code));
    assert.deepEqual(
      bandwidth.map((f) => `${f.code}: ${f.message}`),
      [],
      `findings on ${master}`,
    );
  });

  it('starts a pushed and a pulled channel beside the demo channels at the default limits, plays, stops, deletes', async () => {
    const templateId = (await client.liveGetTemplates()).find((t) => t.displayName === '480p')!.id;
    const outputGroupList = [
      { protocolType: 1 as const, outputTemplateList: [{ templateId, isDefault: '1' as const }] },
    ];
    const pushed = await client.liveCreateChannel({ name: 'Beside', signalType: '1', outputGroupList });
    const pulled = await client.liveCreateChannel({
      name: 'Pulled beside',
      signalType: '2',
      pullStream: 'rtmp://127.0.0.1:9/live/nothing-here',
      outputGroupList,
    });
    await client.liveStartChannel(pushed.id);
    await client.liveStartChannel(pulled.id);
    await eventually(
      'ready',
      async () => ((await client.liveGetChannelById(pushed.id)).status === 2 ? true : undefined),
      30_000,
    );
    const encoder = pushTestPattern(pushed.pushUrl, 20);
    encoders.push(encoder);
    const [urls] = await client.liveGetChannelsPlayUrl(pushed.id);
    await eventually('playlist', async () => ((await httpGet(urls.playUrl)).status === 200 ? true : undefined), 30_000);
    const probed = await probeUrl(urls.playUrl);
    assert.equal(probed.streams.find((s) => s.codec_type === 'video')?.height, 480);
    assert.equal((await client.liveStopChannel(pushed.id)).status, 1);
    assert.equal((await client.liveStopChannel(pulled.id)).status, 1);
    await client.liveDelete([pushed.id, pulled.id]);
    await encoder.kill();
    // The demo's channels are untouched.
    assert.equal((await client.liveGetChannelById(pattern.id)).streamStatus, 1);
  });

  it("gives each account a demo of its own: the other account's live channels run too, with their own ids and stream names", async () => {
    const other = p.client(OTHER);
    const theirs = (await other.liveGetChannelsByPage({ number: 50 })).channels;
    const mine = await channels();
    const named = (list: Channel[], name: string): Channel => list.find((c) => c.name === name)!;
    for (const name of Object.values(DEMO_NAMES.channels)) {
      assert.notEqual(named(theirs, name).id, named(mine, name).id, `${name}: id`);
      assert.notEqual(named(theirs, name).stream, named(mine, name).stream, `${name}: stream name`);
    }
    // Their test pattern plays at its own address.
    const theirPattern = named(theirs, DEMO_NAMES.channels.pattern);
    assert.equal(theirPattern.streamStatus, 1);
    const [urls] = await other.liveGetChannelsPlayUrl(theirPattern.id);
    assert.equal((await httpGet(urls.playUrl)).status, 200);
    // Their newsroom was started again with the platform: it takes a push at its own address (the RTMP server
    // refused it while both accounts' newsrooms had one stream name: the first account's had it).
    const newsroom = named(theirs, DEMO_NAMES.channels.live);
    assert.equal(newsroom.streamStatus, 2, 'no encoder pushes to their newsroom yet');
    const encoder = pushTestPattern(newsroom.pushUrl, 20);
    encoders.push(encoder);
    await eventually(
      'their newsroom has its source',
      async () => ((await other.liveGetChannelById(newsroom.id)).streamStatus === 1 ? true : undefined),
      30_000,
    );
    await encoder.kill();
    assert.equal((await client.liveGetChannelById(named(mine, DEMO_NAMES.channels.live).id)).streamStatus, 2);
  });
});
