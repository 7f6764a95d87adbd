/**
 * A parent's cached children with their continuation: pages are fetched on demand ("Load more"),
 * kept until `reset()`, and an answer that arrives after a reset (refresh, filter change, account
 * switch) is dropped instead of mixing old items into the new list.
 */
export interface Page<T> {
  readonly items: readonly T[];
  /** Total number of matches when the operation tells it (channel list); otherwise undefined. */
  readonly total?: number;
  /**
   * False when items were filtered on our side after the platform counted them (the channels of
   * one category, "No category"): `total` still says when the pages end, but it is not how many
   * items the list will hold, so it is not shown.
   */
  readonly counted?: boolean;
  /**
   * How many records the platform returned for this page before they were filtered on our side
   * (default: `items.length`). The end of the list is judged by this: a page whose records were all
   * filtered out is not the last one.
   */
  readonly fetched?: number;
  /** The platform's order says nothing after this page fits (live only: sorted by status). */
  readonly last?: boolean;
}

export type PageFetcher<T> = (page: number, size: number) => Promise<Page<T>>;

/** Pages one `loadMore` reads at most while each of them was filtered out entirely. */
const MAX_EMPTY_PAGES = 5;

export class PagedList<T> {
  private loaded: T[] = [];
  private nextPage = 1;
  private finished = false;
  private total: number | undefined;
  private counted = true;
  /** Records the platform returned so far (before our own filtering). */
  private read = 0;
  private failure: unknown;
  private pending: Promise<void> | undefined;
  private generation = 0;
  /** The page (and its size) each loaded item came on, so that one item's page can be read again. */
  private pageOf = new Map<string, { readonly page: number; readonly size: number }>();

  constructor(
    private readonly fetch: PageFetcher<T>,
    private readonly pageSize: () => number,
    /** Identity of an item: a record that moved onto the next page (new records before it) is not listed twice. */
    private readonly keyOf: (item: T) => string,
  ) {}

  get items(): readonly T[] {
    return this.loaded;
  }
  /** True once the first page (or an error) has come back. */
  get started(): boolean {
    return this.nextPage > 1 || this.finished || this.failure !== undefined;
  }
  get hasMore(): boolean {
    return !this.finished;
  }
  get error(): unknown {
    return this.failure;
  }
  /** The page on its way, if any. */
  get loading(): Promise<void> | undefined {
    return this.pending;
  }
  /** How many items the whole list holds, when known. */
  get totalCount(): number | undefined {
    return this.counted ? this.total : undefined;
  }
  /**
   * For a list filtered on our side with a platform total: how many of the platform's records were
   * read so far, of how many. (Not how many items the list will hold: that is unknown.)
   */
  get searched(): { readonly read: number; readonly total: number } | undefined {
    return !this.counted && this.total !== undefined
      ? { read: Math.min(this.read, this.total), total: this.total }
      : undefined;
  }

  /** Loads the first page if nothing is loaded yet. */
  async ensureStarted(): Promise<void> {
    if (!this.started) await this.loadMore();
  }

  /** Fetches the next page; concurrent calls share one request. A failure is kept in `error`, not thrown. */
  loadMore(): Promise<void> {
    if (this.pending) return this.pending;
    if (this.finished) return Promise.resolve();
    const generation = this.generation;
    const size = Math.max(1, this.pageSize());
    this.failure = undefined;
    const run = (async () => {
      try {
        // A page whose records were all filtered out on our side shows nothing: read on (a few
        // pages at most per call) so that a click on "Load more" shows something when it can.
        for (let round = 0; round < MAX_EMPTY_PAGES; round++) {
          const page = this.nextPage;
          const result = await this.fetch(page, size);
          if (generation !== this.generation) return;
          const known = new Set(this.loaded.map(this.keyOf));
          const added = result.items.filter((item) => !known.has(this.keyOf(item)));
          this.loaded.push(...added);
          for (const item of added) this.pageOf.set(this.keyOf(item), { page, size });
          const fetched = result.fetched ?? result.items.length;
          this.nextPage = page + 1;
          this.read += fetched;
          this.total = result.total;
          this.counted = result.counted !== false;
          // With a total we know when we are done; without one a short page is the last.
          this.finished =
            result.last === true ||
            (result.total !== undefined ? page * size >= result.total || fetched === 0 : fetched < size);
          if (this.finished || added.length > 0 || fetched === 0) break;
        }
      } catch (error) {
        if (generation === this.generation) this.failure = error;
      } finally {
        if (generation === this.generation) this.pending = undefined;
      }
    })();
    this.pending = run;
    return run;
  }

  /** Forgets every page and any answer still on its way. */
  reset(): void {
    this.generation++;
    this.loaded = [];
    this.nextPage = 1;
    this.finished = false;
    this.total = undefined;
    this.counted = true;
    this.read = 0;
    this.failure = undefined;
    this.pending = undefined;
    this.pageOf = new Map();
  }

  /** The pages (number and size, as they were loaded) that hold the loaded items matching `match`. */
  pagesOf(match: (item: T) => boolean): { readonly page: number; readonly size: number }[] {
    const pages = new Map<number, { readonly page: number; readonly size: number }>();
    for (const item of this.loaded) {
      const at = match(item) ? this.pageOf.get(this.keyOf(item)) : undefined;
      if (at) pages.set(at.page, at);
    }
    return [...pages.values()].sort((a, b) => a.page - b.page);
  }

  /**
   * Reads one loaded page again and returns its items as they are now, without changing the list (the
   * caller replaces what changed). Undefined when the list was reset meanwhile. Failures are thrown.
   */
  async reread(at: { readonly page: number; readonly size: number }): Promise<readonly T[] | undefined> {
    const generation = this.generation;
    const result = await this.fetch(at.page, at.size);
    return generation === this.generation ? result.items : undefined;
  }

  /**
   * Puts a record first (one created a moment ago), whether or not pages were read: a page that lists
   * it later does not list it twice.
   */
  insertFirst(item: T): void {
    const key = this.keyOf(item);
    const before = this.loaded.length;
    this.loaded = [item, ...this.loaded.filter((candidate) => this.keyOf(candidate) !== key)];
    if (this.total !== undefined && this.loaded.length > before) this.total++;
  }

  /** Replaces an item in place (an updated record); returns whether it was found. */
  replace(match: (item: T) => boolean, next: T): boolean {
    const index = this.loaded.findIndex(match);
    if (index < 0) return false;
    this.loaded[index] = next;
    return true;
  }

  /** Removes items (deleted records) and keeps the total consistent. */
  remove(match: (item: T) => boolean): number {
    const before = this.loaded.length;
    this.loaded = this.loaded.filter((item) => !match(item));
    const removed = before - this.loaded.length;
    if (this.total !== undefined) this.total = Math.max(0, this.total - removed);
    this.read = Math.max(0, this.read - removed);
    return removed;
  }
}
