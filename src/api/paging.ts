/**
 * Lazy walks over paged lists. Both lists count `start` as a 1-based page number (facts section 3;
 * this project's choice for queryVideo). A page is fetched only when the consumer asks for it,
 * and the caller's signal is passed to every fetch, so aborting stops the walk with an `aborted` error.
 */
import type { CallOptions } from './client';
import type { ChannelListQuery, ChannelPage, Video, VideoQuery } from './types';

/** The platform's default channel page size (interface section 8). */
export const DEFAULT_CHANNEL_PAGE_SIZE = 15;

/**
 * Channel pages from `query.start` (default 1) on. Stops after the page that reaches `count`
 * (`start * number >= count`) or at an empty page (which is not yielded).
 */
export async function* walkChannelPages(
  fetchPage: (query: ChannelListQuery, o?: CallOptions) => Promise<ChannelPage>,
  query: ChannelListQuery,
  options: CallOptions,
): AsyncGenerator<ChannelPage, void, undefined> {
  const number = query.number ?? DEFAULT_CHANNEL_PAGE_SIZE;
  for (let start = query.start ?? 1; ; start++) {
    const page = await fetchPage({ ...query, start, number }, options);
    if (page.channels.length === 0) return;
    yield page;
    if (start * number >= page.count) return;
  }
}

/** Video pages from page 1 on. Stops after a page shorter than `number` (an empty one is not yielded). */
export async function* walkVideoPages(
  fetchPage: (query: VideoQuery, o?: CallOptions) => Promise<Video[]>,
  query: Omit<VideoQuery, 'start'>,
  options: CallOptions,
): AsyncGenerator<Video[], void, undefined> {
  for (let start = 1; ; start++) {
    const videos = await fetchPage({ ...query, start }, options);
    if (videos.length === 0) return;
    yield videos;
    if (videos.length < query.number) return;
  }
}
