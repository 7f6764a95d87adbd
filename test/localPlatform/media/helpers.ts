/**
 * Shared set-up of the real-media tests: ffmpeg found like the CLI finds it (the PATH, then the npm
 * packages), short generated clips made once per suite, uploads over real HTTP, ffprobe as the oracle.
 */
import * as assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import type { PlatformClient } from '../../../src/api/client';
import type { Video } from '../../../src/api/types';
import { testClipArgs } from '../../../src/localPlatform/media/commands';
import { findMediaTools, probe, runTool, type MediaTools, type ProbeResult } from '../../../src/media/tools';

export async function mediaTools(): Promise<MediaTools | undefined> {
  const mode = await findMediaTools({ npmFallback: true });
  return mode.kind === 'real' ? mode.tools : undefined;
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

/** Polls getVideoInfo until the status is one of `want` (the suite's timeout bounds it). */
export async function waitForStatus(client: PlatformClient, id: string, want: number[]): Promise<Video> {
  for (;;) {
    const v = await client.getVideoInfo(id);
    if (want.includes(v.status)) return v;
    await new Promise((r) => setTimeout(r, 150));
  }
}

export function probeUrl(tools: MediaTools, url: string): Promise<ProbeResult> {
  return probe(tools, url);
}

/** Keyframe times (s) of a file or address, by ffprobe. */
export async function keyframes(tools: MediaTools, url: string): Promise<number[]> {
  const { stdout } = await runTool(tools.ffprobe, [
    ...['-v', 'error', '-select_streams', 'v:0', '-skip_frame', 'nokey'],
    ...['-show_entries', 'frame=pts_time', '-of', 'csv=p=0', url],
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
    ...['-v', 'error', '-ss', String(seconds), '-i', url, '-frames:v', '1'],
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
