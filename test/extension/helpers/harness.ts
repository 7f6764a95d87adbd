import { AccountStore, type SecretStore, type StateStore } from '../../../src/extension/accounts/accountStore';
import { Connection } from '../../../src/extension/accounts/connection';
import { LocalPlatformHost } from '../../../src/extension/accounts/localPlatformHost';
import type { CommandDeps } from '../../../src/extension/commands/deps';
import type { LogSink } from '../../../src/extension/log';
import { ChannelTreeModel } from '../../../src/extension/tree/channelTree';
import { VideoTreeModel } from '../../../src/extension/tree/videoTree';
import { startLocalPlatform } from '../../../src/localPlatform/server';
import { ScriptedUi } from './scriptedUi';

export class MemoryState implements StateStore {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, JSON.parse(JSON.stringify(value)));
  }
}

export class MemorySecrets implements SecretStore {
  readonly values = new Map<string, string>();
  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }
}

export class MemoryLog implements LogSink {
  readonly lines: string[] = [];
  info(message: string): void {
    this.lines.push(`info ${message}`);
  }
  warn(message: string): void {
    this.lines.push(`warn ${message}`);
  }
  error(message: string): void {
    this.lines.push(`error ${message}`);
  }
  debug(message: string): void {
    this.lines.push(`debug ${message}`);
  }
  text(): string {
    return this.lines.join('\n');
  }
}

export interface Harness {
  readonly deps: CommandDeps;
  readonly ui: ScriptedUi;
  readonly log: MemoryLog;
  readonly state: MemoryState;
  readonly secrets: MemorySecrets;
  readonly store: AccountStore;
  readonly connection: Connection;
  readonly channels: ChannelTreeModel;
  readonly videos: VideoTreeModel;
  readonly host: LocalPlatformHost;
  readonly revealed: string[];
  readonly polled: { channels: number; videos: number };
  dispose(): Promise<void>;
}

export interface HarnessOptions {
  /** Adds and activates this account. */
  account?: { baseUrl: string; accessKey: string; secretKey: string; name?: string };
  pageSize?: number;
  /** Client timeouts (ms) for timeout tests; one attempt, no retries. */
  timeoutMs?: number;
  storageDir?: string;
  /** Records a palette pick lists before offering a search (default: the command's own). */
  pickLimit?: number;
}

/** The command flows' real dependencies (accounts, connection, tree models) with a scripted Ui. */
export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const ui = new ScriptedUi();
  const log = new MemoryLog();
  const state = new MemoryState();
  const secrets = new MemorySecrets();
  const store = new AccountStore(state, secrets);
  const host = new LocalPlatformHost(store, options.storageDir ?? '/nonexistent-storage', startLocalPlatform, log);
  const timeoutMs = options.timeoutMs;
  const connection = new Connection({
    store,
    log,
    clientOptions: () => ({
      retry: { attempts: 1 },
      ...(timeoutMs ? { timeouts: { connectMs: timeoutMs, headersMs: timeoutMs, bodyMs: timeoutMs } } : {}),
    }),
    ensureLocal: () => host.ensure(),
  });
  const pageSize = options.pageSize ?? 50;
  const channels = new ChannelTreeModel(connection, () => pageSize);
  const videos = new VideoTreeModel(connection, () => pageSize);
  connection.onDidChange(() => {
    channels.reset();
    videos.reset();
  });
  const revealed: string[] = [];
  const polled = { channels: 0, videos: 0 };
  const deps: CommandDeps = {
    ui,
    log,
    connection,
    accounts: store,
    localPlatform: host,
    channels,
    videos,
    poll: { channels: () => polled.channels++, videos: () => polled.videos++ },
    ...(options.pickLimit !== undefined ? { pickLimit: options.pickLimit } : {}),
    reveal: {
      channel: async (id) => {
        revealed.push(id);
        await channels.locateChannel(id);
      },
      video: async (id) => {
        revealed.push(id);
      },
    },
  };
  if (options.account) {
    const { secretKey, name, ...fields } = options.account;
    const profile = await store.add({ name: name ?? 'Test account', ...fields }, secretKey);
    await connection.switchTo(profile.id);
  }
  return {
    deps,
    ui,
    log,
    state,
    secrets,
    store,
    connection,
    channels,
    videos,
    host,
    revealed,
    polled,
    async dispose() {
      await connection.dispose();
      await host.dispose();
    },
  };
}
