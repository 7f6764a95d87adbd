/** Shared by the live tests: an ffmpeg encoder pushing a test pattern, polling, ffprobe, leftover processes. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { get } from 'node:http';
import type { PlatformClient } from '../../../src/api/client';
import { findMediaTools, runTool } from '../../../src/media/tools';
import { eventually } from '../../helpers/eventually';
import { probe, type ProbeResult } from '../../media/ffprobe';

/** ffmpeg and ffprobe as the platform finds them (the PATH, else the npm packages); set by `loadTools()`. */
export const TOOLS = { ffmpeg: '', ffprobe: '', npm: false };

/** Finds the tools once per run; a suite calls it in its `before` hook. */
export async function loadTools(): Promise<void> {
  if (TOOLS.ffmpeg) return;
  const mode = await findMediaTools({ npmFallback: true });
  if (mode.kind !== 'real') throw new Error(`the live media tests need ffmpeg: ${mode.reason}`);
  TOOLS.ffmpeg = mode.tools.ffmpeg;
  if (!mode.tools.ffprobe) throw new Error(`the live media tests need ffprobe beside ${mode.tools.ffmpeg}`);
  TOOLS.ffprobe = mode.tools.ffprobe;
  TOOLS.npm = mode.tools.source === 'npm';
}

export interface Encoder {
  child: ChildProcess;
  exited: Promise<number | string>;
  stderr(): string;
  kill(): Promise<void>;
}

/** Pushes a 320x180 test pattern with a tone, in real time, for `seconds`. */
export function pushTestPattern(url: string, seconds: number, outputOptions: string[] = []): Encoder {
  const child = spawn(
    TOOLS.ffmpeg,
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostats',
      '-re',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=320x180:rate=25',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=44100',
      '-t',
      String(seconds),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-tune',
      'zerolatency',
      '-g',
      '25',
      '-b:v',
      '300k',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '64k',
      '-f',
      'flv',
      ...outputOptions,
      url,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = new Promise<number | string>((resolve) => child.on('close', (c, s) => resolve(c ?? s ?? -1)));
  return {
    child,
    exited,
    stderr: () => err,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** One decoded frame of an address as 8-bit gray pixels, row by row. */
export async function grayFrame(url: string): Promise<Buffer> {
  const { stdout } = await runTool(
    TOOLS.ffmpeg,
    ['-v', 'error', '-i', url, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
    { timeoutMs: 20_000 },
  );
  return stdout;
}

export async function probeUrl(url: string): Promise<ProbeResult> {
  if (!TOOLS.npm || !/\.m3u8(\?|$)/.test(url)) return probe(TOOLS, url, { timeoutMs: 20_000 });
  // The npm packages' static ffprobe crashes (SIGSEGV) on MPEG-TS: their ffmpeg copies a second of every
  // stream of the HLS address (all variants of a master) into an MP4, which it reads.
  const dir = mkdtempSync(join(tmpdir(), 'vp-live-probe-'));
  try {
    const mp4 = join(dir, 'copy.mp4');
    await runTool(
      TOOLS.ffmpeg,
      ['-v', 'error', '-y', '-i', url, '-map', '0:v?', '-map', '0:a?', '-c', 'copy', '-t', '1', '-f', 'mp4', mp4],
      { timeoutMs: 20_000 },
    );
    return await probe(TOOLS, mp4, { timeoutMs: 20_000 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Command lines of processes that contain `marker` (Linux /proc). */
export function commandsWith(marker: string): string[] {
  return processesWith(marker)
    .map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').slice(0, 300);
      } catch {
        return '';
      }
    })
    .filter((c) => c !== '');
}

/** Processes whose command line contains `marker` (Linux /proc). */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmd.includes(marker)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/**
 * A plain GET through node:http. Not the global fetch: once the API client has loaded the npm undici
 * (src/api/undici.ts) in a process whose built-in fetch was never used, that fetch fails an internal
 * assertion on its first call.
 */
export function httpGet(url: string): Promise<{ status: number; type: string; body: Buffer; cors: string }> {
  return new Promise((resolve, reject) => {
    const req = get(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type'] ?? ''),
          cors: String(res.headers['access-control-allow-origin'] ?? ''),
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.on('error', reject);
  });
}

/**
 * A channel pulling the built-in test pattern into one AES-128 HLS group (160x90), started: its master address, its
 * child playlist's address and text once a segment is listed. An encrypted group is not looped (patternLoop.ts):
 * the pattern goes through a relay and the ladder, a key per channel.
 */
export async function startEncryptedPattern(
  client: PlatformClient,
  name: string,
): Promise<{ channelId: string; master: string; child: string; playlist: string }> {
  const t = await client.liveTemplateCreate({
    displayName: 'Tiny',
    videoWidth: 160,
    videoHeight: 90,
    videoBitrate: 150,
  });
  const ch = await client.liveCreateChannel({
    name,
    signalType: '2',
    pullStream: 'testsrc://160x90',
    outputGroupList: [
      { protocolType: 1, isLiveEncrypt: '1', outputTemplateList: [{ templateId: t.id, isDefault: '1' }] },
    ],
  });
  await client.liveStartChannel(ch.id);
  const [urls] = await client.liveGetChannelsPlayUrl(ch.id);
  const master = urls!.playUrl;
  const child = master.replace(/\.m3u8$/, '-1.m3u8');
  const playlist = await eventually(
    'an encrypted segment listed',
    async () => {
      const answer = await httpGet(child);
      const text = answer.body.toString('utf8');
      return answer.status === 200 && text.includes('#EXTINF') ? text : undefined;
    },
    60_000,
  );
  return { channelId: ch.id, master, child, playlist };
}
