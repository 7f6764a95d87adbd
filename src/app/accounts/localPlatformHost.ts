import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { LocalPlatform, LocalPlatformOptions } from '../../localPlatform/server';
import type { LogSink } from '../log';
import type { AccountProfile, AccountStore } from './accountStore';

const LOCAL_ACCOUNT_NAME = 'Local platform';

export type LocalPlatformStarter = (options: LocalPlatformOptions) => Promise<LocalPlatform>;

/**
 * The bundled local platform, run inside the extension host on a free 127.0.0.1 port with its
 * data under the extension's global storage (demo data on first run). Its account has a
 * generated access key and a random secret that lives only in secret storage; the port changes
 * from run to run, so the profile's address is updated on every start.
 */
export class LocalPlatformHost {
  private running: Promise<LocalPlatform> | undefined;

  constructor(
    private readonly store: AccountStore,
    private readonly storageDir: string,
    private readonly start: LocalPlatformStarter,
    private readonly log: LogSink,
  ) {}

  /** The profile of the local platform, created on first use. */
  private async profile(): Promise<{ profile: AccountProfile; secretKey: string }> {
    const existing = this.store.list().find((account) => account.origin === 'local');
    if (existing) {
      let secretKey = await this.store.secretKey(existing.id);
      if (!secretKey) {
        // Secret storage was cleared: the local platform takes whatever secret we give it.
        secretKey = randomBytes(24).toString('base64url');
        await this.store.update(existing.id, {}, secretKey);
      }
      return { profile: existing, secretKey };
    }
    const secretKey = randomBytes(24).toString('base64url');
    const taken = new Set(this.store.list().map((account) => account.name.toLowerCase()));
    let name = LOCAL_ACCOUNT_NAME;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${LOCAL_ACCOUNT_NAME} (${n})`;
    const profile = await this.store.add(
      { name, baseUrl: 'http://127.0.0.1', accessKey: `local-${randomBytes(8).toString('hex')}`, origin: 'local' },
      secretKey,
    );
    return { profile, secretKey };
  }

  /** Starts the server (once) and returns the profile with its current address. */
  async ensure(): Promise<AccountProfile> {
    const { profile, secretKey } = await this.profile();
    if (!this.running) {
      const starting = this.start({
        dataDir: join(this.storageDir, 'local-platform'),
        accounts: [{ accessKey: profile.accessKey, secretKey }],
        host: '127.0.0.1',
        port: 0,
        demo: true,
      });
      this.running = starting;
      starting.catch(() => {
        if (this.running === starting) this.running = undefined;
      });
    }
    const platform = await this.running;
    if (profile.baseUrl !== platform.baseUrl) {
      this.log.info(`Local platform listening at ${platform.baseUrl}`);
      return this.store.update(profile.id, { baseUrl: platform.baseUrl });
    }
    return profile;
  }

  /** For "Connect to Local Platform". */
  async connect(): Promise<{ accountId: string; baseUrl: string }> {
    const profile = await this.ensure();
    return { accountId: profile.id, baseUrl: profile.baseUrl };
  }

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  async dispose(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    if (running) await running.then((platform) => platform.close()).catch(() => undefined);
  }
}
