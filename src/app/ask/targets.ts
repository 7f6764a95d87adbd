import type { Channel, ChannelSortKey, SortOrder, Video, VideoQuery } from '../../api/types';
import { step } from '../failures';
import { l10n } from '../../l10n/l10n';
import { formatCount } from '../tree/filteredList';
import { channelStateText } from '../tree/channelPresentation';
import { ChannelNode, VideoNode } from '../tree/nodes';
import { videoStatusText } from '../tree/videoPresentation';
import type { PickItem } from '../ui';
import type { AppContext, CommandArgs } from '../context';

/**
 * The items a command works on: the selection (which includes the clicked item) when there is one, else the
 * clicked item. From the palette there are none.
 */
export function selectedArgs(args: CommandArgs): unknown[] {
  if (args.selection && args.selection.length > 0) return [...args.selection];
  return args.node === undefined || args.node === null ? [] : [args.node];
}

function isChannelRecord(value: unknown): value is Channel {
  return (
    typeof value === 'object' && value !== null && 'outputGroupList' in value && 'signalType' in value && 'id' in value
  );
}

function isVideoRecord(value: unknown): value is Video {
  return typeof value === 'object' && value !== null && 'transcodedVideoList' in value && 'id' in value;
}

/** Channels named by the arguments: tree nodes, channel records, or channel ids. */
function channelsFromArgs(args: CommandArgs): Array<Channel | string> {
  const found: Array<Channel | string> = [];
  for (const arg of selectedArgs(args)) {
    if (arg instanceof ChannelNode) found.push(arg.channel);
    else if (isChannelRecord(arg)) found.push(arg);
    else if (
      typeof arg === 'object' &&
      arg !== null &&
      'channel' in arg &&
      isChannelRecord(arg.channel) &&
      (arg as { kind?: string }).kind === 'channel'
    )
      found.push(arg.channel);
    else if (typeof arg === 'string' && arg) found.push(arg);
  }
  return found;
}

function videosFromArgs(args: CommandArgs): Array<Video | string> {
  const found: Array<Video | string> = [];
  for (const arg of selectedArgs(args)) {
    if (arg instanceof VideoNode) found.push(arg.video);
    else if (isVideoRecord(arg)) found.push(arg);
    else if (typeof arg === 'string' && arg) found.push(arg);
  }
  return found;
}

export interface TargetOptions<T> {
  /** Window title of the pick, e.g. "Start channels". */
  readonly title: string;
  /** Only these make sense for the command (start: not running); others are not offered. */
  readonly eligible?: (item: T) => boolean;
  /** Why the others are left out, for the message when none of the given ones qualifies ("stop it first"). */
  readonly why?: string;
  readonly many: boolean;
}

export interface ChannelTargetOptions extends TargetOptions<Channel> {
  /**
   * Order of the palette's list (default: by name). Stop lists running channels first, so that
   * on an account with thousands of channels the first page holds the ones it applies to.
   */
  readonly sort?: { readonly sort: ChannelSortKey; readonly order: SortOrder };
}

/** How many records the pick offers at most per list (first page, or the first page of a search). */
export const PICK_LIMIT = 100;

/** A row of a record pick: a record, or "search for more" when the first page does not hold them all. */
type Choice<T> = { readonly record: T } | { readonly search: true };

interface PickSource<T> {
  readonly noun: 'channel' | 'video';
  readonly key: (item: T) => string;
  readonly row: (item: T) => Omit<PickItem<T>, 'value'>;
  /** One page of the list (`keyword`: the user's search); `total` when the platform tells it. */
  readonly fetch: (
    limit: number,
    keyword: string | undefined,
  ) => Promise<{ items: readonly T[]; more: boolean; total?: number }>;
  readonly searchPrompt: string;
}

/** The pick's words for one kind of record, translated when shown. */
function pickWords(noun: 'channel' | 'video', many: boolean, canSearch: boolean) {
  if (noun === 'channel') {
    return {
      plural: l10n.t('channels'),
      none: (title: string) => l10n.t('{0}: no channel to choose from.', title),
      searchRow: l10n.t('$(search) Search channels by name...'),
      placeHolder: many
        ? canSearch
          ? l10n.t('Choose channels, or search')
          : l10n.t('Choose channels')
        : canSearch
          ? l10n.t('Choose a channel, or search')
          : l10n.t('Choose a channel'),
    };
  }
  return {
    plural: l10n.t('videos'),
    none: (title: string) => l10n.t('{0}: no video to choose from.', title),
    searchRow: l10n.t('$(search) Search videos by title...'),
    placeHolder: many
      ? canSearch
        ? l10n.t('Choose videos, or search')
        : l10n.t('Choose videos')
      : canSearch
        ? l10n.t('Choose a video, or search')
        : l10n.t('Choose a video'),
  };
}

