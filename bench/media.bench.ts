/**
 * Real media through the local platform (needs ffmpeg; skipped in simulated mode):
 * - transcode time of one 10 s 640x360 clip into one HLS + MP4 rendition through the platform (from
 *   secondTranscodeV2 to status 2, polled every 50 ms) vs the same ffmpeg commands run by hand;
 * - upload throughput of a 64 MiB file to /multipart/upload vs a bare Node server streaming the same
 *   multipart body to disk. Prints times and ratios.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import { PlatformClient } from '../src/api/client';
import { encodeArgs, hlsArgs, testClipArgs } from '../src/localPlatform/media/commands';
import type { JobTemplate } from '../src/localPlatform/store/records';
import { startLocalPlatform } from '../src/localPlatform/server';
import { findMediaTools, runTool } from '../src/media/tools';
import { goalRow } from './goalTable';

const ACCOUNT = { accessKey: 'bench-media', secretKey: 'bench-media-secret' };
const UPLOAD_BYTES = 64 * 1024 * 1024;
const TEMPLATE: JobTemplate = {
  name: 'bench',
  videoWidth: 640,
  videoHeight: 360,
  videoBitrate: 800,
  audioBitrate: 96000,
  hls: true,
  mp4: true,
  flv: false,
  ts: false,
  hlsEncryptType: 0,
  mp4EncryptType: 0,
  flvEncryptType: 0,
  tsEncryptType: 0,
  defaultVideo: 1,
};

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const r = await f();
  return [r, performance.now() - t0];
}

export async function run(): Promise<void> {
  const mode = await findMediaTools({ npmFallback: true });
  if (mode.kind !== 'real') {
    console.log(`skipped: ${mode.reason}`);
    return;
  }
  const { tools } = mode;
  const dir = await mkdtemp(join(tmpdir(), 'bench-media-'));
  const platform = await startLocalPlatform({
    dataDir: join(dir, 'data'),
    accounts: [ACCOUNT],
    media: { npmFallback: true, maxJobs: 1 },
  });
  const client = new PlatformClient({ baseUrl: platform.baseUrl, ...ACCOUNT });
  try {
    const clip = join(dir, 'clip.mp4');
    await runTool(tools.ffmpeg, testClipArgs(clip, 10, 640, 360, 'bench'));
    const token = (await client.getToken()).accessToken;
    const form = (name: string, data: Buffer): FormData => {
      const f = new FormData();
      f.set('token', token);
      f.set('isTranscoder', '0');
      f.set('file', new Blob([data]), name);
      return f;
    };
    const up = (await (
      await fetch(`${platform.baseUrl}/multipart/upload`, {
        method: 'POST',
        body: form('clip.mp4', await readFile(clip)),
      })
    ).json()) as { result: Array<{ videoId: string }> };
    const videoId = up.result[0].videoId;

    // Transcoding: platform vs by hand (same arguments, same preset).
    const [, platformMs] = await timed(async () => {
      await client.secondTranscodeV2({ videoIds: [videoId], replace: true, transcodeTemplates: [TEMPLATE] });
      for (;;) {
        const v = await client.getVideoInfo(videoId);
        if (v.status === 2 || v.status === 3) return;
        await new Promise((r) => setTimeout(r, 50));
      }
    });
    const [, handMs] = await timed(async () => {
      const mp4 = join(dir, 'hand.mp4');
      await runTool(
        tools.ffmpeg,
        encodeArgs({
          source: { file: clip, demuxer: 'mov' },
          output: mp4,
          template: TEMPLATE,
          preset: 'veryfast',
          durationSeconds: 10,
          hasAudio: true,
          logos: [],
        }),
      );
      await runTool(tools.ffmpeg, hlsArgs(mp4, join(dir, 'hand.m3u8'), join(dir, 'hand-%03d.ts')));
    });
    console.log(
      `transcode 10 s 640x360 -> HLS+MP4 800 kbps: platform ${platformMs.toFixed(0)} ms, by hand ${handMs.toFixed(0)} ms, ratio ${(platformMs / handMs).toFixed(2)}`,
    );
    goalRow({
      figure: 'transcode through the platform vs the same ffmpeg commands by hand (10 s clip, HLS + MP4)',
      goal: 'at most 1.05',
      measured: `${(platformMs / handMs).toFixed(2)} (${platformMs.toFixed(0)} / ${handMs.toFixed(0)} ms)`,
      met: platformMs / handMs <= 1.05,
    });

    // Upload throughput: the platform vs a bare server streaming the body to disk.
    const data = randomBytes(UPLOAD_BYTES);
    const [, uploadMs] = await timed(async () => {
      const res = await fetch(`${platform.baseUrl}/multipart/upload`, { method: 'POST', body: form('blob.bin', data) });
      await res.json();
    });
    const bare = createServer((req, res) => {
      void pipeline(req, createWriteStream(join(dir, 'bare.bin'))).then(() => res.end('{}'));
    });
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
    const port = (bare.address() as AddressInfo).port;
    const [, bareMs] = await timed(async () => {
      const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: form('blob.bin', data) });
      await res.text();
    });
    bare.close();
    const mibs = (ms: number): string => (UPLOAD_BYTES / 1024 / 1024 / (ms / 1000)).toFixed(0);
    console.log(
      `upload 64 MiB: platform ${uploadMs.toFixed(0)} ms (${mibs(uploadMs)} MiB/s), bare server ${bareMs.toFixed(0)} ms (${mibs(bareMs)} MiB/s), ratio ${(uploadMs / bareMs).toFixed(2)}`,
    );
    const throughput = bareMs / uploadMs;
    goalRow({
      figure: 'upload of 64 MiB, throughput vs a bare server storing the same bytes',
      goal: 'at least 0.9',
      measured: `${throughput.toFixed(2)} (${mibs(uploadMs)} / ${mibs(bareMs)} MiB/s)`,
      met: throughput >= 0.9,
    });
  } finally {
    await client.close();
    await platform.close();
    await rm(dir, { recursive: true, force: true });
  }
}
