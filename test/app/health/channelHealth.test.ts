/**
 * Live channel health against the local platform with real media: an ffmpeg encoder pushes a test pattern of a
 * known size, frame rate, keyframe interval and bit rate over RTMP; the health the platform measures (its
 * `/_local/health/channel` route), the channel's tooltip and the Channel Health panel show those figures.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { PlatformClient } from '../../../src/api/client';
import { ChannelStatuses, type Channel } from '../../../src/api/types';
import { readChannelHealth, type ChannelHealth, type HealthTarget } from '../../../src/app/health/client';
import { channelHealthCommand } from '../../../src/app/health/command';
import { channelHealthTooltips } from '../../../src/app/health/tooltips';
import { ChannelNode } from '../../../src/app/tree/nodes';
import { eventually } from '../../helpers/eventually';
import { ACCOUNT, OTHER, raw, TestPlatform } from '../../localPlatform/harness';
import { loadTools, TOOLS } from '../../localPlatform/live/media';
import { createHarness, type Harness } from '../helpers/harness';

/** The pushed source: 384x216 at 30 fps, a keyframe every 45 frames (1.5 s), 400 kbit/s video + 64 kbit/s audio. */
const SOURCE = { width: 384, height: 216, rate: 30, gop: 45, videoKbps: 400, audioKbps: 64 };

