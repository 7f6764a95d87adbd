/**
 * The account's lists for reference checks and completion, fetched on first need and kept per
 * client (a new client means another account), until "Refresh Ids" clears them.
 */
import type { PlatformClient } from '../../api/client';
import { fetchReferenceList } from '../../authoring/referenceLists';
import type { ReferenceKind, ReferenceList, ReferenceLists } from '../../authoring/references';
import type { LogSink } from '../log';

export class ReferenceCache {
  private byClient = new WeakMap<PlatformClient, Map<ReferenceKind, Promise<ReferenceList>>>();

  constructor(
    private readonly activeClient: () => Promise<PlatformClient>,
    private readonly log: LogSink,
  ) {}

  /** The client of the active account, or undefined when none is set (checks are then skipped). */
  async client(): Promise<PlatformClient | undefined> {
    try {
      return await this.activeClient();
    } catch {
      return undefined;
    }
  }

  async list(kind: ReferenceKind): Promise<ReferenceList | undefined> {
    const client = await this.client();
    if (!client) return undefined;
    let lists = this.byClient.get(client);
    if (!lists) this.byClient.set(client, (lists = new Map()));
    let pending = lists.get(kind);
    if (!pending) {
      pending = fetchReferenceList(client, kind);
      lists.set(kind, pending);
      // A failed fetch is forgotten so the next need tries again.
      pending.catch((error: unknown) => {
        lists?.delete(kind);
        this.log.warn(
          `Could not fetch the ${kind} list for checks and completion: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
    }
    try {
      return await pending;
    } catch {
      return undefined;
    }
  }

  async lists(kinds: readonly ReferenceKind[]): Promise<ReferenceLists | undefined> {
    if (!(await this.client())) return undefined;
    const lists: ReferenceLists = {};
    for (const kind of kinds) {
      const list = await this.list(kind);
      if (list) lists[kind] = list;
    }
    return lists;
  }

  clear(): void {
    this.byClient = new WeakMap();
  }
}
