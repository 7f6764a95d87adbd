import { join } from 'node:path';
import type { StateStore } from '../accounts/accountStore';
import type { LocalPlatformHost } from '../accounts/localPlatformHost';
import type { MediaToolsFinder } from './mediaTools';
import type { PanelPort } from './panels';
import type { ProxyFetch } from './proxyFetch';

const RECENT_KEY = 'videoPlatform.inspect.recentAddresses';
const RECENT_MAX = 10;

/** What the inspection, preview and player commands use besides the rest of the context. */
export class InspectionServices {
  /**
   * Live mode: how long each run watches a live playlist (s; undefined: the inspector's own rule, three target
   * durations and at least 10 s), and the pause between runs while the report panel is open (ms). Fields, not
   * constants, so the tests can shorten them.
   */
  readonly live: { watchSeconds: number | undefined; refreshMs: number; startWaitMs: number; startPollMs: number } = {
    watchSeconds: undefined,
    refreshMs: 10_000,
    // A running channel's playlists are waited for this long before inspecting (liveStart.ts), read this often.
    startWaitMs: 30_000,
    startPollMs: 1_000,
  };

  constructor(
    readonly tools: MediaToolsFinder,
    readonly fetch: ProxyFetch,
    readonly panels: PanelPort,
    private readonly state: StateStore,
    private readonly storageDir: string,
    private readonly localPlatform: LocalPlatformHost,
  ) {}

  /** Where preview files are made (the extension's storage: the preview webview may load from there only). */
  get previewDir(): string {
    return join(this.storageDir, 'previews');
  }

  /** Where the ladder lab keeps its built-in reference clip and writes renditions while it measures them. */
  get ladderDir(): string {
    return join(this.storageDir, 'ladder');
  }

  /** Addresses typed into Inspect Stream, newest first. */
  recentAddresses(): string[] {
    const stored = this.state.get<unknown>(RECENT_KEY);
    return Array.isArray(stored) ? stored.filter((entry): entry is string => typeof entry === 'string') : [];
  }

  async remember(address: string): Promise<void> {
    const next = [address, ...this.recentAddresses().filter((entry) => entry !== address)].slice(0, RECENT_MAX);
    await this.state.update(RECENT_KEY, next);
  }

  /**
   * The player page for an HLS address: served by the extension's own local platform (started on demand, also
   * while a real-platform account is active: the page only plays the address, it sends nothing to the platform).
   */
  async playerAddress(stream: string): Promise<string> {
    const profile = await this.localPlatform.ensure();
    return `${profile.baseUrl}/player?src=${encodeURIComponent(stream)}`;
  }
}
