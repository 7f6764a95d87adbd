import { Codes } from '../../api/errorCodes';
import { l10n } from '../../l10n/l10n';
import type { Channel, ChannelCategory } from '../../api/types';
import { ApiError } from '../../api/errors';
import { pollEach } from './poller';
import { describeFailure } from '../failures';
import { isChannelSettling, isRunning } from './channelPresentation';
import { FilteredListModel, listTotal } from './filteredList';
import type { ClientSource } from './clientSource';
import { channelQuery, describeChannelFilter, isEmptyFilter, type ChannelFilter } from './filters';
import { listChildren } from './listChildren';
import { channelOrder, isStatusOrder, MAX_SORTED_LIVE, readLiveRun } from './liveRun';
import { CategoryNode, ChannelNode, ErrorNode, FaultMarks, OutputGroupNode, OutputNode, type TreeNode } from './nodes';
import { PagedList } from './pagedList';

/** How many pages `locateChannel` reads at most to find a channel for reveal. */
const MAX_REVEAL_PAGES = 20;

/**
 * The Live channels view without VS Code: paged channel lists (flat, or one per category), their
 * output groups and outputs, in-place updates from command results, and the settling channels
 * that the poller follows.
 */
export class ChannelTreeModel extends FilteredListModel<ChannelFilter> {
  private grouped = false;
  private readonly rootList: PagedList<Channel>;
  private categories: { nodes?: CategoryNode[]; error?: unknown; loading?: Promise<void>; generation: number } = {
    generation: 0,
  };
  private readonly categoryLists = new Map<CategoryNode, PagedList<Channel>>();
  private nodes = new Map<string, ChannelNode>();
  private readonly transient = new Map<string, string>();
  /** Items the local platform serves with stream faults (commands/streamFaults.ts). */
  private readonly faulted = new FaultMarks();
  /** Settling channels the platform refused to read (deleted elsewhere): not polled again until a refresh. */
  private unfollowed = new Set<string>();
  /** Channels created here since the last refresh: listed first, wherever their page would be. */
  private created: Channel[] = [];
  /** Live only: more channels run than are sorted here (liveRun.ts), so the list keeps the status order. */
  private liveUnsorted = false;
  /** Counts refreshes: an answer from before one does not set `liveUnsorted`. */
  private refreshes = 0;
  /** The active account's live media is simulated (the local platform without ffmpeg; compose.ts sets it). */
  liveSimulated: () => boolean = () => false;

  constructor(
    source: ClientSource,
    private readonly pageSize: () => number,
    /** Live only: how many running channels are sorted here at most (liveRun.ts). */
    private readonly maxSortedLive = MAX_SORTED_LIVE,
  ) {
    super(source);
    this.rootList = this.makeList(undefined);
  }

  get groupedByCategory(): boolean {
    return this.grouped;
  }

  protected describeFilter(filter: ChannelFilter): string {
    return [
      describeChannelFilter(filter, { liveUnsorted: this.liveUnsorted, maxSortedLive: this.maxSortedLive }),
      this.grouped ? l10n.t('grouped by category') : '',
    ]
      .filter(Boolean)
      .join(' · ');
  }

  protected withoutAccountParts(filter: ChannelFilter): ChannelFilter {
    const { category: _dropped, ...rest } = filter;
    return rest;
  }

  protected totalText(): string {
    if (this.grouped) return '';
    return listTotal(
      this.rootList,
      (count, n) => (n === 1 ? l10n.t('1 channel') : l10n.t('{0} channels', count)),
      (count) => l10n.t('{0}+ channels', count),
    );
  }

  protected override clearArrangement(): void {
    this.grouped = false;
  }

  setGrouping(grouped: boolean): void {
    this.grouped = grouped;
    this.refresh();
  }

  /** Why the filter in force leaves this channel out (its part of the filter), or undefined when it shows it. */
  hiddenBy(channel: Channel): string | undefined {
    const filter = this.filter;
    if (filter.category && channel.type !== filter.category.id) return l10n.t('category: {0}', filter.category.name);
    if (filter.keyword && !filter.category) {
      const keyword = filter.keyword.toLowerCase();
      const byName = channel.name.toLowerCase().includes(keyword);
      const byType = channel.type === filter.keyword || (channel.typeName ?? '').toLowerCase().includes(keyword);
      const searchType = filter.searchType ?? 'name';
      const kept = searchType === 'name' ? byName : searchType === 'type' ? byType : byName || byType;
      if (!kept) return l10n.t('search "{0}"', filter.keyword);
    }
    if (filter.liveOnly && !isRunning(channel)) return l10n.t('live only');
    return undefined;
  }

