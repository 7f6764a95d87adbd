/**
 * Live media: a real encoder (ffmpeg, 640x360 test pattern, real time) pushes to a channel with a
 * 3-rendition HLS group (640x360, 480x270, 320x180). Prints the time from the first pushed frame (the
 * encoder's first video message that is not its codec configuration, seen on its way to the RTMP server)
 * to the first segment listed in the served playlist, and the encoder's own start before it; and the CPU
 * of the channel's ffmpeg over 20 s against the same ladder command (ladder.ts) run by hand on the same
 * stream (ratio). Needs ffmpeg; prints a note without it.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
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

/**
 * A TCP relay in front of the RTMP server that notes when the first video frame passes from the encoder: it
 * skips the handshake (C0, C1, C2) and follows the RTMP chunk stream (RTMP 1.0, 5.3) to each message's start.
 */
async function frameTap(rtmpPort: number): Promise<{ port: number; firstFrame: Promise<number>; server: Server }> {
  let found: (at: number) => void = () => undefined;
  const firstFrame = new Promise<number>((resolve) => (found = resolve));
  const server = createServer((encoder) => {
    const upstream = connect(rtmpPort, '127.0.0.1');
    encoder.pipe(upstream).pipe(encoder);
    encoder.on('error', () => upstream.destroy());
    upstream.on('error', () => encoder.destroy());
    const reader = chunkReader((message) => {
      // Video (type 9) whose AVC packet type is not 0 (the decoder configuration).
      if (message.type === 9 && !((message.head[0]! & 0x0f) === 7 && message.head[1] === 0)) found(performance.now());
    });
    encoder.on('data', (data: Buffer) => reader(data));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, firstFrame, server };
}

/** Calls `onMessage` with each RTMP message's type and first payload bytes, from the client's byte stream. */
function chunkReader(onMessage: (message: { type: number; head: Buffer }) => void): (data: Buffer) => void {
  let pending = Buffer.alloc(0);
  let handshake = 1 + 1536 + 1536;
  let chunkSize = 128;
  const streams = new Map<number, { length: number; type: number; left: number; extended: boolean }>();
  return (data) => {
    pending = Buffer.concat([pending, data]);
    if (handshake > 0) {
      const skip = Math.min(handshake, pending.length);
      handshake -= skip;
      pending = pending.subarray(skip);
    }
    for (;;) {
      if (pending.length < 3) return;
      const fmt = pending[0]! >> 6;
      let id = pending[0]! & 0x3f;
      let at = 1;
      if (id === 0) [id, at] = [64 + pending[1]!, 2];
      else if (id === 1) [id, at] = [64 + pending[1]! + pending[2]! * 256, 3];
      const headerLength = [11, 7, 3, 0][fmt]!;
      if (pending.length < at + headerLength) return;
      const previous = streams.get(id) ?? { length: 0, type: 0, left: 0, extended: false };
      const state = { ...previous };
      if (fmt < 3) state.extended = pending.readUIntBE(at, 3) === 0xffffff;
      if (fmt < 2) [state.length, state.type] = [pending.readUIntBE(at + 3, 3), pending[at + 6]!];
      const starts = fmt < 3 || previous.left === 0;
      if (starts) state.left = state.length;
      const payloadAt = at + headerLength + (state.extended ? 4 : 0);
      const size = Math.min(chunkSize, state.left);
      if (pending.length < payloadAt + size) return;
      const payload = pending.subarray(payloadAt, payloadAt + size);
      if (starts) onMessage({ type: state.type, head: payload.subarray(0, 2) });
      if (starts && state.type === 1 && size >= 4) chunkSize = payload.readUInt32BE(0) & 0x7fffffff;
      state.left -= size;
      streams.set(id, state);
      pending = pending.subarray(payloadAt + size);
    }
  };
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
  let tap: Awaited<ReturnType<typeof frameTap>> | undefined;
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
    const pushUrl = new URL(started.pushUrl);
    tap = await frameTap(Number(pushUrl.port));
    pushUrl.port = String(tap.port);
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
        pushUrl.href,
      ],
      { stdio: 'ignore' },
    );
    encoder.kill = () => child.kill('SIGKILL');
    let listedAt = NaN;
    while (performance.now() - t0 < 30_000) {
      const res = await httpGet(urls.playUrlList[0].url).catch(() => undefined);
      const text = res?.status === 200 ? res.body.toString('utf8') : '';
      if (/\.ts$/m.test(text)) {
        listedAt = performance.now();
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const frameAt = await Promise.race([tap.firstFrame, new Promise<number>((r) => setTimeout(() => r(NaN), 1000))]);
    const firstSegmentMs = listedAt - frameAt;
    console.log(
      `first segment listed ${(firstSegmentMs / 1000).toFixed(2)} s after the first pushed frame, which the encoder sent ${((frameAt - t0) / 1000).toFixed(2)} s after its start (segments of ${SEGMENT_SECONDS} s, playlist of ${PLAYLIST_SEGMENTS})`,
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
    tap?.server.close();
    await client.close();
    await platform.close();
    await rm(dir, { recursive: true, force: true });
  }
}
