/**
 * Videos: queryVideo, getTranscodedVideos (rest-interface 4.4), getVideoInfo, deleteVideo (facts
 * section 4). queryVideo's `start` is a 1-based page number, as on the channel list (facts section 3
 * leaves the choice to us).
 */
import { OPERATIONS } from '../../api/operations';
import { VIDEO_SORTS } from '../../api/operations/videos';
import { Codes } from '../../api/errorCodes';
import type { ActionHandler } from './context';
import { PlatformFault } from '../http/faults';
import type { VideoRec } from '../store/records';
import * as out from '../http/serialize';
import { compareId, compareText, pageAt, pageOf, sortedView, type SortedView } from '../store/sortCache';
import { Tx, type AccountStore } from '../store/store';
import { videosTagged } from '../store/videoIndex';

type VideoSort = (typeof VIDEO_SORTS)[number];

type Compare = (a: VideoRec, b: VideoRec) => number;

/** The orders that read nothing but the videos: made once, not per request. */
const PLAIN_ORDERS: Readonly<Record<Exclude<VideoSort, 'category'>, Compare>> = {
  title: (a, b) => compareText(a.title, b.title) || compareId(a, b),
  size: (a, b) => a.size - b.size || compareId(a, b),
  uploadTime: (a, b) => a.uploadTime - b.uploadTime || compareId(a, b),
  status: (a, b) => a.status - b.status || a.uploadTime - b.uploadTime || compareId(a, b),
  tag: (a, b) => compareText(a.tag, b.tag) || compareId(a, b),
};

function comparator(store: AccountStore, sort: VideoSort): Compare {
  if (sort !== 'category') return PLAIN_ORDERS[sort];
  const name = (v: VideoRec): string | null => store.get('videoCategories', v.categoryId)?.name ?? null;
  return (a, b) => compareText(name(a), name(b)) || compareId(a, b);
}

interface VideoFilter {
  videoType: number;
  categoryId: number | undefined;
  status: number | undefined;
}

function passes(v: VideoRec, f: VideoFilter): boolean {
  return (
    v.videoType === f.videoType &&
    (f.categoryId === undefined || v.categoryId === f.categoryId) &&
    (f.status === undefined || v.status === f.status)
  );
}

/** Which rows of the order a query keeps: made only when its matches are not kept already (sortCache.ts). */
function keeper(
  view: SortedView<VideoRec>,
  filter: VideoFilter,
  searchType: string | undefined,
  keyword: string | undefined,
): (v: VideoRec, i: number) => boolean {
  if (keyword === undefined) return (v) => passes(v, filter);
  const word = keyword;
  const titles = searchType !== 'tag' ? view.lower('title', (v) => v.title) : [];
  const tags = searchType !== 'title' ? view.lower('tag', (v) => v.tag) : [];
  const byTitle = (i: number): boolean => titles[i]!.includes(word);
  const byTag = (i: number): boolean => tags[i]?.includes(word) ?? false;
  const matches =
    searchType === 'title' ? byTitle : searchType === 'tag' ? byTag : (i: number) => byTitle(i) || byTag(i);
  // The search reads the compact lower-cased arrays first, so a rare keyword touches few records.
  return (v, i) => matches(i) && passes(v, filter);
}

export const queryVideo: ActionHandler = (ctx) => {
  const p = ctx.params;
  const specs = OPERATIONS.queryVideo.params;
  const start = p.param(specs, 'start');
  const number = p.param(specs, 'number');
  const sort = p.param(specs, 'sort');
  const order = p.param(specs, 'order');
  const searchType = p.param(specs, 'searchType');
  let keyword: string | undefined;
  if (searchType) {
    if (!p.has('keyword'))
      throw new PlatformFault(Codes.parameterMissing, 'keyword is required when searchType is given');
    keyword = p.str('keyword', true, specs.keyword.maxLength).toLowerCase();
  }
  // Category ids start at 1: 0 (what clients with integer fields send for none) means all categories.
  const categoryId = p.param(specs, 'categoryId') || undefined;
  const videoType = p.param(specs, 'videoType') ?? 0;
  const status = p.param(specs, 'status');

  // The category order also depends on the category names.
  const view = sortedView(
    ctx.account.store,
    'videos',
    sort,
    comparator(ctx.account.store, sort),
    ctx.account.store.version('videoCategories'),
  );
  const filter: VideoFilter = { videoType, categoryId, status };
  // A rare tag: sort the few videos carrying it instead of scanning the whole order.
  const tagged = searchType === 'tag' ? videosTagged(ctx.account.store, keyword!, view.rows.length >> 4) : undefined;
  // Otherwise the filter's matches, kept beside the order while it stays the same, so a deep page is read directly.
  const key = `${videoType} ${categoryId} ${status} ${searchType} ${keyword}`;
  const page = tagged
    ? pageOf(
        tagged.sort(comparator(ctx.account.store, sort)),
        order === 'desc',
        (v) => passes(v, filter),
        start,
        number,
      )
    : pageAt(
        view.rows,
        view.matched(key) ?? view.matching(key, keeper(view, filter, searchType, keyword)),
        order === 'desc',
        start,
        number,
      );
  return { result: out.videoList(ctx.view, page) };
};

export const getTranscodedVideos: ActionHandler = (ctx) => {
  const ids = ctx.params.param(OPERATIONS.getTranscodedVideos.params, 'ids');
  const { store } = ctx.account;
  return { result: ids.map((id) => out.playback(ctx.view, id, store.get('videos', id))) };
};

/** `listed`: the id came from a comma-separated list parameter. */
export function findVideo(store: AccountStore, id: string, field: string, listed = false): VideoRec {
  const v = store.get('videos', id);
  if (!v) {
    const where = listed ? `${field} lists ${id}, which` : `${field} ${id}`;
    throw new PlatformFault(Codes.videoNotExists, `${where} is not a video of this account`);
  }
  return v;
}

export const getVideoInfo: ActionHandler = (ctx) => {
  const id = ctx.params.param(OPERATIONS.getVideoInfo.params, 'videoId');
  return { result: out.video(ctx.view, findVideo(ctx.account.store, id, 'videoId')) };
};

/** deleteVideo: all or nothing; a transcoding in flight for a deleted video is dropped. */
export const deleteVideo: ActionHandler = async (ctx) => {
  const { store, transcoder } = ctx.account;
  const ids = ctx.params.param(OPERATIONS.deleteVideo.params, 'videoIds');
  const tx = new Tx();
  for (const id of ids) {
    findVideo(store, id, 'videoIds', true);
    tx.del('videos', id);
    for (const job of store.values('jobs')) if (job.videoId === id) tx.del('jobs', job.id);
  }
  await store.commit(tx);
  transcoder.videosDeleted(ids);
  return { result: null };
};

/** This module's operations by action name, collected in ../handlers.ts. */
export const handlers = { queryVideo, getTranscodedVideos, getVideoInfo, deleteVideo };