  /**
   * A channel created a moment ago: listed first in its list (flat, or its category's) without reading
   * pages to find it. Returns why the filter hides it instead, if it does.
   */
  showCreated(channel: Channel): string | undefined {
    const hidden = this.hiddenBy(channel);
    if (hidden !== undefined) return hidden;
    this.created = [channel, ...this.created.filter((item) => item.id !== channel.id)];
    this.rootList.insertFirst(channel);
    for (const [node, list] of this.categoryLists)
      if ((node.category?.id ?? null) === (channel.type || null)) list.insertFirst(channel);
    this.fire(undefined);
    return undefined;
  }

  /**
   * A list of channels: `category` undefined is the whole (filtered) list, a category object its
   * channels, null the channels without a category. The category search of the platform matches
   * names loosely, so an exact id match follows.
   */
  private makeList(category: ChannelCategory | null | undefined): PagedList<Channel> {
    return new PagedList<Channel>(
      async (page, size) => {
        const client = await this.source.activeClient();
        const filter = this.filter;
        const generation = this.refreshes;
        const read = (at: number, number: number): ReturnType<typeof client.liveGetChannelsByPage> =>
          client.liveGetChannelsByPage(channelQuery(filter, at, number, category ?? undefined));
        if (filter.liveOnly && !isStatusOrder(filter.sort, filter.order) && page === 1) {
          // Live only in the chosen order: the whole run of running channels, sorted here, as one page
          // (liveRun.ts). Too long a run keeps the platform's status order, and the description says so.
          const run = await readLiveRun(read, this.maxSortedLive);
          if (run.complete) {
            const items = this.keep(run.channels, category, filter).sort(channelOrder(filter.sort, filter.order));
            return { items, total: items.length, counted: true, fetched: run.fetched, last: true };
          }
          // The view's description follows once the page is shown (onDidLoad).
          if (generation === this.refreshes) this.liveUnsorted = true;
        }
        const result = await read(page, size);
        // Live only: the platform has no status filter, so its pages come sorted by status, running
        // channels first (channelQuery), and the list ends at the first channel that is not running.
        const last = filter.liveOnly === true && result.channels.some((channel) => !isRunning(channel));
        const items = this.keep(result.channels, category, filter);
        // The platform's count is exact only when nothing was filtered here; `fetched` tells where
        // its pages end even when a whole page was filtered out.
        return {
          items,
          total: result.count,
          counted: category === undefined && !filter.category && !filter.liveOnly,
          fetched: result.channels.length,
          last,
        };
      },
      this.pageSize,
      (channel) => channel.id,
    );
  }

  /**
   * What the platform's answer holds that the list shows: the exact category (`category` an object, or
   * null for the channels without one), running channels for Live only, and in a category the search.
   */
  private keep(
    channels: readonly Channel[],
    category: ChannelCategory | null | undefined,
    filter: ChannelFilter,
  ): Channel[] {
    let items = [...channels];
    const only = category ?? filter.category;
    if (only) items = items.filter((channel) => channel.type === only.id);
    if (category === null) items = items.filter((channel) => !channel.type);
    if (filter.liveOnly) items = items.filter(isRunning);
    if (category && filter.keyword && !filter.category) {
      // In a category the search slot holds the category, so the search applies here, as the
      // platform would apply it: by name, by category, or either (`all`).
      const keyword = filter.keyword.toLowerCase();
      const byCategory = category.name.toLowerCase().includes(keyword) || category.id === filter.keyword;
      const byName = (channel: Channel): boolean => channel.name.toLowerCase().includes(keyword);
      const searchType = filter.searchType ?? 'name';
      if (searchType === 'name') items = items.filter(byName);
      else if (!byCategory) items = searchType === 'type' ? [] : items.filter(byName);
    }
    return items;
  }

  protected async children(node: TreeNode | undefined): Promise<TreeNode[]> {
    if (node === undefined) {
      if (!this.source.hasAccount) return [];
      return this.grouped ? this.categoryNodes() : this.channelList(this.rootList, undefined);
    }
    if (node instanceof CategoryNode) {
      let list = this.categoryLists.get(node);
      if (!list) {
        list = this.makeList(node.category ?? null);
        for (const channel of [...this.created].reverse())
          if ((node.category?.id ?? null) === (channel.type || null)) list.insertFirst(channel);
        this.categoryLists.set(node, list);
      }
      return this.channelList(list, node);
    }
    if (node instanceof ChannelNode)
      return node.channel.outputGroupList.map((group) => new OutputGroupNode(node, group));
    if (node instanceof OutputGroupNode)
      return node.outputGroup.liveOutputs.map((output) => new OutputNode(node, output));
    return [];
  }

