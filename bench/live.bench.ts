/**
 * Live media: a real encoder (ffmpeg, 640x360 test pattern, real time) pushes to a channel with a
 * 3-rendition HLS group (640x360, 480x270, 320x180). Prints the time from the encoder's start (its
 * first pushed frame follows within a few tens of ms) to the first segment listed in the served
 * playlist, and the CPU of the channel's ffmpeg over 20 s against the same ladder command
 * (ladder.ts) run by hand on the same stream (ratio). Needs ffmpeg; prints a note without it.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '../src/api/client';
import { ladderArgs, PLAYLIST_SEGMENTS, SEGMENT_SECONDS, type Rendition } from '../src/localPlatform/live/ladder';
import { startLocalPlatform } from '../src/localPlatform/server';
import { findMediaTools } from '../src/media/tools';
import { goalRow } from './goalTable';
import { httpGet } from '../test/localPlatform/live/media';

const ACCOUNT = { accessKey: 'bench-live-key', secretKey: 'bench-live-secret' };
const WINDOW_MS = 20_000;
const TICKS = 100; // clock ticks per second of /proc/<pid>/stat on Linux

function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

function ffmpegWith(marker: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmd.includes(marker) && cmd.includes('-filter_complex')) return Number(entry);
    } catch {
      // gone
    }
  }
  return undefined;
}

async function cpuOver(pid: number, ms: number): Promise<number> {
  const a = cpuSeconds(pid);
  await new Promise((r) => setTimeout(r, ms));
  return (cpuSeconds(pid) - a) / (ms / 1000);
}

export async function run(): Promise<void> {
  const mode = await findMediaTools({ npmFallback: true });
  if (mode.kind !== 'real' || process.platform !== 'linux') {
    console.log(`live media benchmark skipped: ${mode.kind === 'real' ? 'needs Linux /proc' : mode.reason}`);
    return;
  }
  const tools = mode.tools;
  const dir = await mkdtemp(join(tmpdir(), 'bench-live-'));
  const platform = await startLocalPlatform({ dataDir: dir, accounts: [ACCOUNT], live: { rtmpPort: 0 } });
  const client = new PlatformClient({ baseUrl: platform.baseUrl, ...ACCOUNT });
  const encoder = { kill: (): void => undefined };
  try {
    const sizes: Array<[number, number, number]> = [
      [640, 360, 800],
      [480, 270, 500],
      [320, 180, 300],
    ];
    const templates = [];
    for (const [w, h, b] of sizes) {
      templates.push(
        await client.liveTemplateCreate({ displayName: `${h}p`, videoWidth: w, videoHeight: h, videoBitrate: b }),
      );
    }
    const ch = await client.liveCreateChannel({
      name: 'Bench',
      signalType: '1',
      outputGroupList: [
        {
          protocolType: 1,
          outputTemplateList: templates.map((t, i) => ({ templateId: t.id, isDefault: i === 0 ? '1' : '0' })),
        },
      ],
    });
    const started = await client.liveStartChannel(ch.id);
    const [urls] = await client.liveGetChannelsPlayUrl(ch.id);
    const t0 = performance.now();
    const child = spawn(
      tools.ffmpeg,
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-re',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=640x360:rate=25',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-tune',
        'zerolatency',
        '-g',
        '50',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-f',
        'flv',
        started.pushUrl,
      ],
      { stdio: 'ignore' },
    );
    encoder.kill = () => child.kill('SIGKILL');
    let firstSegmentMs = NaN;
    while (performance.now() - t0 < 30_000) {
      const res = await httpGet(urls.playUrlList[0].url).catch(() => undefined);
      const text = res?.status === 200 ? res.body.toString('utf8') : '';
      if (/\.ts$/m.test(text)) {
        firstSegmentMs = performance.now() - t0;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    console.log(
      `first segment listed ${(firstSegmentMs / 1000).toFixed(2)} s after the encoder started (segments of ${SEGMENT_SECONDS} s, playlist of ${PLAYLIST_SEGMENTS})`,
    );
    const inSegments = firstSegmentMs / 1000 / SEGMENT_SECONDS;
    goalRow({
      figure: 'live: first pushed frame to first segment in the playlist, in segment durations',
      goal: 'at most 1.2',
      measured: `${inSegments.toFixed(2)} (${(firstSegmentMs / 1000).toFixed(2)} s, ${SEGMENT_SECONDS} s segments)`,
      met: inSegments <= 1.2,
    });
    const pid = ffmpegWith(dir);
    if (!pid) throw new Error('the channel ffmpeg is not running');
    const platformCpu0 = process.cpuUsage();
    const channelCpu = await cpuOver(pid, WINDOW_MS);
    const platformCpu = process.cpuUsage(platformCpu0);
    // The same ladder by hand, on the same stream.
    const handDir = await mkdtemp(join(tmpdir(), 'bench-live-hand-'));
    const renditions: Rendition[] = sizes.map(([width, height, videoBitrate], i) => ({
      width,
      height,
      videoBitrate,
      audioBitrate: 64,
      frameRate: 25,
      isDefault: i === 0,
    }));
    const hand = spawn(
      tools.ffmpeg,
      ladderArgs({
        source: started.pushUrl.replace(/\?.*$/, ''),
        hasAudio: true,
        sourceFrameRate: 25,
        dir: handDir,
        groups: [{ id: 'hand', kind: 'hls', renditions }],
        thumbnailFile: join(handDir, 'thumbnail.jpg'),
      }),
      { stdio: 'ignore' },
    );
    await new Promise((r) => setTimeout(r, 3000));
    const handCpu = await cpuOver(hand.pid!, WINDOW_MS);
    hand.kill('SIGKILL');
    await rm(handDir, { recursive: true, force: true });
    const nodeCpu = (platformCpu.user + platformCpu.system) / 1e6 / (WINDOW_MS / 1000);
    console.log(
      `CPU per channel (3 renditions, cores): platform ffmpeg ${channelCpu.toFixed(3)} + platform process (RTMP, HTTP, this loop) ${nodeCpu.toFixed(3)}; ` +
        `same ladder by hand ${handCpu.toFixed(3)}; ratio ${((channelCpu + nodeCpu) / handCpu).toFixed(2)}`,
    );
    const ladderRatio = channelCpu / handCpu;
    goalRow({
      figure: "live ladder CPU (the channel's ffmpeg) vs the same ffmpeg ladder by hand",
      goal: 'at most 1.05x',
      measured: `${ladderRatio.toFixed(2)}x (${channelCpu.toFixed(3)} / ${handCpu.toFixed(3)} cores; platform process +${nodeCpu.toFixed(3)})`,
      met: ladderRatio <= 1.05,
    });
  } finally {
    encoder.kill();
    await client.close();
    await platform.close();
    await rm(dir, { recursive: true, force: true });
  }
}
