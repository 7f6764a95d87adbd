import { ApiError } from '../../api/errors';
import type { LogSink } from '../log';
import { describeFailure, inBackground } from '../failures';

/** A view whose items may be moving between states (starting channel, transcoding video). */
export interface PollTarget {
  hasSettling(): boolean;
  /** One round; returns the failures (logged, polling goes on). */
  pollSettling(): Promise<unknown[]>;
  /**
   * Fires after the view loaded items (first page, Load more, a category opened): items found
   * settling then are followed even though nothing else changed.
   */
  onDidLoad?(listener: () => void): { dispose(): void };
}

export interface PollTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: PollTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * One polling round of a view: reads each id in turn. A refusal from the platform (the record is gone, say) ends
 * following that id (`stopFollowing`), since asking again would only repeat it; a network failure or a timeout is
 * tried again next round, so a busy moment loses nothing. Failures are returned, not thrown.
 */
export async function pollEach(
  ids: readonly string[],
  read: (id: string) => Promise<unknown>,
  stopFollowing: (id: string) => void,
): Promise<unknown[]> {
  const failures: unknown[] = [];
  for (const id of ids) {
    try {
      await read(id);
    } catch (error) {
      failures.push(error);
      if (error instanceof ApiError) stopFollowing(id);
    }
  }
  return failures;
}

/** Poll only while there is something settling and someone can see it. */
export function shouldPoll(state: { visible: boolean; settling: boolean; disposed: boolean }): boolean {
  return state.visible && state.settling && !state.disposed;
}

/**
 * Polls a view's settling items, one round at a time (never two rounds at once), only while the
 * view is visible. `kick()` after anything that may start settling (command result, view shown,
 * page loaded).
 */
export class Poller {
  private timer: unknown;
  private running = false;
  private disposed = false;
  private visible = true;
  private readonly loaded: { dispose(): void } | undefined;

  constructor(
    private readonly target: PollTarget,
    private readonly intervalMs: () => number,
    private readonly log: LogSink,
    private readonly timers: PollTimers = realTimers,
  ) {
    this.loaded = target.onDidLoad?.(() => this.kick());
  }

  get scheduled(): boolean {
    return this.timer !== undefined;
  }

  setVisible(visible: boolean): void {
    this.visible = visible;
    if (visible) this.kick();
    else this.cancel();
  }

  kick(): void {
    if (this.timer !== undefined || this.running) return;
    if (!shouldPoll({ visible: this.visible, settling: this.target.hasSettling(), disposed: this.disposed })) return;
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      inBackground(this.log, 'Polling', this.round());
    }, this.intervalMs());
  }

  /** Runs one round now (used by tests and by kick's timer). */
  async round(): Promise<void> {
    if (
      this.running ||
      !shouldPoll({ visible: this.visible, settling: this.target.hasSettling(), disposed: this.disposed })
    )
      return;
    this.running = true;
    try {
      const failures = await this.target.pollSettling();
      for (const failure of failures) this.log.warn(`Polling failed: ${describeFailure(failure)}`);
    } finally {
      this.running = false;
    }
    this.kick();
  }

  private cancel(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.disposed = true;
    this.loaded?.dispose();
    this.cancel();
  }
}
