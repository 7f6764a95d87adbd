import type {
  ChannelListQuery,
  ChannelSortKey,
  SortOrder,
  VideoQuery,
  VideoSortKey,
  VideoStatus,
} from '../../api/types';
import { l10n } from '../../l10n/l10n';
import { videoStatusText } from './videoPresentation';
import { formatCount } from './filteredList';
import { formatCategory } from '../util/format';
import { MAX_SORTED_LIVE } from './liveRun';

/**
 * Filters go to the list operations' own parameters (searchType/keyword/sort/order, and for videos
 * categoryId/status); nothing is filtered on our side except the exact category match (see channelTree).
 */
export interface ChannelFilter {
  readonly searchType?: 'name' | 'type' | 'all';
  readonly keyword?: string;
  readonly sort?: ChannelSortKey;
  readonly order?: SortOrder;
  /** Show only this category (searchType `type` with its name, then an exact id match). */
  readonly category?: { readonly id: string; readonly name: string };
  /** Only running channels (live, pulling, starting); the platform has no status filter (see channelTree). */
  readonly liveOnly?: boolean;
}

export interface VideoFilter {
  readonly searchType?: 'title' | 'tag' | 'all';
  readonly keyword?: string;
  readonly sort?: VideoSortKey;
  readonly order?: SortOrder;
  readonly categoryId?: number;
  /** The category's name when it was picked by name (for the description; queryVideo takes the id). */
  readonly categoryName?: string;
  readonly status?: VideoStatus;
  /** queryVideo lists normal videos (0) unless VR (1) is asked for. */
  readonly videoType?: 0 | 1;
}

/** Channel list parameters for one page; a category restriction takes the search slot. */
export function channelQuery(
  filter: ChannelFilter,
  page: number,
  size: number,
  category?: { name: string },
): ChannelListQuery {
  const query: ChannelListQuery = { start: page, number: size };
  if (filter.liveOnly) {
    // Running channels (status 5, 3, 2) before stopped and new ones (1, 0).
    query.sort = 'status';
    query.order = 'desc';
  } else {
    if (filter.sort) query.sort = filter.sort;
    if (filter.order) query.order = filter.order;
  }
  const restrict = category ?? filter.category;
  if (restrict) {
    query.searchType = 'type';
    query.keyword = restrict.name;
  } else if (filter.keyword) {
    query.searchType = filter.searchType ?? 'name';
    query.keyword = filter.keyword;
  }
  return query;
}

/** queryVideo needs sort and order; newest first unless the filter says otherwise. */
export function videoQuery(filter: VideoFilter, page: number, size: number): VideoQuery {
  const query: VideoQuery = {
    start: page,
    number: size,
    sort: filter.sort ?? 'uploadTime',
    order: filter.order ?? 'desc',
  };
  if (filter.keyword) {
    query.searchType = filter.searchType ?? 'title';
    query.keyword = filter.keyword;
  }
  if (filter.categoryId !== undefined) query.categoryId = filter.categoryId;
  if (filter.status !== undefined) query.status = filter.status;
  if (filter.videoType !== undefined) query.videoType = filter.videoType;
  return query;
}

/**
 * The text for the view's `description`; empty when nothing is set. Live only keeps the chosen order
 * (src/app/tree/liveRun.ts) unless more channels run than are sorted there (`liveUnsorted`): the
 * description then says the list is in status order, and why.
 */
export function describeChannelFilter(
  filter: ChannelFilter,
  state: { liveUnsorted?: boolean; maxSortedLive?: number } = {},
): string {
  const parts: string[] = [];
  if (filter.liveOnly) parts.push(l10n.t('live only'));
  if (filter.category) parts.push(l10n.t('category: {0}', filter.category.name));
  else if (filter.keyword) parts.push(l10n.t('{0} ~ "{1}"', filter.searchType ?? 'name', filter.keyword));
  if (filter.liveOnly && state.liveUnsorted)
    parts.push(
      l10n.t(
        'by status (over {0} live channels, too many to sort)',
        formatCount(state.maxSortedLive ?? MAX_SORTED_LIVE),
      ),
    );
  else if (filter.sort) parts.push(l10n.t('by {0} {1}', filter.sort, filter.order ?? 'asc'));
  return parts.join(' · ');
}

export function describeVideoFilter(filter: VideoFilter): string {
  const parts: string[] = [];
  if (filter.keyword) parts.push(l10n.t('{0} ~ "{1}"', filter.searchType ?? 'title', filter.keyword));
  if (filter.categoryId !== undefined)
    parts.push(
      filter.categoryName
        ? l10n.t('category: {0}', formatCategory({ id: filter.categoryId, name: filter.categoryName }))
        : l10n.t('category {0}', filter.categoryId),
    );
  if (filter.status !== undefined) parts.push(videoStatusText(filter.status).toLowerCase());
  if (filter.videoType === 1) parts.push('VR');
  if (filter.sort) parts.push(l10n.t('by {0} {1}', filter.sort, filter.order ?? 'desc'));
  return parts.join(' · ');
}

/** Nothing leaves records out (a sort order alone does not: an empty list is then really empty). */
export function isEmptyFilter(filter: ChannelFilter | VideoFilter): boolean {
  return Object.entries(filter).every(
    ([key, value]) => key === 'sort' || key === 'order' || key === 'searchType' || value === undefined || value === '',
  );
}