  private channelList(list: PagedList<Channel>, parent: TreeNode | undefined): Promise<TreeNode[]> {
    return listChildren({
      list,
      parent,
      noun: l10n.t('channels'),
      filtered: !isEmptyFilter(this.filter),
      ...(parent instanceof CategoryNode
        ? {
            empty: parent.category ? l10n.t('No channels in this category') : l10n.t('No channels without a category'),
          }
        : {}),
      node: (channel) => this.channelNode(channel, parent),
      changed: () => this.fire(parent),
    });
  }

  private channelNode(channel: Channel, parent: TreeNode | undefined): ChannelNode {
    let node = this.nodes.get(channel.id);
    if (!node || node.parent !== parent) {
      node = new ChannelNode(parent, channel);
      this.nodes.set(channel.id, node);
    }
    node.channel = channel;
    node.simulated = this.liveSimulated();
    node.transient = this.transient.get(channel.id);
    node.faults = this.faulted.has(channel.id);
    return node;
  }

  private async categoryNodes(): Promise<TreeNode[]> {
    const state = this.categories;
    if (!state.nodes && state.error === undefined) {
      state.loading ??= (async () => {
        try {
          const client = await this.source.activeClient();
          const list = await client.liveChannelTypeList();
          if (state.generation !== this.categories.generation) return;
          const only = this.filter.category;
          const shown = only ? list.filter((category) => category.id === only.id) : list;
          state.nodes = [
            ...shown.map((category) => new CategoryNode(category)),
            ...(only ? [] : [new CategoryNode(undefined)]),
          ];
        } catch (error) {
          state.error = error;
        } finally {
          state.loading = undefined;
        }
      })();
      await state.loading;
    }
    if (state.error !== undefined) {
      return [
        new ErrorNode(
          undefined,
          l10n.t('Could not load channel categories: {0}', describeFailure(state.error)),
          async () => {
            this.categories = { generation: state.generation + 1 };
            this.fire(undefined);
          },
        ),
      ];
    }
    return state.nodes ?? [];
  }

  /** Forgets every cached page (refresh, filter change, account switch) and redraws the view. */
  refresh(): void {
    this.unfollowed = new Set();
    this.liveUnsorted = false;
    this.refreshes++;
    this.created = [];
    this.rootList.reset();
    this.categories = { generation: this.categories.generation + 1 };
    this.categoryLists.clear();
    this.nodes = new Map();
    this.fire(undefined);
  }

  /**
   * Account switch: also forget the transient states of the old account's channels, and a
   * category restriction when the account changed (that category is not the new account's).
   */
  reset(): void {
    this.transient.clear();
    this.keepFilterForAccount();
    this.refresh();
  }

  /** The lists that currently hold channels. */
  private lists(): PagedList<Channel>[] {
    return [this.rootList, ...this.categoryLists.values()];
  }

  loadedChannels(): Channel[] {
    const seen = new Map<string, Channel>();
    for (const list of this.lists()) for (const channel of list.items) seen.set(channel.id, channel);
    return [...seen.values()];
  }

  /**
   * An updated record (start/stop result, poll answer) replaces the cached one. Ignored when it
   * comes from before an account switch (`epoch`).
   */
  applyChannel(channel: Channel, epoch: number): boolean {
    if (epoch !== this.source.epoch) return false;
    for (const list of this.lists()) list.replace((item) => item.id === channel.id, channel);
    const node = this.nodes.get(channel.id);
    if (node) {
      node.channel = channel;
      this.fire(node);
    }
    return true;
  }

  removeChannels(ids: readonly string[], epoch: number): void {
    if (epoch !== this.source.epoch) return;
    const gone = new Set(ids);
    for (const list of this.lists()) list.remove((channel) => gone.has(channel.id));
    for (const id of ids) this.nodes.delete(id);
    this.fire(undefined);
  }

  /** The items the local platform serves with stream faults now (all of the account's: the others lose the mark). */
  markFaulted(ids: Iterable<string>): void {
    this.faulted.mark(ids, this.nodes, (node) => this.fire(node));
  }

  /** Shows `text` as the channel's description while an operation runs; undefined clears it. */
  setTransient(channelId: string, text: string | undefined): void {
    if (text === undefined) this.transient.delete(channelId);
    else this.transient.set(channelId, text);
    const node = this.nodes.get(channelId);
    if (node) {
      node.transient = text;
      this.fire(node);
    }
  }

