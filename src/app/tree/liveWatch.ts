import type { Channel } from '../../api/types';
import { ChannelStatuses } from '../../api/types';
import type { PollTarget } from './poller';

/**
 * A started channel whose source may come and go: live (status 2) or pulling (3), with `streamStatus`
 * 1 (source present) or 2 (no source) (docs/platform/platform-facts.md). The platform can call back on a
 * status change, but an editor has no public address, so the view reads these channels again.
 */
export function isChannelLive(channel: Channel): boolean {
  return channel.status === ChannelStatuses.live || channel.status === ChannelStatuses.pulling;
}

/** What the watch needs of the Live channels view's model (src/app/tree/channelTree.ts). */
export interface WatchedChannels {
  /** Starting channels (status 5): read by id at the poll interval. */
  hasSettling(): boolean;
  pollSettling(): Promise<unknown[]>;
  onDidLoad(listener: () => void): { dispose(): void };
  loadedChannels(): Channel[];
  /** One list request per page that holds a matching channel. */
  rereadPages(match: (channel: Channel) => boolean): Promise<unknown[]>;
}

export interface LiveWatchSettings {
  /** `videoPlatform.pollIntervalSeconds`: starting channels. */
  pollIntervalMs(): number;
  /** `videoPlatform.liveRefreshSeconds`: live channels; 0 turns the live refresh off. */
  liveRefreshMs(): number;
}

/**
 * The Live channels view's poll target: starting channels as before (by id, every poll interval), and the
 * live ones every live refresh interval by reading again the pages that list them, so a source that
 * connects or drops, or a channel started or stopped elsewhere, shows without a Refresh. The Poller
 * (poller.ts) runs it only while the view is visible and something is starting or live.
 */
export class LiveWatch implements PollTarget {
  private lastLiveRead = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly channels: WatchedChannels,
    private readonly settings: LiveWatchSettings,
    private readonly now: () => number = Date.now,
  ) {}

  private watchesLive(): boolean {
    return this.settings.liveRefreshMs() > 0 && this.channels.loadedChannels().some(isChannelLive);
  }

  hasSettling(): boolean {
    return this.channels.hasSettling() || this.watchesLive();
  }

  /** The wait before the next round: the poll interval while a channel starts, else the live refresh. */
  intervalMs(): number {
    return this.channels.hasSettling() ? this.settings.pollIntervalMs() : this.settings.liveRefreshMs();
  }

  async pollSettling(): Promise<unknown[]> {
    const failures = this.channels.hasSettling() ? await this.channels.pollSettling() : [];
    // While a channel starts, rounds come at the (shorter) poll interval: live pages are read at their own.
    const due = this.now() - this.lastLiveRead >= this.settings.liveRefreshMs() * 0.9;
    if (this.watchesLive() && due) {
      this.lastLiveRead = this.now();
      failures.push(...(await this.channels.rereadPages(isChannelLive)));
    }
    return failures;
  }

  onDidLoad(listener: () => void): { dispose(): void } {
    return this.channels.onDidLoad(listener);
  }
}
