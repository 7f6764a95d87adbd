import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalPlatform, type LocalPlatform } from '../../../src/localPlatform/server';

export const ACCESS_KEY = 'ext-test-access';
export const SECRET_KEY = 'ext-test-secret-0123456789';

export interface TestPlatform {
  readonly platform: LocalPlatform;
  readonly dataDir: string;
  close(): Promise<void>;
}

/** The real local platform on 127.0.0.1 (free port), demo data, fast transcoding clock. */
export async function startTestPlatform(options: { clockSpeed?: number; demo?: boolean } = {}): Promise<TestPlatform> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vp-ext-'));
  const platform = await startLocalPlatform({
    dataDir,
    accounts: [{ accessKey: ACCESS_KEY, secretKey: SECRET_KEY }],
    host: '127.0.0.1',
    port: 0,
    demo: options.demo ?? true,
    clockSpeed: options.clockSpeed ?? 200,
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
