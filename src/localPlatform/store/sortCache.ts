/**
 * Sorted orders of a collection, rebuilt only when the collection changed. List queries then filter
 * a ready order and stop once the page is full, which keeps pages fast on 100,000 records. Searches
 * read lower-cased copies of the searched text, made once per order and kept beside it.
 */
import type { CollectionName, RecordOf } from './records';
import type { AccountStore, Change } from './store';

/** Lists of matching positions kept per order (one per filter and search asked lately). */
const MAX_MATCH_LISTS = 16;

export class SortedView<T> {
  private readonly lowered = new Map<string, { read: (row: T) => string | null; list: Array<string | null> }>();
  /** Positions of the rows a filter keeps, by the filter's key; emptied when the order changes. */
  private readonly matches = new Map<string, Int32Array>();

  constructor(
    readonly rows: T[],
    private readonly compare: (a: T, b: T) => number,
  ) {}

  /** The lower-cased text of one field for every row, in this order. */
  lower(field: string, read: (row: T) => string | null): ReadonlyArray<string | null> {
    let entry = this.lowered.get(field);
    if (!entry) {
      entry = { read, list: this.rows.map((row) => read(row)?.toLowerCase() ?? null) };
      this.lowered.set(field, entry);
    }
    return entry.list;
  }

  /**
   * The positions (in this order) of the rows `keep` keeps, worked out once per `key` while the order
   * stays the same: paging through a filtered list then reads its page directly, however deep, and
   * the count is the list's length. `key` must name everything `keep` depends on besides the rows.
   */
  /** The positions kept for `key` (see matching), or undefined: no filter needs to be made for a kept one. */
  matched(key: string): Int32Array | undefined {
    const found = this.matches.get(key);
    if (found) {
      this.matches.delete(key);
      this.matches.set(key, found); // most recently used last
    }
    return found;
  }

  matching(key: string, keep: (row: T, index: number) => boolean): Int32Array {
    let found = this.matches.get(key);
    if (found) {
      this.matches.delete(key);
      this.matches.set(key, found); // most recently used last
      return found;
    }
    const positions = new Int32Array(this.rows.length);
    let n = 0;
    for (let i = 0; i < this.rows.length; i++) if (keep(this.rows[i], i)) positions[n++] = i;
    found = positions.slice(0, n);
    this.matches.set(key, found);
    if (this.matches.size > MAX_MATCH_LISTS) this.matches.delete(this.matches.keys().next().value!);
    return found;
  }

  /**
   * Applies recent changes in place (binary search, splice) instead of sorting everything again.
   * Returns false when the order does not hold a record it should, so the caller rebuilds.
   */
  patch(changes: readonly Change[]): boolean {
    this.matches.clear();
    for (const change of changes) {
      if (change.old !== undefined) {
        const old = change.old as T;
        const at = lowerBound(this.rows, old, this.compare);
        if (this.rows[at] !== old) return false;
        this.rows.splice(at, 1);
        for (const entry of this.lowered.values()) entry.list.splice(at, 1);
      }
      if (change.now !== undefined) {
        const now = change.now as T;
        const at = lowerBound(this.rows, now, this.compare);
        this.rows.splice(at, 0, now);
        for (const entry of this.lowered.values()) entry.list.splice(at, 0, entry.read(now)?.toLowerCase() ?? null);
      }
    }
    return true;
  }
}

function lowerBound<T>(rows: readonly T[], x: T, compare: (a: T, b: T) => number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(rows[mid], x) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Beyond this many changes a full sort is as cheap as patching. */
const MAX_PATCH = 2000;

interface Entry {
  version: number;
  /** Version of what else the order depends on (category names for the video category sort). */
  extra: number;
  view: SortedView<unknown>;
}

/** The store's sorted orders, by collection and key (a member of the store: AccountStore.derived). */
const SORTED = Symbol('sorted orders');

const newOrders = (): Map<CollectionName, Map<string, Entry>> => new Map();

/** The collection in the order of `compare` (which must be total: ids break ties). */
export function sortedView<C extends CollectionName>(
  store: AccountStore,
  c: C,
  key: string,
  compare: (a: RecordOf<C>, b: RecordOf<C>) => number,
  extra = 0,
): SortedView<RecordOf<C>> {
  // By collection, then key: both constant texts, so no key is joined (and hashed anew) per request.
  const perStore = store.derived(SORTED, newOrders);
  let orders = perStore.get(c);
  if (!orders) {
    orders = new Map<string, Entry>();
    perStore.set(c, orders);
  }
  const version = store.version(c);
  const hit = orders.get(key) as { version: number; extra: number; view: SortedView<RecordOf<C>> } | undefined;
  if (hit && hit.extra === extra) {
    if (hit.version === version) return hit.view;
    const changes = store.changesSince(c, hit.version);
    if (changes && changes.length <= MAX_PATCH && hit.view.patch(changes)) {
      hit.version = version;
      return hit.view;
    }
  }
  const view = new SortedView([...store.values(c)].sort(compare), compare);
  orders.set(key, { version, extra, view: view as SortedView<unknown> });
  return view;
}

/** Plain code-unit comparison of lower-cased text (fast and stable; nulls last). */
export function compareText(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

export function compareId(a: { id: string | number }, b: { id: string | number }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Page `start` (1-based) of `number` rows matching `keep`, reading a sorted order front or back. */
export function pageOf<T>(
  rows: readonly T[],
  desc: boolean,
  keep: (row: T, index: number) => boolean,
  start: number,
  number: number,
): T[] {
  const skip = (start - 1) * number;
  const page: T[] = [];
  let seen = 0;
  const n = rows.length;
  for (let k = 0; k < n && page.length < number; k++) {
    const index = desc ? n - 1 - k : k;
    const row = rows[index];
    if (!keep(row, index)) continue;
    if (seen++ >= skip) page.push(row);
  }
  return page;
}

/** Page `start` (1-based) of `number` rows of a list of positions, read front or back. */
export function pageAt<T>(
  rows: readonly T[],
  positions: ArrayLike<number>,
  desc: boolean,
  start: number,
  number: number,
): T[] {
  const page: T[] = [];
  const n = positions.length;
  for (let k = (start - 1) * number; k < n && page.length < number; k++)
    page.push(rows[positions[desc ? n - 1 - k : k]]);
  return page;
}

/** Page `start` (1-based) of `number` of all rows, read front or back. */
export function pageOfAll<T>(rows: readonly T[], desc: boolean, start: number, number: number): T[] {
  const page: T[] = [];
  const n = rows.length;
  for (let k = (start - 1) * number; k < n && page.length < number; k++) page.push(rows[desc ? n - 1 - k : k]);
  return page;
}