/**
 * The palette's record pick: the first page of the platform's list (eligible records only), and,
 * when the account holds more than that page, a "Search..." row that asks for text and lists the
 * matches instead (picks made so far stay picked). Undefined when the user backs out or nothing fits.
 */
async function pickRecords<T>(
  ctx: AppContext,
  source: PickSource<T>,
  options: TargetOptions<T>,
): Promise<T[] | undefined> {
  const limit = Math.max(1, ctx.pickLimit ?? PICK_LIMIT);
  let keyword: string | undefined;
  let kept: T[] = [];
  for (;;) {
    const page = await source.fetch(limit, keyword);
    const offered = options.eligible ? page.items.filter(options.eligible) : [...page.items];
    const shown = new Set(offered.map(source.key));
    const earlier = kept.filter((item) => !shown.has(source.key(item)));
    const keptKeys = new Set(kept.map(source.key));
    const canSearch = page.more || keyword !== undefined;
    const words = pickWords(source.noun, options.many === true, canSearch);
    if (offered.length === 0 && earlier.length === 0 && !canSearch) {
      await ctx.ui.info(words.none(options.title));
      return undefined;
    }
    const items: PickItem<Choice<T>>[] = [];
    if (keyword !== undefined)
      items.push({
        label: offered.length ? l10n.t('Matching "{0}"', keyword) : l10n.t('Nothing that fits matches "{0}"', keyword),
        separator: true,
      });
    for (const item of [...earlier, ...offered])
      items.push({ ...source.row(item), picked: keptKeys.has(source.key(item)), value: { record: item } });
    if (canSearch) {
      const shownText =
        page.total !== undefined
          ? l10n.t('{0} {1} in all; the first {2} are listed', formatCount(page.total), words.plural, page.items.length)
          : l10n.t('the first {0} are listed', page.items.length);
      items.push({ label: '', separator: true });
      const how = options.many ? l10n.t('check this and press OK to search') : '';
      items.push({
        label: words.searchRow,
        description: [keyword === undefined ? shownText : l10n.t('search again'), how].filter(Boolean).join('; '),
        value: { search: true },
      });
    }
    const pickOptions = {
      title: options.title,
      placeHolder: words.placeHolder,
      matchOnDescription: true,
    };
    let chosen: Array<Choice<T>>;
    if (options.many) {
      const picked = await ctx.ui.pickMany(items, pickOptions);
      if (!picked || picked.length === 0) return undefined;
      chosen = picked;
    } else {
      const picked = await ctx.ui.pick(items, pickOptions);
      if (!picked) return undefined;
      chosen = [picked];
    }
    const records = chosen.flatMap((choice) => ('record' in choice ? [choice.record] : []));
    if (records.length === chosen.length) return records;
    // "Search...": keep what is picked and list the matches of the text.
    kept = records;
    const text = await ctx.ui.input({
      title: options.title,
      prompt: source.searchPrompt,
      value: keyword,
      validate: (value) => (value.trim() ? undefined : l10n.t('Search text must not be empty')),
    });
    if (text === undefined || !text.trim()) return records.length ? records : undefined;
    keyword = text.trim();
  }
}

/** The message when every given record is left out. */
async function nothingToDo(ctx: AppContext, options: TargetOptions<unknown>, states: string[]): Promise<undefined> {
  await ctx.ui.info(
    options.why
      ? l10n.t('{0}: {1}; nothing to do ({2}).', options.title, states.join(', '), options.why)
      : l10n.t('{0}: {1}; nothing to do.', options.title, states.join(', ')),
  );
  return undefined;
}

/** A multi-selection mixing states: the command goes on with the others and says which it left out. */
function skipped(ctx: AppContext, options: TargetOptions<unknown>, states: string[]): void {
  if (states.length === 0) return;
  const text = options.why
    ? l10n.t('{0}: skipped {1} ({2}).', options.title, states.join(', '), options.why)
    : l10n.t('{0}: skipped {1}.', options.title, states.join(', '));
  ctx.log.info(text);
  void ctx.ui.info(text);
}

/**
 * The channels a command works on: from the tree (or ids) when given, otherwise chosen in a
 * quick pick from the platform's list. Undefined when the user backs out or there is nothing.
 */
