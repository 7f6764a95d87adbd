import { seenVideoCategories } from './videoCategories';
import type { ChannelSortKey, SortOrder, VideoSortKey, VideoStatus } from '../../api/types';
import type { ChannelFilter, VideoFilter } from '../tree/filters';
import { videoStatusText } from '../tree/videoPresentation';
import { l10n } from '../../l10n/l10n';
import type { PickItem } from '../ui';
import type { AppContext } from '../context';
import { askInteger, askText, answered } from '../ask/inputs';
import { formatCategory } from '../util/format';

type ChannelChoice = 'name' | 'all' | 'category' | 'live' | 'sort' | 'group';

const CHANNEL_SORTS: Array<{ sort: ChannelSortKey; order: SortOrder; label: () => string }> = [
  { sort: 'name', order: 'asc', label: () => l10n.t('Name, A to Z') },
  { sort: 'name', order: 'desc', label: () => l10n.t('Name, Z to A') },
  { sort: 'createTime', order: 'desc', label: () => l10n.t('Newest first') },
  { sort: 'createTime', order: 'asc', label: () => l10n.t('Oldest first') },
  { sort: 'status', order: 'desc', label: () => l10n.t('Status (live first)') },
  { sort: 'streamStatus', order: 'asc', label: () => l10n.t('Source present first') },
  { sort: 'type', order: 'asc', label: () => l10n.t('Category') },
];

/** What a filter menu needs of its view's model. */
interface FilteredModel<F> {
  readonly filter: F;
  readonly filterText: string;
  setFilter(filter: F): void;
  clearFilter(): void;
}

/**
 * The one flow of the Filter menus: the menu's rows plus "Clear filter", then the chosen row's questions.
 * `apply` returns the next filter, or undefined when the row changed something else (grouping).
 */
async function runFilterMenu<F, C extends string>(
  ctx: AppContext,
  model: FilteredModel<F>,
  title: string,
  rows: readonly PickItem<C>[],
  apply: (choice: C, current: F) => Promise<F | undefined>,
): Promise<F> {
  const current = model.filter;
  const choice = answered(
    await ctx.ui.pick<C | 'clear'>(
      [...rows, { label: l10n.t('$(clear-all) Clear filter'), description: l10n.t('and grouping'), value: 'clear' }],
      { title, placeHolder: model.filterText || l10n.t('No filter') },
    ),
  );
  if (choice === 'clear') {
    model.clearFilter();
    return model.filter;
  }
  const next = await apply(choice, current);
  if (next === undefined) return current;
  model.setFilter(next);
  return next;
}

/** The search text of a filter, checked (not empty, at most 200 characters). */
async function askKeyword(ctx: AppContext, title: string, prompt: string, value: string | undefined): Promise<string> {
  return answered(await askText(ctx.ui, { title, field: l10n.t('Search text'), prompt, value, maxLength: 200 }));
}

/** The chosen sort in the menu's words ("Name, Z to A"), or undefined when none is set. */
function sortText<K extends string>(
  sorts: ReadonlyArray<{ sort: K; order: SortOrder; label: () => string }>,
  sort: K | undefined,
  order: SortOrder,
): string | undefined {
  if (sort === undefined) return undefined;
  return sorts.find((entry) => entry.sort === sort && entry.order === order)?.label() ?? `${sort} ${order}`;
}

/** One of a list's sort orders. */
async function pickSort<K extends string>(
  ctx: AppContext,
  title: string,
  sorts: ReadonlyArray<{ sort: K; order: SortOrder; label: () => string }>,
  placeHolder: string,
): Promise<{ sort: K; order: SortOrder }> {
  return answered(
    await ctx.ui.pick(
      sorts.map((entry) => ({ label: entry.label(), description: `${entry.sort} ${entry.order}`, value: entry })),
      { title, placeHolder },
    ),
  );
}

/**
 * videoPlatform.filterChannels: search, category, live only, sort and grouping, sent as the list
 * operation's own parameters where it has them. Returns the filter now in force.
 */
