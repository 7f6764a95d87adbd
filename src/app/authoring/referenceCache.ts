/**
 * The account's lists for reference checks and completion, fetched on first need and kept per
 * client (a new client means another account), until "Refresh Ids" clears them. A document tied to an
 * account (src/app/accounts/documentAccounts.ts) is checked against that account's lists: pass its URI.
 */
import type { PlatformClient } from '../../api/client';
import { fetchReferenceList } from '../../authoring/referenceLists';
import type { ReferenceKind, ReferenceList, ReferenceLists } from '../../authoring/references';
import type { LogSink } from '../log';

export class ReferenceCache {
  private byClient = new WeakMap<PlatformClient, Map<ReferenceKind, Promise<ReferenceList>>>();

  constructor(
    /** The client of the document's account (`documentUri` given and tied to one), else of the active one. */
    private readonly clientOf: (documentUri?: string) => Promise<PlatformClient>,
    private readonly log: LogSink,
  ) {}

  /** The client of the document's (else the active) account, or undefined when none is set (checks are then skipped). */
  async client(documentUri?: string): Promise<PlatformClient | undefined> {
    try {
      return await this.clientOf(documentUri);
    } catch {
      return undefined;
    }
  }

  async list(kind: ReferenceKind, documentUri?: string): Promise<ReferenceList | undefined> {
    const client = await this.client(documentUri);
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

  async lists(kinds: readonly ReferenceKind[], documentUri?: string): Promise<ReferenceLists | undefined> {
    if (!(await this.client(documentUri))) return undefined;
    const lists: ReferenceLists = {};
    for (const kind of kinds) {
      const list = await this.list(kind, documentUri);
      if (list) lists[kind] = list;
    }
    return lists;
  }

  clear(): void {
    this.byClient = new WeakMap();
  }
}
