import { reportFailure } from '../failures';
import { CategoryNode, ChannelNode, ErrorNode, LoadMoreNode, OutputGroupNode, OutputNode, RenditionNode, VideoNode } from '../tree/nodes';
import type { CommandDeps } from './deps';

/** videoPlatform.loadMore: the "Load more" row's click. */
export async function loadMore(_deps: CommandDeps, node?: unknown): Promise<void> {
  if (node instanceof LoadMoreNode) await node.load();
}

/** videoPlatform.retry: the error row's click or inline action. */
export async function retry(_deps: CommandDeps, node?: unknown): Promise<void> {
  if (node instanceof ErrorNode) await node.retry();
}

export function refreshChannels(deps: CommandDeps): void {
  deps.channels.refresh();
}

export function refreshVideos(deps: CommandDeps): void {
  deps.videos.refresh();
}

/** videoPlatform.refreshItem: one channel or video re-read; a category reloaded. */
export async function refreshItem(deps: CommandDeps, node?: unknown): Promise<void> {
  try {
    if (node instanceof ChannelNode || node instanceof OutputGroupNode || node instanceof OutputNode || node instanceof CategoryNode) {
      await deps.channels.refreshNode(node);
      deps.poll.channels();
    } else if (node instanceof VideoNode || node instanceof RenditionNode) {
      await deps.videos.refreshNode(node);
      deps.poll.videos();
    } else {
      deps.channels.refresh();
      deps.videos.refresh();
    }
  } catch (error) {
    await reportFailure(deps.ui, deps.log, 'Refresh', error);
  }
}
