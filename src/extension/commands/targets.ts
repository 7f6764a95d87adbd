import type { Channel, Video } from '../../api/types';
import { reportFailure } from '../failures';
import { channelStateText } from '../tree/channelPresentation';
import { ChannelNode, VideoNode } from '../tree/nodes';
import { videoStatusText } from '../tree/videoPresentation';
import type { CommandDeps } from './deps';

/**
 * VS Code runs a view's context-menu command with (clicked element, selected elements); the
 * selection includes the clicked one. From the palette there are no arguments.
 */
export function selectedArgs(args: readonly unknown[]): unknown[] {
  const [first, second] = args;
  if (Array.isArray(second) && second.length > 0) return second;
  return first === undefined || first === null ? [] : [first];
}

function isChannelRecord(value: unknown): value is Channel {
  return typeof value === 'object' && value !== null && 'outputGroupList' in value && 'signalType' in value && 'id' in value;
}

function isVideoRecord(value: unknown): value is Video {
  return typeof value === 'object' && value !== null && 'transcodedVideoList' in value && 'id' in value;
}

/** Channels named by the arguments: tree nodes, channel records, or channel ids. */
export function channelsFromArgs(args: readonly unknown[]): Array<Channel | string> {
  const found: Array<Channel | string> = [];
  for (const arg of selectedArgs(args)) {
    if (arg instanceof ChannelNode) found.push(arg.channel);
    else if (isChannelRecord(arg)) found.push(arg);
    else if (typeof arg === 'object' && arg !== null && 'channel' in arg && isChannelRecord(arg.channel) && (arg as { kind?: string }).kind === 'channel') found.push(arg.channel);
    else if (typeof arg === 'string' && arg) found.push(arg);
  }
  return found;
}

export function videosFromArgs(args: readonly unknown[]): Array<Video | string> {
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
  readonly many: boolean;
}

/** How many records the pick offers at most (first page, sorted by name / newest first). */
const PICK_LIMIT = 100;

/**
 * The channels a command works on: from the tree (or ids) when given, otherwise chosen in a
 * quick pick from the platform's list. Undefined when the user backs out or there is nothing.
 */
export async function resolveChannels(deps: CommandDeps, args: readonly unknown[], options: TargetOptions<Channel>): Promise<Channel[] | undefined> {
  const given = channelsFromArgs(args);
  try {
    if (given.length > 0) {
      const client = await deps.connection.activeClient();
      const channels = await Promise.all(given.map((item) => (typeof item === 'string' ? client.liveGetChannelById(item) : item)));
      const eligible = options.eligible ? channels.filter(options.eligible) : channels;
      if (eligible.length === 0) {
        await deps.ui.info(`${options.title}: ${channels.map((channel) => `"${channel.name}" is ${channelStateText(channel).toLowerCase()}`).join(', ')}; nothing to do.`);
        return undefined;
      }
      return eligible;
    }
    const client = await deps.connection.activeClient();
    const page = await client.liveGetChannelsByPage({ start: 1, number: PICK_LIMIT, sort: 'name', order: 'asc' });
    const offered = options.eligible ? page.channels.filter(options.eligible) : page.channels;
    if (offered.length === 0) {
      await deps.ui.info(`${options.title}: no channel to choose from.`);
      return undefined;
    }
    const items = offered.map((channel) => ({ label: channel.name, description: channelStateText(channel), detail: channel.typeName ?? undefined, value: channel }));
    if (options.many) {
      const picked = await deps.ui.pickMany(items, { title: options.title, placeHolder: 'Choose channels', matchOnDescription: true });
      return picked && picked.length ? picked : undefined;
    }
    const picked = await deps.ui.pick(items, { title: options.title, placeHolder: 'Choose a channel', matchOnDescription: true });
    return picked ? [picked] : undefined;
  } catch (error) {
    await reportFailure(deps.ui, deps.log, options.title, error);
    return undefined;
  }
}

export async function resolveVideos(deps: CommandDeps, args: readonly unknown[], options: TargetOptions<Video>): Promise<Video[] | undefined> {
  const given = videosFromArgs(args);
  try {
    const client = await deps.connection.activeClient();
    if (given.length > 0) {
      const videos = await Promise.all(given.map((item) => (typeof item === 'string' ? client.getVideoInfo(item) : item)));
      const eligible = options.eligible ? videos.filter(options.eligible) : videos;
      if (eligible.length === 0) {
        await deps.ui.info(`${options.title}: ${videos.map((video) => `"${video.title}" is ${videoStatusText(video.status).toLowerCase()}`).join(', ')}; nothing to do.`);
        return undefined;
      }
      return eligible;
    }
    const list = await client.queryVideo({ start: 1, number: PICK_LIMIT, sort: 'uploadTime', order: 'desc' });
    const offered = options.eligible ? list.filter(options.eligible) : list;
    if (offered.length === 0) {
      await deps.ui.info(`${options.title}: no video to choose from.`);
      return undefined;
    }
    const items = offered.map((video) => ({ label: video.title || video.fileName, description: videoStatusText(video.status), detail: video.category ?? undefined, value: video }));
    if (options.many) {
      const picked = await deps.ui.pickMany(items, { title: options.title, placeHolder: 'Choose videos', matchOnDescription: true });
      return picked && picked.length ? picked : undefined;
    }
    const picked = await deps.ui.pick(items, { title: options.title, placeHolder: 'Choose a video', matchOnDescription: true });
    return picked ? [picked] : undefined;
  } catch (error) {
    await reportFailure(deps.ui, deps.log, options.title, error);
    return undefined;
  }
}

/** `"News"` or `3 channels`, for titles and messages. */
export function nameList(names: readonly string[], noun: string): string {
  return names.length === 1 ? `"${names[0]}"` : `${names.length} ${noun}`;
}
