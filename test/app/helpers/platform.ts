import type { PlatformClient } from '../../../src/api/client';
import type { Video } from '../../../src/api/types';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LiveOptions } from '../../../src/localPlatform/live/liveMedia';
import type { MediaOptions } from '../../../src/localPlatform/media/engine';
import { startLocalPlatform, type LocalPlatform } from '../../../src/localPlatform/server';

export const ACCESS_KEY = 'ext-test-access';
export const SECRET_KEY = 'ext-test-secret-0123456789';

export interface TestPlatform {
  readonly platform: LocalPlatform;
  readonly dataDir: string;
  close(): Promise<void>;
}

/**
 * The real local platform on 127.0.0.1 (free port), demo data, fast transcoding clock. With `media`, real
 * media (ffmpeg): the demo data is seeded first without media, so no demo clips are made in the background.
 */
export async function startTestPlatform(
  options: { clockSpeed?: number; demo?: boolean; media?: MediaOptions; live?: LiveOptions } = {},
): Promise<TestPlatform> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vp-ext-'));
  const base = {
    dataDir,
    accounts: [{ accessKey: ACCESS_KEY, secretKey: SECRET_KEY }],
    host: '127.0.0.1',
    port: 0,
    clockSpeed: options.clockSpeed ?? 200,
  };
  let demo = options.demo ?? true;
  if (options.media && demo) {
    await (await startLocalPlatform({ ...base, demo: true })).close();
    demo = false;
  }
  const platform = await startLocalPlatform({
    ...base,
    demo,
    ...(options.media ? { media: options.media } : {}),
    ...(options.live ? { live: options.live } : {}),
  });
  return {
    platform,
    dataDir,
    async close() {
      await platform.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The newest video of the account with exactly this title (the demo's titles are unique). */
export async function videoTitled(client: PlatformClient, title: string): Promise<Video> {
  const found = await client.queryVideo({
    start: 1,
    number: 50,
    sort: 'uploadTime',
    order: 'desc',
    searchType: 'title',
    keyword: title,
  });
  const video = found.find((candidate) => candidate.title === title);
  if (!video) throw new Error(`no video titled "${title}"`);
  return video;
}
