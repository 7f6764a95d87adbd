/**
 * One account's data in memory, backed by its journal. Handlers read the maps directly and change
 * them only through `commit`, which applies the change at once (synchronously, so writes of one
 * account are serialised by the event loop) and resolves when it is durable.
 */
import { Journal, type Damage, type Mutation } from './journal';
import { COLLECTION_NAMES, type CollectionName, type Collections, type RecordOf } from './records';
import { SharedTexts } from './shared';
import { storageFault } from './storageErrors';

/** Journal size after which the store writes a snapshot and drops the journal. */
const DEFAULT_COMPACT_BYTES = 16 * 1024 * 1024;

export interface StoreOptions {
  compactBytes?: number;
  /** Told about records that could not be read (damaged files); default: one line on stderr. */
  onDamage?: (message: string) => void;
  /**
   * Once loaded, the records of older versions in today's shape (fields they lack), or nothing to change. They
   * replace the loaded ones unjournaled (no client changed anything) and a snapshot is written at once, so an
   * upgrade runs on one start only (or again on the next, if that snapshot could not be written).
   */
  upgrade?: (store: AccountStore) => Tx | undefined;
}

/** The sentence that says what was lost, naming the file and where its copy was kept. */
export function damageReport(damage: Damage): string {
  const n = damage.lines.length;
  return (
    `local platform: ${damage.file}: ${n} damaged record${n === 1 ? '' : 's'} could not be read and ` +
    `${n === 1 ? 'was' : 'were'} left out (line${n === 1 ? '' : 's'} ${damage.lines.slice(0, 20).join(', ')}` +
    `${n > 20 ? ', ...' : ''}); every intact record was kept; the damaged file was copied to ${damage.keptAs}`
  );
}

/** A set of changes committed together (one journal line: all or nothing). */
export class Tx {
  readonly mutations: Mutation[] = [];

  put<C extends CollectionName>(c: C, record: RecordOf<C> & { id: string | number }): this {
    this.mutations.push({ c, id: String(record.id), v: record });
    return this;
  }

  del(c: CollectionName, id: string | number): this {
    this.mutations.push({ c, id: String(id), v: null });
    return this;
  }
}

/** One record replaced, added (`old` undefined) or deleted (`now` undefined). */
export interface Change {
  version: number;
  old: unknown;
  now: unknown;
}

const CHANGE_LOG_KEEP = 1000;

/** A record as it was and as it is after a committed write (`now` undefined: deleted). */
export interface CommittedChange {
  c: CollectionName;
  id: string;
  old: unknown;
  now: unknown;
}

/**
 * The map key of a stored record: its own id when that is the same text, so that the key is not a second copy of
 * it (a journal or snapshot line spells the id twice: 5 MiB with 100,000 videos).
 */
function keyOf(mutation: Mutation): string {
  const id = (mutation.v as { id?: unknown }).id;
  return id === mutation.id ? id : mutation.id;
}

export class AccountStore {
  readonly data: Collections;
  private seq = 0;
  private readonly versions = new Map<CollectionName, number>();
  /** Recent changes per collection (committed writes only), so sorted views can be patched, not rebuilt. */
  private readonly changeLog = new Map<CollectionName, Change[]>();
  private logging = false;
  private readonly compactBytes: number;
  private journal!: Journal;
  /** True when the account had no stored data when opened. */
  fresh = false;
  /**
   * What is derived from this store's records (sorted orders, the tag index, answer caches), each under
   * its maker's key: it lives and goes with the store, and no module keeps state of its own.
   */
  private readonly derivedData = new Map<symbol, unknown>();
  /** One copy of the texts records repeat (./shared.ts). */
  private readonly shared = new SharedTexts();
  /** Told of every write once it is on disk (the callbacks: callbacks/), in commit order. */
  private readonly committedListeners = new Set<(changes: CommittedChange[]) => void>();

  /** `listener` hears every committed write once it is durable (never one taken back); returns the unsubscribe. */
  onCommitted(listener: (changes: CommittedChange[]) => void): () => void {
    this.committedListeners.add(listener);
    return () => this.committedListeners.delete(listener);
  }

  /** The data derived under `key`, made on first use. */
  derived<T>(key: symbol, make: () => T): T {
    let value = this.derivedData.get(key) as T | undefined;
    if (value === undefined) {
      value = make();
      this.derivedData.set(key, value);
    }
    return value;
  }

  private constructor(options: StoreOptions) {
    this.compactBytes = options.compactBytes ?? DEFAULT_COMPACT_BYTES;
    this.data = {
      meta: new Map(),
      categories: new Map(),
      liveTemplates: new Map(),
      liveLogos: new Map(),
      channels: new Map(),
      logoGroups: new Map(),
      templateGroups: new Map(),
      videoCategories: new Map(),
      videos: new Map(),
      jobs: new Map(),
    };
  }

