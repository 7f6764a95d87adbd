/** Sorted views are patched in place after small writes and always equal a fresh sort. */
import * as assert from 'node:assert/strict';
import type { VideoCategoryRec } from '../../../src/localPlatform/store/records';
import { compareId, compareText, sortedView } from '../../../src/localPlatform/store/sortCache';
import { AccountStore, Tx } from '../../../src/localPlatform/store/store';
import { removeDir, tempDir } from '../harness';

describe('local platform: sorted views', () => {
  let dir: string | undefined;
  let store: AccountStore | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
    await removeDir(dir);
    dir = undefined;
  });

  const byName = (a: VideoCategoryRec, b: VideoCategoryRec): number => compareText(a.name, b.name) || compareId(a, b);

  it('patches the order in place for small changes and matches a full sort every time', async () => {
    dir = await tempDir();
    const s = (store = await AccountStore.open(dir));
    const seed = new Tx();
    for (let i = 0; i < 500; i++) seed.put('videoCategories', { id: i, name: `name ${(i * 37) % 101}` });
    await s.commit(seed);
    const first = sortedView(s, 'videoCategories', 'name', byName);
    const names = first.lower('name', (r) => r.name);
    let next = 1000;
    for (let round = 0; round < 50; round++) {
      const tx = new Tx();
      tx.put('videoCategories', { id: next++, name: `New ${round}` });
      tx.put('videoCategories', { id: round * 7, name: `Renamed ${round % 9}` });
      tx.del('videoCategories', round * 5 + 1);
      await s.commit(tx);
      const view = sortedView(s, 'videoCategories', 'name', byName);
      assert.equal(view, first, 'the same view, patched');
      const fresh = [...s.values('videoCategories')].sort(byName);
      assert.deepEqual(
        view.rows.map((r) => r.id),
        fresh.map((r) => r.id),
        `round ${round}`,
      );
      assert.deepEqual(
        view.lower('name', (r) => r.name),
        fresh.map((r) => r.name.toLowerCase()),
      );
      assert.equal(
        view.lower('name', (r) => r.name),
        names,
        'the search column is patched too',
      );
    }
  });

  it('rebuilds when more changed than the log keeps', async () => {
    dir = await tempDir();
    store = await AccountStore.open(dir);
    await store.commit(new Tx().put('videoCategories', { id: 1, name: 'a' }));
    const first = sortedView(store, 'videoCategories', 'name', byName);
    for (let i = 0; i < 2500; i++) await store.commit(new Tx().put('videoCategories', { id: 10 + i, name: `n${i}` }));
    const view = sortedView(store, 'videoCategories', 'name', byName);
    assert.notEqual(view, first);
    assert.equal(view.rows.length, 2501);
  });
});
