import { Emitter } from '../util/emitter';
import type * as Client from '../../api/client';
import type { ClientOptions, PlatformClient, RequestLogEntry } from '../../api/client';
import { l10n } from '../../l10n/l10n';
import { lazyPart } from '../lazyPart';
import { formatRequest, type LogSink } from '../log';
import type { ClientSource } from '../tree/clientSource';
import type { AccountProfile, AccountStore } from './accountStore';

/**
 * The REST client (src/api: signing, transport, operations), a part of its own in the extension (scripts/build.mjs):
 * loaded when the first client is made, which is when a view first lists the active account's items; without an
 * account (the welcome view) it is never loaded.
 */
const clientPart = lazyPart('client', () => require('../../api/client') as typeof Client);

/** What a command that needs an account says without one (a function: translated when shown). */
export function noAccountMessage(): string {
  return l10n.t(
    'No Video Platform account is set: add one with "Video Platform: Add Account" or run "Video Platform: Connect to Local Platform".',
  );
}

export interface ConnectionOptions {
  readonly store: AccountStore;
  readonly log: LogSink;
  /** Timeouts, retry and proxy from the settings, read for each new client. */
  readonly clientOptions?: () => Pick<ClientOptions, 'timeouts' | 'retry' | 'proxy' | 'noProxy'>;
  /** For a local-platform profile: makes sure its server runs, returning the profile with the current address. */
  readonly ensureLocal?: (profile: AccountProfile) => Promise<AccountProfile>;
}

/**
 * The active account and its client. Every switch (or edit of the active account) bumps `epoch`,
 * closes the old client and tells the listeners, which drop their caches; answers that still
 * arrive for the old account are recognised by their older epoch and ignored.
 */
export class Connection implements ClientSource {
  private epochValue = 0;
  private current: { epoch: number; client: Promise<PlatformClient> } | undefined;
  /** Clients of accounts other than the active one (documents tied to them), by account id. */
  private readonly others = new Map<string, Promise<PlatformClient>>();
  private readonly changedEmitter = new Emitter();

  constructor(private readonly options: ConnectionOptions) {}

  get epoch(): number {
    return this.epochValue;
  }
  get hasAccount(): boolean {
    return this.options.store.activeId() !== undefined;
  }
  get accountId(): string | undefined {
    return this.options.store.activeId();
  }
  get activeAccount(): AccountProfile | undefined {
    return this.options.store.active();
  }

  readonly onDidChange = this.changedEmitter.event;

  activeClient(): Promise<PlatformClient> {
    if (this.current?.epoch === this.epochValue) return this.current.client;
    const epoch = this.epochValue;
    const client = this.createClient();
    this.current = { epoch, client };
    // A failed creation (missing secret, local platform not starting) is retried on the next call.
    client.catch(() => {
      if (this.current?.client === client) this.current = undefined;
    });
    return client;
  }

  /**
   * The client of one account, active or not: a document tied to an account is checked against and sent to
   * it whichever account is active.
   */
  clientFor(accountId: string): Promise<PlatformClient> {
    if (accountId === this.accountId) return this.activeClient();
    const profile = this.options.store.get(accountId);
    if (!profile) return Promise.reject(new Error(l10n.t('The account no longer exists')));
    let client = this.others.get(accountId);
    if (!client) {
      const created = this.createClient(profile);
      this.others.set(accountId, created);
      created.catch(() => {
        if (this.others.get(accountId) === created) this.others.delete(accountId);
      });
      client = created;
    }
    return client;
  }

  /**
   * A client for fields not saved yet (Add or Edit Account checks them before saving), with the settings'
   * timeouts and proxy. The caller closes it.
   */
  trialClient(profile: AccountProfile, secretKey: string): PlatformClient {
    return this.makeClient(profile, secretKey);
  }

  /** Closes the client kept for a non-active account (after its profile was edited or removed). */
  forgetClient(accountId: string): void {
    const old = this.others.get(accountId);
    this.others.delete(accountId);
    if (old) void old.then((client) => client.close()).catch(() => undefined);
  }

  private async createClient(chosen?: AccountProfile): Promise<PlatformClient> {
    let profile = chosen ?? this.options.store.active();
    if (!profile) throw new Error(noAccountMessage());
    if (profile.origin === 'local' && this.options.ensureLocal) profile = await this.options.ensureLocal(profile);
    const secretKey = await this.options.store.secretKey(profile.id);
    if (!secretKey) {
      throw new Error(
        l10n.t(
          'The secret key of account "{0}" is not in this machine\'s secret storage: run "Video Platform: Edit Account" to enter it again.',
          profile.name,
        ),
      );
    }
    return this.makeClient(profile, secretKey);
  }

  private makeClient(profile: AccountProfile, secretKey: string): PlatformClient {
    const log = this.options.log;
    return new (clientPart().PlatformClient)({
      ...this.options.clientOptions?.(),
      // A platform on this machine (the local platform, npm start) is never reached through a proxy.
      ...(isLoopback(profile.baseUrl) ? { noProxy: '*' } : {}),
      baseUrl: profile.baseUrl,
      ...(profile.uploadBaseUrl ? { uploadBaseUrl: profile.uploadBaseUrl } : {}),
      accessKey: profile.accessKey,
      secretKey,
      onRequest: (entry: RequestLogEntry) => {
        const line = formatRequest(entry);
        if (entry.error !== undefined || (entry.code !== undefined && entry.code !== 0)) log.warn(line);
        else log.info(line);
      },
    });
  }

  /** Makes `id` the active account (undefined: none) and starts over. */
  async switchTo(id: string | undefined): Promise<void> {
    await this.options.store.setActive(id);
    this.restart();
  }

  /** Call after the active profile changed (edited, removed, local address moved). */
  restart(): void {
    this.epochValue++;
    const old = this.current;
    this.current = undefined;
    if (old) void old.client.then((client) => client.close()).catch(() => undefined);
    // The other accounts' clients are made again too: with the settings as they are now (proxy, timeouts), and
    // the newly active account's not twice.
    for (const id of [...this.others.keys()]) this.forgetClient(id);
    this.changedEmitter.fire();
  }

  async dispose(): Promise<void> {
    this.changedEmitter.dispose();
    const old = this.current;
    this.current = undefined;
    if (old) await old.client.then((client) => client.close()).catch(() => undefined);
    const others = [...this.others.values()];
    this.others.clear();
    await Promise.all(others.map((client) => client.then((c) => c.close()).catch(() => undefined)));
  }
}

/** Whether the address names this machine (localhost, 127.0.0.0/8, ::1). */
export function isLoopback(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}
