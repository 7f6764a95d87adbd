import type { Channel, ChannelSortKey, SortOrder } from '../../api/types';
import { isRunning } from './channelPresentation';

/**
 * Live only in the chosen order. The platform has no status filter (docs/platform/rest-interface.md,
 * liveGetChannelsByPage), so the running channels are read as the first run of the list sorted by status,
 * then put in the user's order here. Beyond this many running channels the run is not read whole: the
 * view keeps the status order and its description says so.
 */
export const MAX_SORTED_LIVE = 1_000;

/** Records per request while reading the run. */
export const LIVE_RUN_PAGE = 100;

export interface LiveRun {
  /** The running channels, in the platform's status order. */
  readonly channels: Channel[];
  /** False when more than `limit` channels are running: `channels` is then only the start of the run. */
  readonly complete: boolean;
  /** Records the platform returned (running or not). */
  readonly fetched: number;
}

/**
 * Reads pages sorted by status (running first: channelQuery) until the first channel that is not running,
 * the end of the list, or `limit` running channels.
 */
export async function readLiveRun(
  readPage: (page: number, size: number) => Promise<{ channels: Channel[]; count?: number }>,
  limit = MAX_SORTED_LIVE,
  size = LIVE_RUN_PAGE,
): Promise<LiveRun> {
  const channels: Channel[] = [];
  const seen = new Set<string>();
  let fetched = 0;
  for (let page = 1; ; page++) {
    const result = await readPage(page, size);
    fetched += result.channels.length;
    for (const channel of result.channels) {
      if (!isRunning(channel)) return { channels, complete: true, fetched };
      // A channel started meanwhile moves the run: one already read is not listed twice.
      if (seen.has(channel.id)) continue;
      seen.add(channel.id);
      if (channels.length === limit) return { channels, complete: false, fetched };
      channels.push(channel);
    }
    const ended = result.count !== undefined ? page * size >= result.count : result.channels.length < size;
    if (ended || result.channels.length === 0) return { channels, complete: true, fetched };
  }
}

/** Text as the platform compares it: case-insensitive first, a missing value last. */
function compareText(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

const byId = (a: Channel, b: Channel): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const byCreateTime = (a: Channel, b: Channel): number => (a.createTime ?? 0) - (b.createTime ?? 0);

const COMPARE: Record<ChannelSortKey, (a: Channel, b: Channel) => number> = {
  name: (a, b) => compareText(a.name, b.name) || byId(a, b),
  type: (a, b) => compareText(a.typeName, b.typeName) || compareText(a.name, b.name) || byId(a, b),
  status: (a, b) => a.status - b.status || byCreateTime(b, a) || byId(a, b),
  streamStatus: (a, b) => a.streamStatus - b.streamStatus || byCreateTime(b, a) || byId(a, b),
  createTime: (a, b) => byCreateTime(a, b) || byId(a, b),
};

/**
 * The order of the channel list for a filter's sort: the platform's default when none is set (newest
 * first), ascending when only the key is set (rest-interface.md; the local platform does the same).
 */
export function channelOrder(
  sort: ChannelSortKey | undefined,
  order: SortOrder | undefined,
): (a: Channel, b: Channel) => number {
  const key = sort ?? 'createTime';
  const direction = order ?? (sort ? 'asc' : 'desc');
  const compare = COMPARE[key];
  return direction === 'desc' ? (a, b) => compare(b, a) : compare;
}

/** Whether the platform's status order already is the chosen order (then pages are read as they come). */
export function isStatusOrder(sort: ChannelSortKey | undefined, order: SortOrder | undefined): boolean {
  return sort === 'status' && order === 'desc';
}