export async function filterChannels(ctx: AppContext): Promise<ChannelFilter | undefined> {
  const title = l10n.t('Filter channels');
  const model = ctx.models.channels;
  const current = model.filter;
  const now = (text: string | undefined): string | undefined => (text ? l10n.t('now "{0}"', text) : undefined);
  const rows: PickItem<ChannelChoice>[] = [
    {
      label: l10n.t('$(search) Search by name...'),
      description: now((current.searchType ?? 'name') === 'name' ? current.keyword : undefined),
      value: 'name',
    },
    {
      label: l10n.t('$(search) Search by name or category...'),
      description: now(current.searchType === 'all' ? current.keyword : undefined),
      value: 'all',
    },
    { label: l10n.t('$(folder) Only one category...'), description: now(current.category?.name), value: 'category' },
    {
      label: current.liveOnly ? l10n.t('$(circle-outline) Show all channels') : l10n.t('$(broadcast) Live only'),
      description: current.liveOnly ? undefined : l10n.t('live, pulling or starting'),
      value: 'live',
    },
    {
      label: l10n.t('$(list-ordered) Sort...'),
      description: now(sortText(CHANNEL_SORTS, current.sort, current.order ?? 'asc')),
      value: 'sort',
    },
    {
      label: model.groupedByCategory
        ? l10n.t('$(list-flat) Show as one list')
        : l10n.t('$(list-tree) Group by category'),
      value: 'group',
    },
  ];
  return runFilterMenu(ctx, model, title, rows, async (choice, current): Promise<ChannelFilter | undefined> => {
    switch (choice) {
      case 'name':
      case 'all': {
        const keyword = await askKeyword(
          ctx,
          title,
          choice === 'name' ? l10n.t('Part of the channel name') : l10n.t('Part of the channel name or category'),
          current.keyword,
        );
        return { sort: current.sort, order: current.order, liveOnly: current.liveOnly, searchType: choice, keyword };
      }
      case 'category': {
        const client = await ctx.connection.activeClient();
        const categories = await client.liveChannelTypeList();
        if (categories.length === 0) {
          await ctx.ui.info(l10n.t('This account has no channel category yet.'));
          return undefined;
        }
        const category = answered(
          await ctx.ui.pick(
            categories.map((candidate) => ({ label: candidate.name, value: candidate })),
            { title, placeHolder: l10n.t('Show the channels of') },
          ),
        );
        return {
          sort: current.sort,
          order: current.order,
          liveOnly: current.liveOnly,
          category: { id: category.id, name: category.name },
        };
      }
      case 'live':
        return { ...current, liveOnly: current.liveOnly ? undefined : true };
      case 'sort':
        return { ...current, ...(await pickSort(ctx, title, CHANNEL_SORTS, l10n.t('Sort channels by'))) };
      case 'group':
        model.setGrouping(!model.groupedByCategory);
        return undefined;
    }
  });
}

/** videoPlatform.clearChannelFilter: no filter and no grouping. */
export function clearChannelFilter(ctx: AppContext): void {
  ctx.models.channels.clearFilter();
}

type VideoChoice = 'title' | 'tag' | 'all' | 'category' | 'status' | 'vr' | 'sort';

const VIDEO_SORTS: Array<{ sort: VideoSortKey; order: SortOrder; label: () => string }> = [
  { sort: 'uploadTime', order: 'desc', label: () => l10n.t('Newest first') },
  { sort: 'uploadTime', order: 'asc', label: () => l10n.t('Oldest first') },
  { sort: 'title', order: 'asc', label: () => l10n.t('Title, A to Z') },
  { sort: 'size', order: 'desc', label: () => l10n.t('Largest first') },
  { sort: 'status', order: 'asc', label: () => l10n.t('Status') },
  { sort: 'category', order: 'asc', label: () => l10n.t('Category') },
  { sort: 'tag', order: 'asc', label: () => l10n.t('Tags') },
];

