import assert from 'node:assert/strict';
import { FetchTracker } from '../../src/app/tree/fetchTracker';

/** A fetch VS Code is waiting for, answered when the test says. */
function deferred<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: unknown): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('FetchTracker (a reveal waits until VS Code has fetched the refreshed tree)', () => {
  it('is done at once when VS Code fetched the root after the latest change', async () => {
    const tracker = new FetchTracker<object>();
    await tracker.track(undefined, Promise.resolve([]));
    assert.equal(tracker.rootFetched, true);
    assert.equal(await tracker.whenFetched(undefined, 1_000), true);
  });

  it('waits after a change until a root fetch started after it has answered', async () => {
    const tracker = new FetchTracker<object>();
    const before = deferred<string[]>();
    const askedBefore = tracker.track(undefined, before.promise); // asked before the change (the old list)
    tracker.rootChanged(); // the channel created: the tree refreshed
    let done: boolean | undefined;
    const waiting = tracker.whenFetched(undefined, 5_000).then((value) => (done = value));
    before.resolve(['old']);
    await settle();
    assert.equal(done, undefined, 'an answer to a request made before the change does not count');
    const after = deferred<string[]>();
    const askedAfter = tracker.track(undefined, after.promise);
    await settle();
    assert.equal(done, undefined, 'still on its way');
    after.resolve(['new']);
    await waiting;
    assert.deepEqual(await askedBefore, ['old']);
    assert.deepEqual(await askedAfter, ['new']);
    assert.equal(done, true);
  });

  it('counts a failed fetch as answered (VS Code shows the error row)', async () => {
    const tracker = new FetchTracker<object>();
    tracker.rootChanged();
    const failing = deferred<string[]>();
    tracker.track(undefined, failing.promise).catch(() => undefined);
    const waiting = tracker.whenFetched(undefined, 5_000);
    failing.reject(new Error('refused'));
    assert.equal(await waiting, true);
  });

  it('also waits for a fetch of the parent that is on its way', async () => {
    const tracker = new FetchTracker<object>();
    const category = {};
    tracker.rootChanged();
    await tracker.track(undefined, Promise.resolve([category]));
    const children = deferred<string[]>();
    const asked = tracker.track(category, children.promise);
    let done: boolean | undefined;
    const waiting = tracker.whenFetched(category, 5_000).then((value) => (done = value));
    await settle();
    assert.equal(done, undefined);
    children.resolve(['channel']);
    await waiting;
    assert.deepEqual(await asked, ['channel']);
    assert.equal(done, true);
    // A parent VS Code is not fetching (collapsed): the reveal expands it itself, nothing to wait for.
    assert.equal(await tracker.whenFetched({}, 1_000), true);
  });

  it('gives up after the time limit when VS Code does not ask (the view is hidden)', async () => {
    const tracker = new FetchTracker<object>();
    tracker.rootChanged();
    assert.equal(await tracker.whenFetched(undefined, 30), false);
  });
});
