/**
 * The account's lists for reference checks, completion and hovers, fetched on first need and kept per
 * client (a new client means another account), until "Refresh Ids" clears them. A document tied to an
 * account (src/app/accounts/documentAccounts.ts) is checked against that account's lists: pass its URI.
 * Channels and videos, whose lists may be too long to fetch whole, are also looked up one id at a time:
 * the ids a document names, and the one under a hover.
 */
import type { PlatformClient } from '../../api/client';
import { Codes } from '../../api/errorCodes';
import { ApiError } from '../../api/errors';
import type { Lookup } from '../../authoring/hover';
import type * as ReferenceFetching from '../../authoring/referenceLists';
import { lazyPart } from '../lazyPart';
// Types only: the document's references (src/authoring/references.ts, with jsonc-parser) are read by
// ./documentLists.ts, which only the authoring features and commands load (not activation).
import type { NamedRef, ReferenceKind, ReferenceList, ReferenceLists } from '../../authoring/references';
import type { LogSink } from '../log';

/** The kinds whose fetched list may stop short, looked up by id instead. */
export const BY_ID = ['videos', 'channels'] as const;
export type ById = (typeof BY_ID)[number];
/** Channel and video ids as the platform gives them (docs/platform/platform-facts.md). */
export const PLATFORM_ID = /^[0-9a-f]{32}$/;

/** Fetching the lists: a part of its own in the extension (scripts/build.mjs), loaded on the first fetch. */
const fetching = lazyPart(
  'referenceLists',
  () => require('../../authoring/referenceLists') as typeof ReferenceFetching,
);

export class ReferenceCache {
  private byClient = new WeakMap<PlatformClient, Map<ReferenceKind, Promise<ReferenceList>>>();
  /** Per client, `videos:<id>` -> the record, null (the platform has none), undefined (could not tell). */
  private records = new WeakMap<PlatformClient, Map<string, Promise<NamedRef | null | undefined>>>();

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
      pending = (async () => fetching().fetchReferenceList(client, kind))();
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

  /** The record an id (or a name, for name-valued fields) stands for, for hovers. */
  async find(ref: ReferenceKind, id: string | number, byName = false, documentUri?: string): Promise<Lookup> {
    const list = await this.list(ref, documentUri);
    if (!list) return { record: undefined, known: false };
    const wanted = String(id).trim().toLowerCase();
    const record = list.items.find((item) =>
      byName ? item.name.toLowerCase() === wanted : String(item.id) === String(id),
    );
    if (record) return { record };
    if (list.complete || byName || !(BY_ID as readonly string[]).includes(ref))
      return { record: undefined, known: list.complete };
    if (!PLATFORM_ID.test(String(id))) return { record: undefined, known: true };
    const looked = await this.lookup(ref as ById, String(id), documentUri);
    return looked ? { record: looked } : { record: undefined, known: looked === null };
  }

  /** A channel or video by id: the record, null (the platform has none), undefined (could not tell). */
  async lookup(ref: ById, id: string, documentUri?: string): Promise<NamedRef | null | undefined> {
    const client = await this.client(documentUri);
    if (!client) return undefined;
    let records = this.records.get(client);
    if (!records) this.records.set(client, (records = new Map()));
    const key = `${ref}:${id}`;
    let pending = records.get(key);
    if (!pending) {
      pending = (
        ref === 'videos'
          ? client.getVideoInfo(id).then((video) => fetching().videoRef(video))
          : client.liveGetChannelById(id).then((channel) => fetching().channelRef(channel))
      ).catch((error: unknown) => {
        if (error instanceof ApiError && (error.code === Codes.videoNotExists || error.code === Codes.channelNotExists))
          return null;
        // Not cached: the next check asks again.
        records?.delete(key);
        this.log.warn(`Could not look up ${ref} ${id}: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      });
      records.set(key, pending);
    }
    return pending;
  }

  clear(): void {
    this.byClient = new WeakMap();
    this.records = new WeakMap();
  }
}
