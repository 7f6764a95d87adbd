/**
 * What VS Code has fetched of a tree since it last changed. `TreeView.reveal` of an element that VS Code's
 * side of the tree does not hold yet does nothing at all: it looks the element up among the children it
 * has fetched, and after a refresh those arrive only when VS Code asks for them again. So a reveal right
 * after a refresh (a channel just created from a document, a video just made by a transcode) first waits
 * here until VS Code has the refreshed children.
 */
export class FetchTracker<N extends object> {
  /** Root changes so far (the whole tree redrawn: refresh, filter, account switch, Load more). */
  private changes = 0;
  /** The change count at which the latest completed root fetch had started. */
  private rootFetchedAt = -1;
  private readonly inFlight = new Map<N | undefined, Set<Promise<unknown>>>();
  private waiters: Array<() => void> = [];

  /** Called before VS Code is told that the whole tree changed. */
  rootChanged(): void {
    this.changes++;
  }

  /** Wraps one getChildren call made by VS Code; returns the same answer. */
  track<T>(node: N | undefined, fetch: Promise<T>): Promise<T> {
    const startedAt = this.changes;
    let set = this.inFlight.get(node);
    if (!set) this.inFlight.set(node, (set = new Set()));
    set.add(fetch);
    const settle = (): void => {
      set.delete(fetch);
      if (set.size === 0 && this.inFlight.get(node) === set) this.inFlight.delete(node);
      if (node === undefined && startedAt > this.rootFetchedAt) this.rootFetchedAt = startedAt;
      const waiters = this.waiters;
      this.waiters = [];
      for (const wake of waiters) wake();
    };
    fetch.then(settle, settle);
    return fetch;
  }

  /** True when VS Code has received the root's children as they are since the latest change. */
  get rootFetched(): boolean {
    return this.rootFetchedAt >= this.changes;
  }

  /**
   * Resolves true once VS Code has fetched the root since the latest change and no fetch of `parent`
   * is on its way (a collapsed parent is fetched by the reveal itself), or false after `timeoutMs`.
   */
  async whenFetched(parent: N | undefined, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    const done = (): boolean => this.rootFetched && (parent === undefined || !this.inFlight.has(parent));
    while (!done()) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return true;
  }
}
