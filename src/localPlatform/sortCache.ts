/**
 * Sorted orders of a collection, rebuilt only when the collection changed. List queries then filter
 * a ready order and stop once the page is full, which keeps pages fast on 100,000 records. Searches
 * read lower-cased copies of the searched text, made once per order and kept beside it.
 */
import type { CollectionName, RecordOf } from './records';
import type { AccountStore } from './store';

export class SortedView<T> {
  private readonly lowered = new Map<string, Array<string | null>>();

  constructor(readonly rows: readonly T[]) {}

  /** The lower-cased text of one field for every row, in this order. */
  lower(field: string, read: (row: T) => string | null): Array<string | null> {
    let list = this.lowered.get(field);
    if (!list) {
      list = this.rows.map((row) => read(row)?.toLowerCase() ?? null);
      this.lowered.set(field, list);
    }
    return list;
  }
}

interface Entry {
  version: number;
  view: SortedView<unknown>;
}

const caches = new WeakMap<AccountStore, Map<string, Entry>>();

export function sortedView<C extends CollectionName>(
  store: AccountStore,
  c: C,
  key: string,
  compare: (a: RecordOf<C>, b: RecordOf<C>) => number,
): SortedView<RecordOf<C>> {
  let perStore = caches.get(store);
  if (!perStore) {
    perStore = new Map();
    caches.set(store, perStore);
  }
  const cacheKey = `${c}:${key}`;
  const version = store.version(c);
  const hit = perStore.get(cacheKey);
  if (hit && hit.version === version) return hit.view as SortedView<RecordOf<C>>;
  const view = new SortedView([...store.values(c)].sort(compare));
  perStore.set(cacheKey, { version, view: view as SortedView<unknown> });
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
export function pageOf<T>(rows: readonly T[], desc: boolean, keep: (row: T, index: number) => boolean, start: number, number: number): T[] {
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

/** How many rows match `keep`. */
export function countOf<T>(rows: readonly T[], keep: (row: T, index: number) => boolean): number {
  let count = 0;
  for (let k = 0; k < rows.length; k++) if (keep(rows[k], k)) count++;
  return count;
}
