/**
 * Shared set-up of the real-media tests: ffmpeg found like the CLI finds it (the PATH, then the npm
 * packages), short generated clips made once per suite, uploads over real HTTP, ffprobe as the oracle.
 */
import * as assert from 'node:assert/strict';
import { createDecipheriv } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import type { PlatformClient } from '../../../src/api/client';
import { VideoStatuses, type Video, type VideoStatus } from '../../../src/api/types';
import { testClipArgs } from '../../../src/localPlatform/media/commands';
import { findMediaTools, runTool, type MediaTools } from '../../../src/media/tools';
import { eventually } from '../../helpers/eventually';
import { probe, type ProbeResult } from '../../media/ffprobe';

export async function mediaTools(): Promise<MediaTools | undefined> {
  const mode = await findMediaTools({ npmFallback: true });
  return mode.kind === 'real' ? mode.tools : undefined;
}

/** The ffprobe these tests cross-check with: optional beside ffmpeg for the product, required here. */
function ffprobeOf(tools: MediaTools): string {
  if (!tools.ffprobe) throw new Error(`these checks need ffprobe beside ${tools.ffmpeg}`);
  return tools.ffprobe;
}

export async function makeClip(
  tools: MediaTools,
  dir: string,
  name: string,
  seconds: number,
  width = 320,
  height = 180,
): Promise<string> {
  const file = join(dir, name);
  await runTool(tools.ffmpeg, testClipArgs(file, seconds, width, height, name));
  return file;
}

export interface UploadAnswer {
  code: number;
  message: string;
  success: boolean;
  result: Array<{ videoId: string; fileName: string; thumbnail: string; status: number; [k: string]: unknown }> | null;
}

/** A multipart upload as a browser form sends it. */
export async function upload(
  baseUrl: string,
  fields: Record<string, string>,
  file?: { name: string; data: Buffer },
): Promise<UploadAnswer> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) form.set('file', new Blob([file.data]), file.name);
  const res = await fetch(`${baseUrl}/multipart/upload`, { method: 'POST', body: form });
  assert.equal(res.status, 200);
  return (await res.json()) as UploadAnswer;
}

export async function uploadFile(baseUrl: string, token: string, file: string, extra: Record<string, string> = {}) {
  return upload(baseUrl, { token, ...extra }, { name: file.split('/').pop()!, data: await readFile(file) });
}

/** A transcoding run has ended: completed or failed. */
export const SETTLED = [VideoStatuses.completed, VideoStatuses.failed] as const;

/**
 * Polls getVideoInfo (through eventually(), the one polling helper) until the status is one of `want`; the
 * limit is the media suites' timeout, which bounded it before it had one of its own.
 */
export async function waitForStatus(
  client: PlatformClient,
  id: string,
  want: readonly VideoStatus[],
  timeoutMs = 120_000,
): Promise<Video> {
  return eventually(
    `video ${id} in status ${want.join(' or ')}`,
    async () => {
      const v = await client.getVideoInfo(id);
      return want.includes(v.status) ? v : undefined;
    },
    timeoutMs,
  );
}

/**
 * ffprobe of an address the platform lists. The address is fetched over HTTP by the test (an HLS
 * playlist with its key and segments, by the names it gives) and probed as files, so the same checks
 * run with Debian's tools and with the npm packages' static builds (see below).
 */
export async function probeUrl(tools: MediaTools, url: string): Promise<ProbeResult> {
  const file = await localCopy(url);
  if (tools.source === 'npm' && (file.endsWith('.m3u8') || file.endsWith('.ts'))) {
    // The npm packages' static ffprobe crashes (SIGSEGV) on any MPEG-TS stream information: the
    // segments, decrypted with the key the playlist names, are joined, copied into MP4 by ffmpeg
    // (no re-encoding) and probed as such.
    const ts = file.endsWith('.m3u8') ? await joinedSegments(file) : file;
    const mp4 = `${ts}.copy.mp4`;
    await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-i', ts, '-c', 'copy', '-f', 'mp4', mp4]);
    return probe(tools, mp4);
  }
  if (!file.endsWith('.m3u8')) return probe(tools, file);
  const { stdout } = await runTool(ffprobeOf(tools), [
    ...['-v', 'error', '-allowed_extensions', 'ALL', '-show_streams', '-show_format', '-of', 'json', file],
  ]);
  const parsed = JSON.parse(stdout.toString('utf8')) as Partial<ProbeResult>;
  return { streams: parsed.streams ?? [], format: parsed.format ?? {} };
}