function pushKnownSource(url: string, seconds: number): { kill(): Promise<void> } {
  const child = spawn(
    TOOLS.ffmpeg,
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostats', '-re'],
      ...['-f', 'lavfi', '-i', `testsrc2=size=${SOURCE.width}x${SOURCE.height}:rate=${SOURCE.rate}`],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100', '-t', String(seconds)],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p'],
      ...['-g', String(SOURCE.gop), '-keyint_min', String(SOURCE.gop), '-sc_threshold', '0'],
      ...['-b:v', `${SOURCE.videoKbps}k`, '-maxrate', `${SOURCE.videoKbps}k`, '-bufsize', `${SOURCE.videoKbps}k`],
      ...['-c:a', 'aac', '-b:a', `${SOURCE.audioKbps}k`, '-f', 'flv', url],
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return {
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

describe('Channel health (local platform, a pushed source of known figures, real ffmpeg)', function () {
  this.timeout(90_000);
  let p: TestPlatform;
  let client: PlatformClient;
  let channel: Channel;
  let encoder: { kill(): Promise<void> } | undefined;
  let harness: Harness;
  let target: HealthTarget;

  before(async () => {
    await loadTools();
    p = await TestPlatform.start({ live: { npmFallback: true, rtmpPort: 0, maxLiveChannels: 1 } });
    client = p.client();
    const big = await client.liveTemplateCreate({
      displayName: 'H',
      videoWidth: 320,
      videoHeight: 180,
      videoBitrate: 300,
    });
    const small = await client.liveTemplateCreate({
      displayName: 'L',
      videoWidth: 160,
      videoHeight: 90,
      videoBitrate: 120,
    });
    channel = await client.liveCreateChannel({
      name: 'Health',
      signalType: '1',
      outputGroupList: [
        {
          protocolType: 1,
          outputTemplateList: [
            { templateId: big.id, isDefault: '1' },
            { templateId: small.id, isDefault: '0' },
          ],
        },
      ],
    });
    target = { baseUrl: p.platform.baseUrl, ...ACCOUNT };
    harness = await createHarness({ account: { baseUrl: p.platform.baseUrl, ...ACCOUNT } });
  });
  after(async () => {
    await encoder?.kill();
    await harness?.dispose();
    await p?.close();
  });

  it('refuses a channel that is not started, with the reason, and an unsigned or foreign request', async () => {
    await assert.rejects(readChannelHealth(target, channel.id), /is not started/);
    const unsigned = await raw(
      p,
      'localChannelHealth',
      { channelId: channel.id },
      { bare: true, path: '/_local/health/channel' },
    );
    assert.equal(unsigned.json.code, 10901);
    // Another account's key: the channel is not one of its channels (nothing about it is told).
    await assert.rejects(readChannelHealth({ ...target, ...OTHER }, channel.id), /not a channel of this account/);
    await assert.rejects(
      readChannelHealth({ ...target, secretKey: 'wrong-secret' }, channel.id),
      /signature does not match/,
    );
    await assert.rejects(readChannelHealth(target, '../etc'), /channelId must be/);
    // Not a local platform's address: never asked.
    await assert.rejects(
      readChannelHealth({ ...target, baseUrl: 'https://api.example.com' }, channel.id),
      /local platform only/,
    );
  });

  it('measures the pushed source: size, frame rate, keyframe interval and bit rate within tolerance', async () => {
    await client.liveStartChannel(channel.id);
    const started = await eventually(
      'live',
      async () => ((await client.liveGetChannelById(channel.id)).status === 2 ? true : undefined),
      30_000,
    );
    assert.ok(started);
    const before = await readChannelHealth(target, channel.id);
    assert.equal(before.publishing, false);
    assert.equal(before.source, null);
    channel = await client.liveGetChannelById(channel.id);
    encoder = pushKnownSource(channel.pushUrl, 60);
    // Two keyframes and 5 s of packets: the figures rest on a full window.
    const health = await eventually(
      'source figures over a full window',
      async () => {
        const h = await readChannelHealth(target, channel.id);
        return h.source && h.source.keyframeIntervalSeconds !== undefined && h.source.windowSeconds >= 5
          ? h
          : undefined;
      },
      45_000,
    );
    const source = health.source!;
    assert.equal(health.publishing, true);
    assert.equal(source.width, SOURCE.width);
    assert.equal(source.height, SOURCE.height);
    assert.ok(Math.abs(source.frameRate! - SOURCE.rate) <= 0.5, `frame rate ${source.frameRate}`);
    assert.ok(
      Math.abs(source.keyframeIntervalSeconds! - SOURCE.gop / SOURCE.rate) <= 0.05,
      `GOP ${source.keyframeIntervalSeconds} s`,
    );
    assert.equal(source.keyframeIntervalFrames, SOURCE.gop);
    // x264's rate control over 5 s of a synthetic pattern: within 35 % of what was asked (video + audio).
    const asked = SOURCE.videoKbps + SOURCE.audioKbps;
    assert.ok(
      Math.abs(source.bitrateKbps - asked) <= asked * 0.35,
      `bitrate ${source.bitrateKbps} kbps, asked ${asked}`,
    );
    assert.ok(source.sinceLastPacketSeconds < 2, `last packet ${source.sinceLastPacketSeconds} s ago`);
  });

  it('gives each HLS rendition its newest segment and an age of a few seconds, fresh while the source runs', async () => {
    const fresh = (h: ChannelHealth): boolean =>
      h.renditions.length === 2 && h.renditions.every((r) => r.newestSegmentAgeSeconds !== undefined);
    const first = await eventually(
      'segments of both renditions',
      async () => {
        const h = await readChannelHealth(target, channel.id);
        return fresh(h) ? h : undefined;
      },
      30_000,
    );
    assert.deepEqual(
      first.renditions.map((r) => [r.index, `${r.width}x${r.height}`]),
      [
        [1, '320x180'],
        [2, '160x90'],
      ],
    );
    for (const r of first.renditions) {
      assert.match(r.newestSegment!, /\.ts$/);
      // 2 s segments: the newest is never older than a segment and a little.
      assert.ok(
        r.newestSegmentAgeSeconds! < 5,
        `${r.groupId}-${r.index} newest segment ${r.newestSegmentAgeSeconds} s old`,
      );
    }
    // A later read names a later segment: the ages follow the ladder.
    await eventually(
      'a newer segment',
      async () => {
        const h = await readChannelHealth(target, channel.id);
        return h.renditions[0]!.newestSegment !== first.renditions[0]!.newestSegment ? true : undefined;
      },
      15_000,
    );
  });

  it("shows the figures in the channel's tooltip (local platform only)", async () => {
    const node = new ChannelNode(undefined, await client.liveGetChannelById(channel.id));
    const extra = channelHealthTooltips(harness.ctx);
    assert.equal(extra.applies(node), true);
    const text = (await extra.text(node)) ?? '';
    assert.match(text, /Resolution: 384x216/);
    assert.match(text, /Keyframe interval: 1\.50 s \(45 frames\)/);
    assert.match(text, /Frame rate: (29\.[5-9]\d|30\.[0-4]\d) fps/);
    assert.match(text, /Source bitrate: \d+ kbps/);
    assert.match(text, /HLS group 1 · 1 \(320x180\): newest segment \d+\.\d s ago/);
    assert.match(text, /HLS group 1 · 2 \(160x90\): newest segment \d+\.\d s ago/);
    // A stopped channel's row asks nothing.
    assert.equal(extra.applies(new ChannelNode(undefined, { ...node.channel, status: ChannelStatuses.ready })), false);
  });

  it('opens the Channel Health panel, reads every few seconds while open and stops when closed', async () => {
    const node = new ChannelNode(undefined, await client.liveGetChannelById(channel.id));
    await harness.run(channelHealthCommand, { node, selection: [node] });
    const panel = harness.panels.opened.at(-1)!;
    assert.equal(panel.options.kind, 'health');
    assert.match(panel.html, /Content-Security-Policy" content="default-src &#39;none&#39;/);
    assert.doesNotMatch(panel.html, /<script|https?:\/\/(?!www\.w3\.org)/);
    assert.match(panel.html, /384x216/);
    assert.match(panel.html, /1\.50 s \(45 frames\)/);
    await eventually('three samples', () => (panel.pages.length >= 3 ? true : undefined), 20_000);
    // Three samples: the bitrate line has three points.
    const path = /<path d="(M[^"]+)"[^>]*stroke="#3794ff"/.exec(panel.html)?.[1] ?? '';
    assert.ok(path.split(/[ML]/).filter(Boolean).length >= 3, `bitrate path ${path}`);
    panel.dispose();
    const pages = panel.pages.length;
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    assert.equal(panel.pages.length, pages, 'no read after the panel closed');
  });
});
