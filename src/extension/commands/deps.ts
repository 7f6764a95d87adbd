import type { PlatformClient } from '../../api/client';
import type { AccountStore } from '../accounts/accountStore';
import type { LogSink } from '../log';
import type { ExtensionServices } from '../services';
import type { ChannelTreeModel } from '../tree/channelTree';
import type { VideoTreeModel } from '../tree/videoTree';
import type { Ui } from '../ui';

/** The local platform inside the extension host (accounts/localPlatformHost.ts). */
export interface LocalPlatformPort {
  /** Starts it if needed and returns the id of its account. */
  connect(): Promise<{ accountId: string; baseUrl: string }>;
}

/** The connection as command flows see it (accounts/connection.ts). */
export interface ConnectionPort {
  readonly epoch: number;
  activeClient(): Promise<PlatformClient>;
  switchTo(id: string | undefined): Promise<void>;
  /** After the active profile was edited. */
  restart(): void;
}

/**
 * Everything a command flow uses. Flows take this instead of `vscode`, so tests run them with a
 * scripted Ui against the real local platform.
 */
export interface CommandDeps {
  readonly ui: Ui;
  readonly log: LogSink;
  readonly connection: ConnectionPort;
  readonly accounts: AccountStore;
  readonly localPlatform: LocalPlatformPort;
  readonly channels: ChannelTreeModel;
  readonly videos: VideoTreeModel;
  /** Start following settling items now (after a command changed states). */
  readonly poll: { channels(): void; videos(): void };
  readonly reveal: { channel(id: string): Promise<void>; video(id: string): Promise<void> };
  /** Records a palette pick lists before offering a search (targets.ts PICK_LIMIT when unset). */
  readonly pickLimit?: number;
}

const registry = new WeakMap<ExtensionServices, CommandDeps>();

/** runtime.ts attaches the flows' dependencies to the services object handed to every command. */
export function attachDeps(services: ExtensionServices, deps: CommandDeps): void {
  registry.set(services, deps);
}

export function depsOf(services: ExtensionServices): CommandDeps {
  const deps = registry.get(services);
  if (!deps) throw new Error('Video Platform commands are not ready yet: the extension did not finish activating.');
  return deps;
}