async function joinedSegments(playlist: string): Promise<string> {
  const text = await readFile(playlist, 'utf8');
  const dir = playlist.slice(0, playlist.lastIndexOf('/'));
  const keyName = /#EXT-X-KEY:METHOD=AES-128,URI="([^"]+)"/.exec(text)?.[1];
  const key = keyName ? await readFile(join(dir, keyName)) : undefined;
  const parts: Buffer[] = [];
  let sequence = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)?.[1] ?? 0);
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const data = await readFile(join(dir, line.trim()));
    if (key) {
      const ivText = /IV=0x([0-9a-fA-F]{32})/.exec(text)?.[1];
      const iv = ivText ? Buffer.from(ivText, 'hex') : Buffer.alloc(16);
      if (!ivText) iv.writeUInt32BE(sequence, 12);
      const decipher = createDecipheriv('aes-128-cbc', key, iv);
      parts.push(decipher.update(data), decipher.final());
    } else {
      parts.push(data);
    }
    sequence++;
  }
  const out = `${playlist}.joined.ts`;
  await writeFile(out, Buffer.concat(parts));
  return out;
}

const copies = new Map<string, string>();

/** Removes the local copies made by probeUrl, keyframes and frameRgb (call in `after`). */
export async function removeCopies(): Promise<void> {
  const dirs = new Set([...copies.values()].map((f) => f.slice(0, f.lastIndexOf('/'))));
  copies.clear();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
}

/** A local copy of an address (and, for a playlist, of everything it names), cached per test run. */
export async function localCopy(url: string): Promise<string> {
  const cached = copies.get(url);
  if (cached) return cached;
  const dir = await mkdtemp(join(tmpdir(), 'media-copy-'));
  const name = new URL(url).pathname.split('/').pop()!;
  const get = async (u: string): Promise<Buffer> => {
    const res = await fetch(u);
    assert.equal(res.status, 200, u);
    return Buffer.from(await res.arrayBuffer());
  };
  const body = await get(url);
  await writeFile(join(dir, name), body);
  if (name.endsWith('.m3u8')) {
    const text = body.toString('utf8');
    const names = [
      ...text.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#')),
      ...[...text.matchAll(/URI="([^"]+)"/g)].map((m) => m[1]),
    ];
    for (const n of names) {
      // A key's address carries its token (media/tokens.ts): the local copy is named without it.
      const local = n.replace(/\?token=[\w.-]+$/, '');
      assert.match(local, /^[A-Za-z0-9._-]+$/, 'the playlist names files beside it');
      await writeFile(join(dir, local), await get(new URL(n, url).toString()));
    }
    await writeFile(join(dir, name), text.replace(/\?token=[\w.-]+"/g, '"'));
  }
  copies.set(url, join(dir, name));
  return join(dir, name);
}

/** Keyframe times (s) of a file or address, by ffprobe. */
export async function keyframes(tools: MediaTools, url: string): Promise<number[]> {
  const { stdout } = await runTool(ffprobeOf(tools), [
    ...['-v', 'error', '-select_streams', 'v:0', '-skip_frame', 'nokey'],
    ...['-show_entries', 'frame=pts_time', '-of', 'csv=p=0', await localCopy(url)],
  ]);
  return stdout
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => Number(Number(l.split(',')[0]).toFixed(2)));
}

/** One decoded frame at `seconds` as RGB24 bytes (width * height * 3). */
export async function frameRgb(tools: MediaTools, url: string, seconds: number): Promise<Buffer> {
  const { stdout } = await runTool(tools.ffmpeg, [
    ...['-v', 'error', '-ss', String(seconds), '-i', await localCopy(url), '-frames:v', '1'],
    ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
  ]);
  return stdout;
}

/** A raw GET with headers, for ranges, HEAD and paths a URL parser would normalise. */
export function rawGet(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Every picture address a video (or an upload's answer) lists answers a JPEG; "" lists none. Both or neither:
 * they are captured together. Returns whether it lists them.
 */
export async function checkPictures(
  port: number,
  v: { cover?: unknown; thumbnail?: unknown; title?: unknown },
): Promise<boolean> {
  const addresses = [v.cover, v.thumbnail];
  for (const address of addresses) assert.equal(typeof address, 'string', `${String(v.title)}: a string`);
  const listed = (addresses as string[]).filter((address) => address !== '');
  assert.ok(listed.length === 0 || listed.length === 2, `${String(v.title)}: cover and thumbnail both or neither`);
  for (const address of listed) {
    const r = await rawGet(port, new URL(address).pathname);
    assert.equal(r.status, 200, `${String(v.title)}: ${address}`);
    assert.equal(r.headers['content-type'], 'image/jpeg', address);
    assert.equal(r.body.subarray(0, 2).toString('hex'), 'ffd8', address);
  }
  return listed.length > 0;
}
