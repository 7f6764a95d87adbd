/**
 * Sorted orders of a collection, rebuilt only when the collection changed. List queries then filter
 * a ready order and stop once the page is full, which keeps pages fast on 100,000 records.
 */
import type { CollectionName, RecordOf } from './records';
import type { AccountStore } from './store';

interface Entry {
  version: number;
  rows: unknown[];
}

const caches = new WeakMap<AccountStore, Map<string, Entry>>();

export function sortedRows<C extends CollectionName>(
  store: AccountStore,
  c: C,
  key: string,
  compare: (a: RecordOf<C>, b: RecordOf<C>) => number,
): readonly RecordOf<C>[] {
  let perStore = caches.get(store);
  if (!perStore) {
    perStore = new Map();
    caches.set(store, perStore);
  }
  const cacheKey = `${c}:${key}`;
  const version = store.version(c);
  const hit = perStore.get(cacheKey);
  if (hit && hit.version === version) return hit.rows as RecordOf<C>[];
  const rows = [...store.values(c)].sort(compare);
  perStore.set(cacheKey, { version, rows });
  return rows;
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
export function pageOf<T>(rows: readonly T[], desc: boolean, keep: (row: T) => boolean, start: number, number: number): T[] {
  const skip = (start - 1) * number;
  const page: T[] = [];
  let seen = 0;
  const n = rows.length;
  for (let k = 0; k < n && page.length < number; k++) {
    const row = rows[desc ? n - 1 - k : k];
    if (!keep(row)) continue;
    if (seen++ >= skip) page.push(row);
  }
  return page;
}