export async function resolveChannels(
  ctx: AppContext,
  args: CommandArgs,
  options: ChannelTargetOptions,
): Promise<Channel[] | undefined> {
  // A command for one channel works on the clicked one, not on whichever comes first in the selection.
  const given = channelsFromArgs(options.many ? args : { node: args.node });
  return step(options.title, async () => {
    const client = await ctx.connection.activeClient();
    if (given.length > 0) {
      const channels = await Promise.all(
        given.map((item) => (typeof item === 'string' ? client.liveGetChannelById(item) : item)),
      );
      const eligible = options.eligible ? channels.filter(options.eligible) : channels;
      const state = (channel: Channel): string =>
        l10n.t('"{0}" is {1}', channel.name, channelStateText(channel).toLowerCase());
      if (eligible.length === 0) return nothingToDo(ctx, options as TargetOptions<unknown>, channels.map(state));
      skipped(
        ctx,
        options as TargetOptions<unknown>,
        channels.filter((channel) => !eligible.includes(channel)).map(state),
      );
      return eligible;
    }
    const order = options.sort ?? { sort: 'name', order: 'asc' };
    return await pickRecords<Channel>(
      ctx,
      {
        noun: 'channel',
        key: (channel) => channel.id,
        row: (channel) => ({
          label: channel.name,
          description: channelStateText(channel),
          detail: channel.typeName ?? undefined,
        }),
        fetch: async (limit, keyword) => {
          const page = await client.liveGetChannelsByPage({
            start: 1,
            number: limit,
            ...order,
            ...(keyword ? { searchType: 'name', keyword } : {}),
          });
          return { items: page.channels, more: page.count > page.channels.length, total: page.count };
        },
        searchPrompt: l10n.t('Part of the channel name'),
      },
      options,
    );
  });
}

export async function resolveVideos(
  ctx: AppContext,
  args: CommandArgs,
  options: TargetOptions<Video>,
): Promise<Video[] | undefined> {
  const given = videosFromArgs(options.many ? args : { node: args.node });
  return step(options.title, async () => {
    const client = await ctx.connection.activeClient();
    if (given.length > 0) {
      const videos = await Promise.all(
        given.map((item) => (typeof item === 'string' ? client.getVideoInfo(item) : item)),
      );
      const eligible = options.eligible ? videos.filter(options.eligible) : videos;
      const state = (video: Video): string =>
        l10n.t('"{0}" is {1}', video.title || video.fileName, videoStatusText(video.status).toLowerCase());
      if (eligible.length === 0) return nothingToDo(ctx, options as TargetOptions<unknown>, videos.map(state));
      skipped(ctx, options as TargetOptions<unknown>, videos.filter((video) => !eligible.includes(video)).map(state));
      return eligible;
    }
    return await pickRecords<Video>(
      ctx,
      {
        noun: 'video',
        key: (video) => video.id,
        row: (video) => ({
          label: video.title || video.fileName,
          description: video.videoType === 1 ? `${videoStatusText(video.status)} · VR` : videoStatusText(video.status),
          detail: video.category ?? undefined,
        }),
        fetch: async (limit, keyword) => {
          // queryVideo lists normal videos unless asked for VR ones: both kinds, newest first.
          // It tells no total: a full page (or more than fits the pick) means there may be more.
          const query: VideoQuery = {
            start: 1,
            number: limit,
            sort: 'uploadTime',
            order: 'desc',
            ...(keyword ? { searchType: 'title', keyword } : {}),
          };
          const [normal, vr] = await Promise.all([
            client.queryVideo(query),
            client.queryVideo({ ...query, videoType: 1 }),
          ]);
          const items = [...normal, ...vr].sort((a, b) => b.uploadTime - a.uploadTime).slice(0, limit);
          return { items, more: normal.length >= limit || vr.length >= limit || normal.length + vr.length > limit };
        },
        searchPrompt: l10n.t('Part of the video title'),
      },
      options,
    );
  });
}

/** `"News"` or `3 channels`, for titles and messages, in the user's language (each kind has its sentence). */
export function nameList(names: readonly string[], noun: 'channels' | 'videos' | 'files'): string {
  if (names.length === 1) return l10n.t('"{0}"', names[0]!);
  const count = names.length;
  switch (noun) {
    case 'channels':
      return l10n.t('{0} channels', count);
    case 'videos':
      return l10n.t('{0} videos', count);
    case 'files':
      return l10n.t('{0} files', count);
  }
}
