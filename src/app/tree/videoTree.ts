import { Codes } from '../../api/errorCodes';
import { Emitter } from '../util/emitter';
import { l10n } from '../../l10n/l10n';
import { ApiError } from '../../api/errors';
import { pollEach } from './poller';
import type { Video } from '../../api/types';
import type { ClientSource } from './clientSource';
import { FilteredListModel, listTotal } from './filteredList';
import { describeVideoFilter, isEmptyFilter, videoQuery, type VideoFilter } from './filters';
import { listChildren } from './listChildren';
import { FaultMarks, RenditionNode, VideoNode, type TreeNode } from './nodes';
import { PagedList } from './pagedList';
import { isVideoSettling, type TranscodingSeen } from './videoPresentation';

const MAX_REVEAL_PAGES = 20;

/**
 * The Videos view without VS Code: paged queryVideo with the filter's sort, search, category and
 * status, renditions as children, in-place updates and the videos that the poller follows.
 */
export class VideoTreeModel extends FilteredListModel<VideoFilter> {
  private readonly list: PagedList<Video>;
  private nodes = new Map<string, VideoNode>();
  private readonly transient = new Map<string, string>();
  /** Items the local platform serves with stream faults (commands/streamFaults.ts). */
  private readonly faulted = new FaultMarks();
  /** The videos a command started, and whether each was seen settling (or known to be queued). */
  private readonly tracked = new Map<string, boolean>();
  /** Videos whose save-as transcoding was requested: when one settles, the list is read again for the new item. */
  private readonly savingAs = new Set<string>();
  private readonly settled = new Emitter<Video>();
  /** Whether the account has VR videos that the filter (normal videos only) hides; undefined: not known yet. */
  private hiddenVr: boolean | undefined;
  /** Titles of videos known here (sources of transcoded copies that are not loaded). */
  private readonly titles = new Map<string, string>();
  /**
   * Since when each video has been seen transcoding here, and what a command asked it to make: the platform tells
   * no progress, so the row says how long it has been going and what is being made.
   */
  private readonly settlingSince = new Map<string, number>();
  private readonly making = new Map<string, string>();
  /** The clock of the elapsed times (tests set it). */
  now: () => number = Date.now;

  constructor(
    source: ClientSource,
    private readonly pageSize: () => number,
  ) {
    super(source);
    this.list = new PagedList<Video>(
      async (page, size) => {
        const client = await this.source.activeClient();
        const filter = this.filter;
        const [items, vr] = await Promise.all([
          client.queryVideo(videoQuery(filter, page, size)),
          // queryVideo leaves VR videos out unless asked: one look tells whether the filter hides some.
          page === 1 && filter.videoType !== 1
            ? client.queryVideo({ ...videoQuery({}, 1, 1), videoType: 1 })
            : Promise.resolve(undefined),
        ]);
        if (vr !== undefined) this.hiddenVr = vr.length > 0;
        for (const video of items) this.titles.set(video.id, video.title || video.fileName);
        return { items };
      },
      this.pageSize,
      (video) => video.id,
    );
  }

  /** A tracked video (one a command started transcoding) finished, well or not. */
  readonly onSettled = this.settled.event;

  protected describeFilter(filter: VideoFilter): string {
    return describeVideoFilter(filter);
  }

  protected withoutAccountParts(filter: VideoFilter): VideoFilter {
    const { categoryId: _dropped, categoryName: _name, ...rest } = filter;
    return rest;
  }

  protected totalText(): string {
    return listTotal(
      this.list,
      (count, n) => (n === 1 ? l10n.t('1 video') : l10n.t('{0} videos', count)),
      (count) => l10n.t('{0}+ videos', count),
    );
  }

  protected override notes(): string[] {
    return this.hiddenVr && this.filter.videoType !== 1
      ? [l10n.t('VR videos hidden (Filter Videos > Show VR videos)')]
      : [];
  }

  /** The title of a transcoded copy's source, when known here. */
  sourceTitle(video: Video): string | undefined {
    return video.parentId ? this.titles.get(video.parentId) : undefined;
  }

  protected async children(node: TreeNode | undefined): Promise<TreeNode[]> {
    if (node === undefined) {
      if (!this.source.hasAccount) return [];
      return listChildren({
        list: this.list,
        parent: undefined,
        noun: l10n.t('videos'),
        filtered: !isEmptyFilter(this.filter),
        node: (video) => this.videoNode(video),
        changed: () => this.fire(undefined),
      });
    }
    if (node instanceof VideoNode)
      return node.video.transcodedVideoList.map((stream) => new RenditionNode(node, stream));
    return [];
  }

  /** How long the video has been transcoding as seen here, and what it makes when a command said so. */
  transcoding(video: Video): TranscodingSeen | undefined {
    if (!isVideoSettling(video)) {
      this.settlingSince.delete(video.id);
      this.making.delete(video.id);
      return undefined;
    }
    let since = this.settlingSince.get(video.id);
    if (since === undefined) this.settlingSince.set(video.id, (since = this.now()));
    const making = this.making.get(video.id);
    return { elapsedMs: Math.max(0, this.now() - since), ...(making !== undefined ? { making } : {}) };
  }

  /** What a transcoding of these videos makes ("template group "Mobile HLS""), for their rows while it runs. */
  describeJob(videoIds: readonly string[], making: string): void {
    for (const id of videoIds) {
      this.making.set(id, making);
      this.settlingSince.set(id, this.now());
    }
  }

