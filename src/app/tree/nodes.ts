import { l10n } from '../../l10n/l10n';
import type { Channel, ChannelCategory, LiveOutput, OutputGroup, TranscodedStream, Video } from '../../api/types';
import { channelView, outputGroupView, outputView } from './channelPresentation';
import type { NodeView } from './nodeView';
import { formatCount } from './filteredList';
import { renditionView, videoView, type TranscodingSeen } from './videoPresentation';

/**
 * Tree elements. VS Code hands these back to commands run from the views, so channel and video
 * nodes expose the record itself (`channel`, `video`) and always show the latest one: updates
 * replace the record on the same node object.
 */
export abstract class TreeNode {
  constructor(readonly parent: TreeNode | undefined) {}
  abstract view(): NodeView;
}

/**
 * A channel or video the local platform serves with stream faults now (commands/streamFaults.ts): `+faults` in
 * its contextValue (Clear Stream Faults is offered) and said first in its description.
 */
function withFaults(view: NodeView): NodeView {
  return {
    ...view,
    description: [l10n.t('stream faults'), view.description].filter(Boolean).join(' · '),
    contextValue: `${view.contextValue}+faults`,
  };
}

/** The ids the local platform serves with stream faults now, as the channel and video models keep them. */
export class FaultMarks {
  private readonly ids = new Set<string>();

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Takes the new ids (all of the account's: the others lose the mark) and fires each of `nodes` that changed. */
  mark<N extends { faults: boolean }>(
    ids: Iterable<string>,
    nodes: Iterable<[string, N]>,
    fire: (node: N) => void,
  ): void {
    this.ids.clear();
    for (const id of ids) this.ids.add(id);
    for (const [id, node] of nodes) {
      const faults = this.ids.has(id);
      if (node.faults === faults) continue;
      node.faults = faults;
      fire(node);
    }
  }
}

export class ChannelNode extends TreeNode {
  readonly kind = 'channel';
  /** The local platform serves it with stream faults (set by the model on every update). */
  faults = false;
  /** Transient description while an operation runs ("Starting..."). */
  transient: string | undefined;
  /** The platform simulates live media: nothing to play or inspect (set by the model on every update). */
  simulated = false;
  constructor(
    parent: TreeNode | undefined,
    public channel: Channel,
  ) {
    super(parent);
  }
  view(): NodeView {
    const view = channelView(this.channel, this.transient, this.simulated);
    return this.faults ? withFaults(view) : view;
  }
}

export class OutputGroupNode extends TreeNode {
  readonly kind = 'outputGroup';
  constructor(
    override readonly parent: ChannelNode,
    readonly outputGroup: OutputGroup,
  ) {
    super(parent);
  }
  get channel(): Channel {
    return this.parent.channel;
  }
  view(): NodeView {
    return outputGroupView(this.outputGroup, this.parent.simulated);
  }
}

export class OutputNode extends TreeNode {
  readonly kind = 'output';
  constructor(
    override readonly parent: OutputGroupNode,
    readonly output: LiveOutput,
  ) {
    super(parent);
  }
  view(): NodeView {
    return outputView(this.output, this.parent.parent.simulated);
  }
}

export class CategoryNode extends TreeNode {
  readonly kind = 'category';
  /** undefined: the channels without a category. */
  constructor(readonly category: ChannelCategory | undefined) {
    super(undefined);
  }
  view(): NodeView {
    return {
      id: `category:${this.category?.id ?? '-'}`,
      label: this.category?.name ?? l10n.t('No category'),
      icon: { id: this.category ? 'folder' : 'folder-opened' },
      contextValue: this.category ? 'category' : 'uncategorised',
      collapsible: 'collapsed',
      tooltip: this.category
        ? l10n.t('Channel category {0}', `\`${this.category.id}\``)
        : l10n.t('Channels without a category'),
    };
  }
}

export class VideoNode extends TreeNode {
  readonly kind = 'video';
  /** The local platform serves it with stream faults (set by the model on every update). */
  faults = false;
  transient: string | undefined;
  constructor(
    public video: Video,
    /** The title of a transcoded copy's source (its `parentId`), when known. */
    private readonly sourceTitle: (video: Video) => string | undefined = () => undefined,
    /** While it transcodes: for how long as seen here, and what it makes. */
    private readonly transcoding: (video: Video) => TranscodingSeen | undefined = () => undefined,
  ) {
    super(undefined);
  }
  view(): NodeView {
    const view = videoView(this.video, this.transient, this.sourceTitle(this.video), this.transcoding(this.video));
    return this.faults ? withFaults(view) : view;
  }
}

export class RenditionNode extends TreeNode {
  readonly kind = 'rendition';
  constructor(
    override readonly parent: VideoNode,
    readonly stream: TranscodedStream,
  ) {
    super(parent);
  }
  get video(): Video {
    return this.parent.video;
  }
  view(): NodeView {
    return renditionView(this.parent.video, this.stream);
  }
}

/** "Load more": clicking it runs `load`, which fetches the next page of its parent. */
export class LoadMoreNode extends TreeNode {
  readonly kind = 'loadMore';
  constructor(
    parent: TreeNode | undefined,
    private readonly loadedCount: number,
    private readonly total: number | undefined,
    readonly load: () => Promise<void>,
    /** A list filtered on our side: how many of the platform's records were read, of how many. */
    private readonly searched?: { readonly read: number; readonly total: number },
  ) {
    super(parent);
  }
  view(): NodeView {
    // Counts thousands separated, as the view's description says them ("10,000 channels").
    const label =
      this.total !== undefined
        ? l10n.t('Load more ({0} of {1})', formatCount(this.loadedCount), formatCount(this.total))
        : this.searched
          ? l10n.t(
              'Load more ({0} shown, {1} of {2} searched)',
              formatCount(this.loadedCount),
              formatCount(this.searched.read),
              formatCount(this.searched.total),
            )
          : l10n.t('Load more ({0} shown)', formatCount(this.loadedCount));
    return {
      label,
      ...(this.searched
        ? {
            tooltip: l10n.t(
              'The platform cannot list only these, so its pages are searched here: {0} of {1} records read so far, {2} of them shown. How many more belong here is not known until all are read.',
              formatCount(this.searched.read),
              formatCount(this.searched.total),
              formatCount(this.loadedCount),
            ),
          }
        : {}),
      icon: { id: 'ellipsis' },
      contextValue: 'loadMore',
      collapsible: 'none',
      command: { command: 'videoPlatform.loadMore', title: l10n.t('Load More') },
    };
  }
}

/** A loading failure: one item with the message and a Retry action, instead of an empty tree. */
export class ErrorNode extends TreeNode {
  readonly kind = 'error';
  constructor(
    parent: TreeNode | undefined,
    readonly message: string,
    readonly retry: () => Promise<void>,
  ) {
    super(parent);
  }
  view(): NodeView {
    return {
      label: this.message,
      description: l10n.t('Retry'),
      tooltip: `${this.message}\n\n${l10n.t('Click to retry.')}`,
      icon: { id: 'error', color: 'errorForeground' },
      contextValue: 'error',
      collapsible: 'none',
      command: { command: 'videoPlatform.retry', title: l10n.t('Retry') },
    };
  }
}

/** A plain line such as "No channels match the filter". */
export class MessageNode extends TreeNode {
  readonly kind = 'message';
  constructor(
    parent: TreeNode | undefined,
    readonly text: string,
  ) {
    super(parent);
  }
  view(): NodeView {
    return { label: this.text, icon: { id: 'info' }, contextValue: 'message', collapsible: 'none' };
  }
}