  static async open(dir: string, options: StoreOptions = {}): Promise<AccountStore> {
    const store = new AccountStore(options);
    const loaded = await Journal.open(dir, (mutation) => store.apply(mutation));
    store.journal = loaded.journal;
    store.seq = loaded.seq;
    store.fresh = loaded.fresh;
    const upgraded = options.upgrade?.(store);
    for (const mutation of upgraded?.mutations ?? []) store.apply(mutation);
    store.logging = true;
    if (loaded.damage.length > 0) {
      const report = options.onDamage ?? ((message: string) => console.error(message));
      for (const damage of loaded.damage) report(damageReport(damage));
      // Rewrite the intact records now, so the damaged lines are not met (and reported) again.
      await store.compact();
    } else if (upgraded && upgraded.mutations.length > 0) {
      // Not fatal: a snapshot that cannot be written (a full disk) leaves the upgrade to the next start.
      await store.compact().catch(() => undefined);
    } else if (store.journal.journalBytes > 0) {
      void store.compact().catch(() => undefined);
    }
    return store;
  }

  get<C extends CollectionName>(c: C, id: string | number): RecordOf<C> | undefined {
    return (this.data[c] as Map<string, RecordOf<C>>).get(String(id));
  }

  values<C extends CollectionName>(c: C): IterableIterator<RecordOf<C>> {
    return (this.data[c] as Map<string, RecordOf<C>>).values();
  }

  size(c: CollectionName): number {
    return this.data[c].size;
  }

  /** Changes whenever the collection changes: lets query caches know when to rebuild. */
  version(c: CollectionName): number {
    return this.versions.get(c) ?? 0;
  }

  /**
   * The changes to a collection after `version`, oldest first; undefined when the log no longer
   * reaches back that far (the caller then starts over).
   */
  changesSince(c: CollectionName, version: number): readonly Change[] | undefined {
    if (this.version(c) === version) return [];
    const log = this.changeLog.get(c);
    if (!log || log.length === 0 || log[0].version > version + 1) return undefined;
    return log.filter((change) => change.version > version);
  }

  /**
   * Applies the changes now and resolves once they are on disk. When they cannot be written (a full
   * disk), they are taken back out of memory and the promise rejects with a PlatformFault saying why.
   */
  commit(tx: Tx): Promise<void> {
    if (tx.mutations.length === 0) return this.durable();
    this.seq++;
    const before = tx.mutations.map((m) => (this.data[m.c] as Map<string, unknown> | undefined)?.get(m.id));
    for (const mutation of tx.mutations) this.apply(mutation);
    const undo = (): void => {
      for (let i = tx.mutations.length - 1; i >= 0; i--) {
        const { c, id } = tx.mutations[i];
        this.apply({ c, id, v: before[i] ?? null });
      }
    };
    const written = this.journal.append(this.seq, tx.mutations, undo).catch((error: unknown) => {
      throw storageFault(error);
    });
    if (this.committedListeners.size > 0) {
      const changes = tx.mutations.map((m, i) => ({ c: m.c, id: m.id, old: before[i], now: m.v ?? undefined }));
      written.then(
        () => {
          // A listener's failure is its own: the write is done and answered either way.
          for (const listener of this.committedListeners) {
            try {
              listener(changes);
            } catch (error) {
              console.error(`local platform: ${error instanceof Error ? error.message : String(error)}`);
            }
          }
        },
        () => undefined,
      );
    }
    if (this.journal.journalBytes > this.compactBytes && !this.journal.compacting) {
      void written.then(() => this.compact()).catch(() => undefined);
    }
    return written;
  }

  /** Loads records without journaling them (bulk seeding); call `compact()` afterwards to persist. */
  seed(tx: Tx): void {
    this.seq++;
    this.logging = false;
    for (const mutation of tx.mutations) this.apply(mutation);
    this.changeLog.clear();
    this.logging = true;
  }

  /** Resolves when every change applied so far is on disk (a read barrier before answering). */
  durable(): Promise<void> {
    return this.journal.flushed();
  }

  /** Writes a snapshot of everything and drops the journal files it covers. */
  compact(): Promise<void> {
    return this.journal.snapshot(() => {
      const records: Array<[CollectionName, string, unknown]> = [];
      for (const c of COLLECTION_NAMES) {
        for (const [id, v] of this.data[c] as Map<string, unknown>) records.push([c, id, v]);
      }
      return { seq: this.seq, records };
    });
  }

  async close(): Promise<void> {
    await this.journal.close();
  }

  private apply(mutation: Mutation): void {
    const map = this.data[mutation.c] as Map<string, unknown> | undefined;
    if (!map) return; // a collection from a newer format: ignore rather than fail
    const old = map.get(mutation.id);
    if (mutation.v === null || mutation.v === undefined) map.delete(mutation.id);
    else {
      this.shared.share(mutation.c, mutation.v);
      map.set(keyOf(mutation), mutation.v);
    }
    const version = (this.versions.get(mutation.c) ?? 0) + 1;
    this.versions.set(mutation.c, version);
    if (!this.logging) return;
    let log = this.changeLog.get(mutation.c);
    if (!log) this.changeLog.set(mutation.c, (log = []));
    log.push({ version, old, now: mutation.v ?? undefined });
    if (log.length > 2 * CHANGE_LOG_KEEP) log.splice(0, log.length - CHANGE_LOG_KEEP);
  }
}
