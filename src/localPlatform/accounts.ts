/**
 * Opens each configured account's store. An account's folder name is derived from a hash of its
 * access key, never from raw input, so nothing a client sends can name a path.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Account } from './actions/context';
import { FIRST_USER_TEMPLATE_GROUP_ID } from './actions/builtinGroups';
import { withCoverFlags } from './media/files';
import { COLLECTION_NAMES, type MetaRec } from './store/records';
import { AccountStore, Tx } from './store/store';
import { Transcoder, type TranscodeQueue } from './transcoder';

export interface PlatformAccount {
  accessKey: string;
  secretKey: string;
  userId?: number;
  /** Where the platform posts its callbacks (callbacks/; http(s), loopback unless `callbacks.allowRemote`). */
  callbackUrls?: string[];
}

export function accountDir(dataDir: string, accessKey: string): string {
  const hash = createHash('sha256').update(`account:${accessKey}`, 'utf8').digest('hex');
  return join(dataDir, 'accounts', hash.slice(0, 32));
}

/** A stable user id for an account that was not given one: 100000-999999 from the key's hash. */
export function derivedUserId(accessKey: string): number {
  const hash = createHash('sha256').update(`user:${accessKey}`, 'utf8').digest();
  return 100_000 + (hash.readUInt32BE(0) % 900_000);
}

export interface OpenedAccount {
  account: Account;
  /** True when the account holds no records but its meta record (demo data may be seeded). */
  fresh: boolean;
}

export async function openAccount(
  dataDir: string,
  config: PlatformAccount,
  takenUserIds: Set<number>,
  clockSpeed: number,
  onError: (error: unknown) => void,
  compactBytes?: number,
  /** The real media queue (media/jobs.ts) instead of the simulated clock. */
  makeQueue?: (store: AccountStore, dir: string) => TranscodeQueue,
): Promise<OpenedAccount> {
  const dir = accountDir(dataDir, config.accessKey);
  const store = await AccountStore.open(dir, { compactBytes, upgrade: (loaded) => withCoverFlags(loaded, dir) });
  let meta = store.get('meta', 'meta');
  if (!meta) {
    let userId = config.userId ?? derivedUserId(config.accessKey);
    while (config.userId === undefined && takenUserIds.has(userId)) userId++;
    const created: MetaRec = {
      id: 'meta',
      userId,
      nextLogoGroupId: 1,
      nextTemplateGroupId: FIRST_USER_TEMPLATE_GROUP_ID,
      nextVideoCategoryId: 1,
      defaultTemplateGroupId: null,
      createdAt: Date.now(),
    };
    await store.commit(new Tx().put('meta', created));
    meta = created;
  }
  const userId = config.userId ?? meta.userId;
  takenUserIds.add(userId);
  const transcoder = makeQueue ? makeQueue(store, dir) : new Transcoder(store, clockSpeed, onError);
  // "No data yet" is judged by the records, not by whether anything was ever written: a process
  // stopped between writing the account's meta record and its demo data still gets the demo data.
  const fresh = COLLECTION_NAMES.every((c) => c === 'meta' || store.size(c) === 0);
  return {
    account: { accessKey: config.accessKey, secretKey: config.secretKey, userId, store, transcoder },
    fresh,
  };
}
