/**
 * The accounts a platform serves: each account's store opened (the data folder made, owner-only), demo data
 * seeded where asked, and its transcoding queue and live media attached.
 */
import { constants } from 'node:fs';
import { access, chmod, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Account } from './actions/context';
import { seedDemo } from './demo/demo';
import type { LiveMedia } from './live/liveMedia';
import { seedDemoMedia } from './media/demoMedia';
import type { MediaEngine } from './media/engine';
import { MediaTranscoder } from './media/jobs';
import type { LocalPlatformOptions } from './options';
import { openAccount } from './accounts';
import { DIR_MODE } from './store/permissions';
import { startError } from './store/storageErrors';

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

/**
 * Opens every account's store (creating the data folder, owner-only), seeding demo data if asked;
 * with real media, each account's transcoding queue runs ffmpeg and the demo videos get their media
 * in the background (stopped by `demoStop`); with real live media, channel operations reach it
 * through the account.
 */
export async function openAccounts(
  options: LocalPlatformOptions,
  engine: MediaEngine,
  demoStop: AbortSignal,
  logError: (error: unknown) => void,
  live: LiveMedia | undefined,
) {
  const tools = engine.tools;
  const makeQueue = tools
    ? (store: Account['store'], dir: string) => new MediaTranscoder(store, dir, engine, tools, logError)
    : undefined;
  const accounts = new Map<string, Account>();
  const takenUserIds = new Set<number>();
  try {
    // An existing folder that cannot be written is said so (a recursive mkdir reports ENOENT there).
    if (await exists(options.dataDir)) await access(options.dataDir, constants.W_OK);
    await mkdir(join(options.dataDir, 'accounts'), { recursive: true, mode: DIR_MODE });
    // Channel auth codes live here: the folder is the owner's only, also one made by an older version.
    await chmod(options.dataDir, DIR_MODE);
    await chmod(join(options.dataDir, 'accounts'), DIR_MODE);
    for (const config of options.accounts) {
      const opened = await openAccount(
        options.dataDir,
        config,
        takenUserIds,
        options.clockSpeed ?? 1,
        logError,
        undefined,
        makeQueue,
      );
      const { fresh } = opened;
      // With real live media, channel operations reach it through the account (actions/channels.ts).
      const account: Account = live ? { ...opened.account, live: live.hooksFor(opened.account) } : opened.account;
      accounts.set(config.accessKey, account);
      if (fresh && options.demo) await seedDemo(account.store, Date.now(), { realMedia: tools !== undefined });
      if (options.demo && tools) seedDemoMedia(account, options.dataDir, tools, logError, demoStop, engine.watchdog);
      account.transcoder.reschedule();
      await live?.resume(account);
    }
  } catch (error) {
    await live?.close();
    await closeAccounts(accounts);
    throw startError(error, options.dataDir);
  }
  return accounts;
}

export async function closeAccounts(accounts: Map<string, Account>): Promise<void> {
  for (const account of accounts.values()) {
    account.transcoder.close();
    await account.store.close().catch(() => undefined);
  }
}