/** The video filter menu's rows, with what is in force now. */
function videoFilterRows(current: VideoFilter): PickItem<VideoChoice>[] {
  const videoSort = sortText(VIDEO_SORTS, current.sort, current.order ?? 'desc');
  return [
    { label: l10n.t('$(search) Search titles...'), value: 'title' },
    { label: l10n.t('$(tag) Search tags...'), value: 'tag' },
    { label: l10n.t('$(search) Search titles and tags...'), value: 'all' },
    {
      label: l10n.t('$(folder) Only one category...'),
      description:
        current.categoryId !== undefined
          ? l10n.t('now {0}', current.categoryName ?? String(current.categoryId))
          : undefined,
      value: 'category',
    },
    {
      label: l10n.t('$(pulse) Only one status...'),
      description: current.status !== undefined ? l10n.t('now {0}', videoStatusText(current.status)) : undefined,
      value: 'status',
    },
    {
      label:
        current.videoType === 1 ? l10n.t('$(device-camera-video) Show normal videos') : l10n.t('$(eye) Show VR videos'),
      value: 'vr',
    },
    {
      label: l10n.t('$(list-ordered) Sort...'),
      description: videoSort === undefined ? undefined : l10n.t('now {0}', videoSort),
      value: 'sort',
    },
  ];
}

/** Only one video category: one seen in the list (the interface has no list of them), all, or an id typed. */
async function pickVideoCategory(ctx: AppContext, title: string, current: VideoFilter): Promise<VideoFilter> {
  const seen = seenVideoCategories(ctx);
  const items: PickItem<number | 'other' | 'all'>[] = [
    { label: l10n.t('$(clear-all) All categories'), value: 'all' },
    ...seen.map(({ id, name }) => ({
      label: name,
      description: l10n.t('id {0}', id),
      value: id,
    })),
    { label: l10n.t('$(edit) Enter a category id...'), value: 'other' },
  ];
  const picked = answered(await ctx.ui.pick(items, { title, placeHolder: l10n.t('Show the videos of') }));
  const categoryId =
    picked === 'other'
      ? answered(
          await askInteger(ctx.ui, {
            title,
            field: l10n.t('Category id'),
            prompt: l10n.t('Video category id'),
            min: 0,
            max: 2 ** 31 - 1,
          }),
        )
      : picked;
  // The name, for the view's description, when the category was picked by its name.
  const name = seen.find((category) => category.id === categoryId)?.name;
  const categoryName = name !== undefined && name !== formatCategory({ id: categoryId }) ? name : undefined;
  return {
    ...current,
    categoryId: categoryId === 'all' ? undefined : categoryId,
    categoryName: categoryId === 'all' ? undefined : categoryName,
  };
}

/** Only one video status, or all. */
async function pickVideoStatus(ctx: AppContext, title: string, current: VideoFilter): Promise<VideoFilter> {
  const statuses: VideoStatus[] = [0, 1, 2, 3, 4, 5, 6, 7];
  const picked = answered(
    await ctx.ui.pick<VideoStatus | 'all'>(
      [
        { label: l10n.t('$(clear-all) All statuses'), value: 'all' },
        ...statuses.map((status) => ({
          label: videoStatusText(status),
          description: l10n.t('status {0}', status),
          value: status,
        })),
      ],
      { title, placeHolder: l10n.t('Show the videos that are') },
    ),
  );
  return { ...current, status: picked === 'all' ? undefined : picked };
}

/** videoPlatform.filterVideos: search, category, status, VR and sort (queryVideo parameters). */
export async function filterVideos(ctx: AppContext): Promise<VideoFilter | undefined> {
  const title = l10n.t('Filter videos');
  const rows = videoFilterRows(ctx.models.videos.filter);
  return runFilterMenu(ctx, ctx.models.videos, title, rows, async (choice, current): Promise<VideoFilter> => {
    switch (choice) {
      case 'title':
      case 'tag':
      case 'all': {
        const keyword = await askKeyword(
          ctx,
          title,
          choice === 'tag' ? l10n.t('A tag') : l10n.t('Part of the title'),
          current.keyword,
        );
        return { ...current, searchType: choice, keyword };
      }
      case 'category':
        return pickVideoCategory(ctx, title, current);
      case 'status':
        return pickVideoStatus(ctx, title, current);
      case 'vr':
        return { ...current, videoType: current.videoType === 1 ? undefined : 1 };
      case 'sort':
        return { ...current, ...(await pickSort(ctx, title, VIDEO_SORTS, l10n.t('Sort videos by'))) };
    }
  });
}

/** videoPlatform.clearVideoFilter */
export function clearVideoFilter(ctx: AppContext): void {
  ctx.models.videos.clearFilter();
}
