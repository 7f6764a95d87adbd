/**
 * Videos by tag text, for queryVideo's tag search. A search matches when the keyword is part of a
 * video's tag text (lower-cased), so the index keys videos by their whole lower-cased tag text: an
 * account has far fewer distinct tag texts than videos, and a search tests each text once instead of
 * every video. Kept current from the store's change log on the first search after a write (rebuilt
 * when the log no longer reaches back far enough), like the sorted orders in ./sortCache.ts.
 */
import type { VideoRec } from './records';
import type { AccountStore, Change } from './store';

/**
 * The videos of each tag text in an array, in no order: a Set cost about 38 bytes a video against 8 (heap
 * snapshot, issue 29: 3.7 MiB for 100,000 tagged videos); a removal finds the video (indexOf) and moves the last
 * one into its place.
 */
class TagIndex {
  readonly byTag = new Map<string, VideoRec[]>();

  constructor(
    public version: number,
    videos: Iterable<VideoRec>,
  ) {
    for (const v of videos) this.add(v);
  }

  add(v: VideoRec): void {
    if (v.tag === null) return;
    const key = v.tag.toLowerCase();
    const videos = this.byTag.get(key);
    if (videos) videos.push(v);
    else this.byTag.set(key, [v]);
  }

  remove(v: VideoRec): void {
    if (v.tag === null) return;
    const key = v.tag.toLowerCase();
    const videos = this.byTag.get(key);
    if (!videos) return;
    const at = videos.indexOf(v);
    if (at < 0) return;
    const last = videos.pop() as VideoRec;
    if (at < videos.length) videos[at] = last;
    if (videos.length === 0) this.byTag.delete(key);
  }

  patch(changes: readonly Change[]): void {
    for (const change of changes) {
      if (change.old !== undefined) this.remove(change.old as VideoRec);
      if (change.now !== undefined) this.add(change.now as VideoRec);
    }
  }
}

/** The store's tag index (a member of the store: AccountStore.derived), replaced when rebuilt. */
const TAGS = Symbol('tag index');

function indexOf(store: AccountStore): TagIndex {
  const version = store.version('videos');
  const slot = store.derived(TAGS, () => ({ index: undefined as TagIndex | undefined }));
  let index = slot.index;
  if (index && index.version !== version) {
    const changes = store.changesSince('videos', index.version);
    if (changes) {
      index.patch(changes);
      index.version = version;
    } else {
      index = undefined;
    }
  }
  if (!index) {
    index = new TagIndex(version, store.values('videos'));
    slot.index = index;
  }
  return index;
}

/**
 * The videos whose lower-cased tag text contains `keyword` (already lower-cased), in no particular
 * order; undefined when more than `limit` match (a scan of a sorted order is then as quick).
 */
export function videosTagged(store: AccountStore, keyword: string, limit: number): VideoRec[] | undefined {
  const found: VideoRec[] = [];
  for (const [tag, videos] of indexOf(store).byTag) {
    if (!tag.includes(keyword)) continue;
    if (found.length + videos.length > limit) return undefined;
    for (const v of videos) found.push(v);
  }
  return found;
}
