import { seenVideoCategories } from './videoCategories';
import type { ChannelSortKey, SortOrder, VideoSortKey, VideoStatus } from '../../api/types';
import type { ChannelFilter, VideoFilter } from '../tree/filters';
import { videoStatusText } from '../tree/videoPresentation';
import type { PickItem } from '../ui';
import type { AppContext } from '../context';
import { askInteger, askText, answered } from './inputs';

type ChannelChoice = 'name' | 'all' | 'category' | 'sort' | 'group' | 'clear';

const CHANNEL_SORTS: Array<{ sort: ChannelSortKey; order: SortOrder; label: string }> = [
  { sort: 'name', order: 'asc', label: 'Name, A to Z' },
  { sort: 'name', order: 'desc', label: 'Name, Z to A' },
  { sort: 'createTime', order: 'desc', label: 'Newest first' },
  { sort: 'createTime', order: 'asc', label: 'Oldest first' },
  { sort: 'status', order: 'desc', label: 'Status (live first)' },
  { sort: 'streamStatus', order: 'asc', label: 'Source present first' },
  { sort: 'type', order: 'asc', label: 'Category' },
];

/**
 * videoPlatform.filterChannels: search, category, sort and grouping, all sent as the list
 * operation's own parameters. Returns the filter now in force.
 */
export async function filterChannels(ctx: AppContext): Promise<ChannelFilter | undefined> {
  const title = 'Filter channels';
  const current = ctx.models.channels.filter;
  const choice = answered(
    await ctx.ui.pick<ChannelChoice>(
      [
        {
          label: '$(search) Search by name...',
          description:
            (current.searchType ?? 'name') === 'name' && current.keyword ? `now "${current.keyword}"` : undefined,
          value: 'name',
        },
        {
          label: '$(search) Search by name or category...',
          description: current.searchType === 'all' && current.keyword ? `now "${current.keyword}"` : undefined,
          value: 'all',
        },
        {
          label: '$(folder) Only one category...',
          description: current.category ? `now "${current.category.name}"` : undefined,
          value: 'category',
        },
        { label: '$(list-ordered) Sort...', value: 'sort' },
        {
          label: ctx.models.channels.groupedByCategory
            ? '$(list-flat) Show as one list'
            : '$(list-tree) Group by category',
          value: 'group',
        },
        { label: '$(clear-all) Clear filter', value: 'clear' },
      ],
      { title, placeHolder: ctx.models.channels.filterText || 'No filter' },
    ),
  );
  let next: ChannelFilter = current;
  switch (choice) {
    case 'name':
    case 'all': {
      const keyword = answered(
        await askText(ctx.ui, {
          title,
          field: 'Search text',
          prompt: choice === 'name' ? 'Part of the channel name' : 'Part of the channel name or category',
          value: current.keyword,
          maxLength: 200,
        }),
      );
      next = { sort: current.sort, order: current.order, searchType: choice, keyword };
      break;
    }
    case 'category': {
      const client = await ctx.connection.activeClient();
      const categories = await client.liveChannelTypeList();
      if (categories.length === 0) {
        await ctx.ui.info('This account has no channel category yet.');
        return current;
      }
      const category = answered(
        await ctx.ui.pick(
          categories.map((candidate) => ({ label: candidate.name, value: candidate })),
          { title, placeHolder: 'Show the channels of' },
        ),
      );
      next = { sort: current.sort, order: current.order, category: { id: category.id, name: category.name } };
      break;
    }
    case 'sort': {
      const sort = answered(
        await ctx.ui.pick(
          CHANNEL_SORTS.map((entry) => ({
            label: entry.label,
            description: `${entry.sort} ${entry.order}`,
            value: entry,
          })),
          { title, placeHolder: 'Sort channels by' },
        ),
      );
      next = { ...current, sort: sort.sort, order: sort.order };
      break;
    }
    case 'group':
      ctx.models.channels.setGrouping(!ctx.models.channels.groupedByCategory);
      return current;
    case 'clear':
      next = {};
      break;
  }
  ctx.models.channels.setFilter(next);
  return next;
}

export function clearChannelFilter(ctx: AppContext): void {
  ctx.models.channels.setFilter({});
}

type VideoChoice = 'title' | 'tag' | 'all' | 'category' | 'status' | 'vr' | 'sort' | 'clear';