  private videoNode(video: Video): VideoNode {
    let node = this.nodes.get(video.id);
    if (!node) {
      node = new VideoNode(
        video,
        (record) => this.sourceTitle(record),
        (record) => this.transcoding(record),
      );
      this.nodes.set(video.id, node);
    }
    node.video = video;
    node.transient = this.transient.get(video.id);
    node.faults = this.faulted.has(video.id);
    return node;
  }

  refresh(): void {
    this.hiddenVr = undefined;
    this.list.reset();
    this.nodes = new Map();
    this.fire(undefined);
  }

  /** Account switch: nothing of the old account survives. */
  reset(): void {
    this.transient.clear();
    this.keepFilterForAccount();
    this.tracked.clear();
    this.savingAs.clear();
    this.titles.clear();
    this.settlingSince.clear();
    this.making.clear();
    this.unseenRounds.clear();
    this.refresh();
  }

  loadedVideos(): readonly Video[] {
    return this.list.items;
  }

  applyVideo(video: Video, epoch: number): boolean {
    if (epoch !== this.source.epoch) return false;
    this.list.replace((item) => item.id === video.id, video);
    if (this.tracked.has(video.id)) {
      if (isVideoSettling(video)) {
        this.tracked.set(video.id, true);
      } else if (this.tracked.get(video.id)) {
        // Seen settling before and now done: tell whoever waits for it.
        this.tracked.delete(video.id);
        this.settled.fire(video);
        // Save as: the platform added a new item; read the list again so that it shows.
        if (this.savingAs.delete(video.id)) this.refresh();
      } else {
        // Not yet seen in a transcoding state: the platform may not have queued it yet.
        this.tracked.set(video.id, false);
        this.untrackIfStale(video.id);
      }
    }
    const node = this.nodes.get(video.id);
    if (node) {
      node.video = video;
      this.fire(node);
    }
    return true;
  }

  /** The items the local platform serves with stream faults now (all of the account's: the others lose the mark). */
  markFaulted(ids: Iterable<string>): void {
    this.faulted.mark(ids, this.nodes, (node) => this.fire(node));
  }

  /** A tracked video never seen transcoding is dropped after a few rounds. */
  private readonly unseenRounds = new Map<string, number>();
  private untrackIfStale(videoId: string): void {
    const rounds = (this.unseenRounds.get(videoId) ?? 0) + 1;
    this.unseenRounds.set(videoId, rounds);
    if (rounds >= 3) {
      this.tracked.delete(videoId);
      this.savingAs.delete(videoId);
      this.unseenRounds.delete(videoId);
    }
  }

  setTransient(videoId: string, text: string | undefined): void {
    if (text === undefined) this.transient.delete(videoId);
    else this.transient.set(videoId, text);
    const node = this.nodes.get(videoId);
    if (node) {
      node.transient = text;
      this.fire(node);
    }
  }

  /**
   * Follow these videos until they settle (after a transcoding request). `queued`: the platform said they
   * are queued (an upload's answer), so finding one already done still tells that it finished.
   */
  track(videoIds: readonly string[], epoch: number, queued = false, savingAs = false): void {
    if (epoch !== this.source.epoch) return;
    for (const id of videoIds) {
      this.tracked.set(id, queued);
      if (savingAs) this.savingAs.add(id);
    }
  }

  nodeOf(videoId: string): VideoNode | undefined {
    return this.nodes.get(videoId);
  }

  /**
   * Re-reads one video. A video the platform says no longer exists (deleted elsewhere) leaves the
   * view and is not followed any longer; the error is still thrown for the caller to report.
   */
  async refreshVideo(videoId: string): Promise<Video> {
    const epoch = this.source.epoch;
    const client = await this.source.activeClient();
    let video: Video;
    try {
      video = await client.getVideoInfo(videoId);
    } catch (error) {
      if (error instanceof ApiError && error.code === Codes.videoNotExists) this.removeVideo(videoId, epoch);
      throw error;
    }
    this.applyVideo(video, epoch);
    return video;
  }

  private removeVideo(videoId: string, epoch: number): void {
    if (epoch !== this.source.epoch) return;
    this.list.remove((video) => video.id === videoId);
    this.nodes.delete(videoId);
    this.tracked.delete(videoId);
    this.transient.delete(videoId);
    this.fire(undefined);
  }

  async refreshNode(node: TreeNode | undefined): Promise<void> {
    if (node instanceof VideoNode) await this.refreshVideo(node.video.id);
    else if (node instanceof RenditionNode) await this.refreshVideo(node.parent.video.id);
    else this.refresh();
  }

  settlingIds(): string[] {
    const ids = new Set(this.list.items.filter(isVideoSettling).map((video) => video.id));
    for (const id of this.tracked.keys()) ids.add(id);
    return [...ids];
  }

  hasSettling(): boolean {
    return this.settlingIds().length > 0;
  }

  /** One polling round: re-reads each followed video (pollEach: a refusal ends following it). */
  pollSettling(): Promise<unknown[]> {
    return pollEach(
      this.settlingIds(),
      (id) => this.refreshVideo(id),
      (id) => this.tracked.delete(id),
    );
  }

  async locateVideo(videoId: string): Promise<VideoNode | undefined> {
    const epoch = this.source.epoch;
    for (let page = 0; page < MAX_REVEAL_PAGES && epoch === this.source.epoch; page++) {
      const children = await this.getChildren(undefined);
      const found = children.find((node): node is VideoNode => node instanceof VideoNode && node.video.id === videoId);
      if (found) return found;
      if (!this.list.hasMore || this.list.error !== undefined) return undefined;
      await this.list.loadMore();
      this.fire(undefined);
    }
    return undefined;
  }
}
