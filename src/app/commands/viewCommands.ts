import {
  CategoryNode,
  ChannelNode,
  ErrorNode,
  LoadMoreNode,
  OutputGroupNode,
  OutputNode,
  RenditionNode,
  VideoNode,
  type TreeNode,
} from '../tree/nodes';
import { reportBatch } from './batch';
import type { AppContext, CommandArgs } from '../context';
import { l10n } from '../../l10n/l10n';
import { formatCategory } from '../util/format';
import { selectedArgs } from '../ask/targets';

/** videoPlatform.loadMore: the "Load more" row's click. */
export async function loadMore(_ctx: AppContext, { node }: CommandArgs = {}): Promise<void> {
  if (node instanceof LoadMoreNode) await node.load();
}

/** videoPlatform.retry: the error row's click or inline action. */
export async function retry(_ctx: AppContext, { node }: CommandArgs = {}): Promise<void> {
  if (node instanceof ErrorNode) await node.retry();
}

export function refreshChannels(ctx: AppContext): void {
  ctx.models.channels.refresh();
}

export function refreshVideos(ctx: AppContext): void {
  ctx.models.videos.refresh();
}

/** What a selected tree item refreshes: a channel, a category list, or a video (children count as their owner). */
function refreshTarget(node: unknown): { view: 'channels' | 'videos'; key: string; name: string } | undefined {
  if (node instanceof ChannelNode)
    return { view: 'channels', key: `channel:${node.channel.id}`, name: node.channel.name };
  if (node instanceof OutputGroupNode)
    return { view: 'channels', key: `channel:${node.channel.id}`, name: node.channel.name };
  if (node instanceof OutputNode)
    return { view: 'channels', key: `channel:${node.parent.channel.id}`, name: node.parent.channel.name };
  if (node instanceof CategoryNode)
    return {
      view: 'channels',
      key: `category:${node.category?.id ?? '-'}`,
      name: formatCategory(node.category),
    };
  if (node instanceof VideoNode)
    return { view: 'videos', key: `video:${node.video.id}`, name: node.video.title || node.video.fileName };
  if (node instanceof RenditionNode)
    return { view: 'videos', key: `video:${node.video.id}`, name: node.video.title || node.video.fileName };
  return undefined;
}

/**
 * videoPlatform.refreshItem: every selected item (VS Code passes the clicked item and the
 * selection): a channel or video re-read, a category reloaded; each record once, all at the same
 * time. Failures are reported together, naming the items; the others are refreshed all the same.
 */
export async function refreshItem(ctx: AppContext, args: CommandArgs = {}): Promise<void> {
  const targets = new Map<string, { node: unknown; target: NonNullable<ReturnType<typeof refreshTarget>> }>();
  for (const node of selectedArgs(args)) {
    const target = refreshTarget(node);
    if (target && !targets.has(target.key)) targets.set(target.key, { node, target });
  }
  if (targets.size === 0) {
    ctx.models.channels.refresh();
    ctx.models.videos.refresh();
    return;
  }
  const entries = [...targets.values()];
  const settled = await Promise.allSettled(
    entries.map(({ node, target }) =>
      target.view === 'channels'
        ? ctx.models.channels.refreshNode(node as TreeNode)
        : ctx.models.videos.refreshNode(node as TreeNode),
    ),
  );
  if (entries.some((entry) => entry.target.view === 'channels')) ctx.poller.channels.kick();
  if (entries.some((entry) => entry.target.view === 'videos')) ctx.poller.videos.kick();
  const failed = entries.flatMap((entry, index) => {
    const result = settled[index]!;
    return result.status === 'rejected' ? [{ item: entry.target, error: result.reason as unknown }] : [];
  });
  await reportBatch(ctx, l10n.t('Refresh'), { done: [], failed, cancelled: false }, (target) => target.name);
}