const VIDEO_SORTS: Array<{ sort: VideoSortKey; order: SortOrder; label: string }> = [
  { sort: 'uploadTime', order: 'desc', label: 'Newest first' },
  { sort: 'uploadTime', order: 'asc', label: 'Oldest first' },
  { sort: 'title', order: 'asc', label: 'Title, A to Z' },
  { sort: 'size', order: 'desc', label: 'Largest first' },
  { sort: 'status', order: 'asc', label: 'Status' },
  { sort: 'category', order: 'asc', label: 'Category' },
  { sort: 'tag', order: 'asc', label: 'Tags' },
];

/** videoPlatform.filterVideos: search, category, status and sort (queryVideo parameters). */
export async function filterVideos(ctx: AppContext): Promise<VideoFilter | undefined> {
  const title = 'Filter videos';
  const current = ctx.models.videos.filter;
  const choice = answered(
    await ctx.ui.pick<VideoChoice>(
      [
        { label: '$(search) Search titles...', value: 'title' },
        { label: '$(tag) Search tags...', value: 'tag' },
        { label: '$(search) Search titles and tags...', value: 'all' },
        {
          label: '$(folder) Only one category...',
          description: current.categoryId !== undefined ? `now ${current.categoryId}` : undefined,
          value: 'category',
        },
        {
          label: '$(pulse) Only one status...',
          description: current.status !== undefined ? `now ${videoStatusText(current.status)}` : undefined,
          value: 'status',
        },
        {
          label: current.videoType === 1 ? '$(device-camera-video) Show normal videos' : '$(eye) Show VR videos',
          value: 'vr',
        },
        { label: '$(list-ordered) Sort...', value: 'sort' },
        { label: '$(clear-all) Clear filter', value: 'clear' },
      ],
      { title, placeHolder: ctx.models.videos.filterText || 'No filter' },
    ),
  );
  let next: VideoFilter = current;
  switch (choice) {
    case 'title':
    case 'tag':
    case 'all': {
      const keyword = answered(
        await askText(ctx.ui, {
          title,
          field: 'Search text',
          prompt: choice === 'tag' ? 'A tag' : 'Part of the title',
          value: current.keyword,
          maxLength: 200,
        }),
      );
      next = { ...current, searchType: choice, keyword };
      break;
    }
    case 'category': {
      // The interface has no video category list: offer the categories seen in the list, or an id.
      const items: PickItem<number | 'other' | 'all'>[] = [
        { label: '$(clear-all) All categories', value: 'all' },
        ...seenVideoCategories(ctx).map(({ id, name }) => ({ label: name, description: `id ${id}`, value: id })),
        { label: '$(edit) Enter a category id...', value: 'other' },
      ];
      const picked = answered(await ctx.ui.pick(items, { title, placeHolder: 'Show the videos of' }));
      const categoryId =
        picked === 'other'
          ? answered(
              await askInteger(ctx.ui, {
                title,
                field: 'Category id',
                prompt: 'Video category id',
                min: 0,
                max: 2 ** 31 - 1,
              }),
            )
          : picked;
      next = { ...current, categoryId: categoryId === 'all' ? undefined : categoryId };
      break;
    }
    case 'status': {
      const statuses: VideoStatus[] = [0, 1, 2, 3, 4, 5, 6, 7];
      const picked = answered(
        await ctx.ui.pick<VideoStatus | 'all'>(
          [
            { label: '$(clear-all) All statuses', value: 'all' },
            ...statuses.map((status) => ({
              label: videoStatusText(status),
              description: `status ${status}`,
              value: status,
            })),
          ],
          { title, placeHolder: 'Show the videos that are' },
        ),
      );
      next = { ...current, status: picked === 'all' ? undefined : picked };
      break;
    }
    case 'vr':
      next = { ...current, videoType: current.videoType === 1 ? undefined : 1 };
      break;
    case 'sort': {
      const sort = answered(
        await ctx.ui.pick(
          VIDEO_SORTS.map((entry) => ({
            label: entry.label,
            description: `${entry.sort} ${entry.order}`,
            value: entry,
          })),
          { title, placeHolder: 'Sort videos by' },
        ),
      );
      next = { ...current, sort: sort.sort, order: sort.order };
      break;
    }
    case 'clear':
      next = {};
      break;
  }
  ctx.models.videos.setFilter(next);
  return next;
}

export function clearVideoFilter(ctx: AppContext): void {
  ctx.models.videos.setFilter({});
}