  nodeOf(channelId: string): ChannelNode | undefined {
    return this.nodes.get(channelId);
  }

  /**
   * Re-reads one channel from the platform. A channel the platform says no longer exists (deleted
   * elsewhere) leaves the view; the error is still thrown for the caller to report.
   */
  async refreshChannel(channelId: string): Promise<Channel> {
    const epoch = this.source.epoch;
    const client = await this.source.activeClient();
    let channel: Channel;
    try {
      channel = await client.liveGetChannelById(channelId);
    } catch (error) {
      if (error instanceof ApiError && error.code === Codes.channelNotExists) this.removeChannels([channelId], epoch);
      throw error;
    }
    this.applyChannel(channel, epoch);
    return channel;
  }

  /** Per-item refresh: a channel re-reads itself, a category (or the root) reloads its pages. */
  async refreshNode(node: TreeNode | undefined): Promise<void> {
    if (node instanceof ChannelNode) {
      await this.refreshChannel(node.channel.id);
    } else if (node instanceof OutputGroupNode || node instanceof OutputNode) {
      const owner = node instanceof OutputGroupNode ? node.parent : node.parent.parent;
      await this.refreshChannel(owner.channel.id);
    } else if (node instanceof CategoryNode) {
      this.categoryLists.get(node)?.reset();
      this.fire(node);
    } else {
      this.refresh();
    }
  }

  /** Ids of loaded channels that are still moving between states. */
  settlingIds(): string[] {
    return this.loadedChannels()
      .filter(isChannelSettling)
      .map((channel) => channel.id)
      .filter((id) => !this.unfollowed.has(id));
  }

  hasSettling(): boolean {
    return this.settlingIds().length > 0;
  }

  /** One polling round: re-reads each settling channel (pollEach: a refusal ends following it). */
  pollSettling(): Promise<unknown[]> {
    return pollEach(
      this.settlingIds(),
      (id) => this.refreshChannel(id),
      (id) => this.unfollowed.add(id),
    );
  }

  /**
   * Re-reads the pages that list the loaded channels matching `match` (one list request per page, not
   * one read per channel: src/app/tree/liveWatch.ts) and updates the rows that changed. A matching
   * channel no longer on its page (the list moved meanwhile) is read by id. Failures are returned.
   */
  async rereadPages(match: (channel: Channel) => boolean): Promise<unknown[]> {
    const epoch = this.source.epoch;
    const wanted = this.loadedChannels().filter(match);
    const seen = new Set<string>();
    for (const list of this.lists()) {
      for (const at of list.pagesOf(match)) {
        let items: readonly Channel[] | undefined;
        try {
          items = await list.reread(at);
        } catch (error) {
          // The platform is unreachable or refused the list: the next round tries again.
          return [error];
        }
        if (items === undefined || epoch !== this.source.epoch) return [];
        const loaded = new Map(this.loadedChannels().map((channel) => [channel.id, channel]));
        for (const channel of items) {
          seen.add(channel.id);
          const before = loaded.get(channel.id);
          if (!before || JSON.stringify(before) !== JSON.stringify(channel)) this.applyChannel(channel, epoch);
        }
      }
    }
    const failures: unknown[] = [];
    for (const channel of wanted) {
      if (seen.has(channel.id) || epoch !== this.source.epoch) continue;
      try {
        await this.refreshChannel(channel.id);
      } catch (error) {
        failures.push(error);
      }
    }
    return failures;
  }

  /**
   * Finds (loading further pages if needed) the node of a channel, for reveal. In grouped mode the
   * channel's category is read first.
   */
  async locateChannel(channelId: string): Promise<ChannelNode | undefined> {
    const epoch = this.source.epoch;
    let parent: CategoryNode | undefined;
    if (this.grouped) {
      const roots = await this.getChildren(undefined);
      const client = await this.source.activeClient();
      const channel = await client.liveGetChannelById(channelId);
      parent = roots.find(
        (node): node is CategoryNode =>
          node instanceof CategoryNode && (node.category?.id ?? null) === (channel.type || null),
      );
      if (!parent) return undefined;
    }
    for (let page = 0; page < MAX_REVEAL_PAGES && epoch === this.source.epoch; page++) {
      const children = await this.getChildren(parent);
      const found = children.find(
        (node): node is ChannelNode => node instanceof ChannelNode && node.channel.id === channelId,
      );
      if (found) return found;
      const list = parent ? this.categoryLists.get(parent) : this.rootList;
      if (!list || !list.hasMore || list.error !== undefined) return undefined;
      await list.loadMore();
      this.fire(parent);
    }
    return undefined;
  }
}
