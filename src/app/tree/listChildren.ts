import { l10n } from '../../l10n/l10n';
import { describeFailure } from '../failures';
import { ErrorNode, LoadMoreNode, MessageNode, type TreeNode } from './nodes';
import type { PagedList } from './pagedList';

export interface ListChildrenOptions<T> {
  readonly list: PagedList<T>;
  readonly parent: TreeNode | undefined;
  readonly node: (item: T) => TreeNode;
  /** "channels" / "videos" (translated), for the error and empty lines. */
  readonly noun: string;
  readonly filtered: boolean;
  /** The line of an empty list without a filter (default "No <noun> yet"). */
  readonly empty?: string;
  /** Called after Load more / Retry so the view asks for the parent's children again. */
  readonly changed: () => void;
}

/**
 * The children of a paged parent: the loaded items, then one of: an error line with Retry, a
 * "Load more" line, or a line saying the list is empty.
 */
export async function listChildren<T>(options: ListChildrenOptions<T>): Promise<TreeNode[]> {
  const { list, parent, noun, changed } = options;
  await list.ensureStarted();
  // A page on its way (Load more, Retry): the view's answer waits for it, so VS Code shows the
  // view's progress bar meanwhile instead of nothing.
  await list.loading;
  const nodes: TreeNode[] = list.items.map(options.node);
  const next = async (): Promise<void> => {
    const loading = list.loadMore();
    changed();
    await loading;
  };
  if (list.error !== undefined) {
    nodes.push(new ErrorNode(parent, l10n.t('Could not load {0}: {1}', noun, describeFailure(list.error)), next));
  } else if (list.hasMore) {
    nodes.push(new LoadMoreNode(parent, list.items.length, list.totalCount, next, list.searched));
  } else if (nodes.length === 0) {
    nodes.push(
      new MessageNode(
        parent,
        options.filtered ? l10n.t('No {0} match the filter', noun) : (options.empty ?? l10n.t('No {0} yet', noun)),
      ),
    );
  }
  return nodes;
}
