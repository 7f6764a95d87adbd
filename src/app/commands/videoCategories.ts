import type { AppContext } from '../context';
import { formatCategory } from '../util/format';

/**
 * The video categories the Videos view has seen (the interface has no list of video categories),
 * for the picks of Filter Videos and Upload Video.
 */
export function seenVideoCategories(ctx: AppContext): Array<{ id: number; name: string }> {
  const seen = new Map<number, string>();
  for (const video of ctx.models.videos.loadedVideos())
    seen.set(video.categoryId, video.category ?? formatCategory({ id: video.categoryId }));
  return [...seen].map(([id, name]) => ({ id, name }));
}
