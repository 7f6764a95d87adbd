/**
 * The pictures in the tree's tooltips. The workbench shows only `https:` and `data:` images in a hover, and
 * platforms serve covers and thumbnails over `http:` too, so the picture is downloaded here (through the
 * proxy-aware fetch the inspection uses: VS Code's proxy settings), bounded in size and time, and embedded as a
 * `data:` address; when that fails the tooltip has no picture rather than a broken one.
 */
import { readAtMost } from '../util/readAtMost';
import type { NodeView } from './nodeView';

/** What the download needs: one GET whose body is read as a stream (ProxyFetch.get). */
export type StillGet = (
  url: string,
  signal: AbortSignal,
) => Promise<{
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  readonly body: AsyncIterable<Uint8Array> | null;
}>;

export interface StillLimits {
  /** Largest picture embedded (its base64 travels in the tooltip's Markdown). */
  readonly maxBytes: number;
  readonly timeoutMs: number;
  /** Pictures remembered (most recently used kept). */
  readonly entries: number;
  /** How long a picture (or a failure) is remembered: a live channel's thumbnail changes. */
  readonly ttlMs: number;
}

export const STILL_LIMITS: StillLimits = { maxBytes: 256 * 1024, timeoutMs: 5_000, entries: 32, ttlMs: 60_000 };

/** The picture types a hover shows; anything else (a page, an error text) is no picture. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

interface Entry {
  readonly at: number;
  readonly picture: Promise<string | undefined>;
}

export class Stills {
  /** Insertion order is use order: the first key is the least recently used. */
  private readonly cache = new Map<string, Entry>();

  constructor(
    private readonly get: StillGet,
    private readonly limits: StillLimits = STILL_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The picture at `url` as a `data:` address, or undefined (too large, not a picture, not answered in time). */
  dataUri(url: string): Promise<string | undefined> {
    const cached = this.cache.get(url);
    this.cache.delete(url);
    const entry =
      cached && this.now() - cached.at < this.limits.ttlMs ? cached : { at: this.now(), picture: this.download(url) };
    this.cache.set(url, entry);
    for (const key of this.cache.keys()) {
      if (this.cache.size <= this.limits.entries) break;
      this.cache.delete(key);
    }
    return entry.picture;
  }

  /** The view's tooltip with its still embedded at the end (240 pixels wide), or without one when it fails. */
  async tooltip(view: NodeView): Promise<string | undefined> {
    if (!view.still) return view.tooltip;
    const picture = await this.dataUri(view.still);
    if (!picture) return view.tooltip;
    return `${view.tooltip ?? ''}\n\n![still](${picture}|width=240)`;
  }

  private async download(url: string): Promise<string | undefined> {
    const signal = AbortSignal.timeout(this.limits.timeoutMs);
    try {
      const answer = await this.get(url, signal);
      const type = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      const length = Number(answer.headers.get('content-length') ?? 0);
      if (answer.status !== 200 || !IMAGE_TYPES.has(type) || length > this.limits.maxBytes || !answer.body)
        return undefined;
      const bytes = await readAtMost(answer.body, this.limits.maxBytes);
      return bytes?.length ? `data:${type};base64,${bytes.toString('base64')}` : undefined;
    } catch {
      // Unreachable, refused, too slow: the tooltip goes without its picture.
      return undefined;
    }
  }
}
