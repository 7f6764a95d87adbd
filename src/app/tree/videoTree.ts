import { Codes } from '../../api/errorCodes';
import { Emitter } from '../util/emitter';
import { ApiError } from '../../api/errors';
import type { Video } from '../../api/types';
import type { ClientSource } from './clientSource';
import { describeVideoFilter, isEmptyFilter, videoQuery, type VideoFilter } from './filters';
import { listChildren } from './listChildren';
import { RenditionNode, VideoNode, type TreeNode } from './nodes';
import { PagedList } from './pagedList';
import { isVideoSettling } from './videoPresentation';

const MAX_REVEAL_PAGES = 20;
/** getVideoInfo's answer for a video that is not (any longer) in the account. */

/**
 * The Videos view without VS Code: paged queryVideo with the filter's sort, search, category and
 * status, renditions as children, in-place updates and the videos that the poller follows.
 */
export class VideoTreeModel {
  private filterValue: VideoFilter = {};
  /** The account whose category the filter names (category ids are per account). */
  private filterAccount: string | undefined;
  private readonly changed = new Emitter<TreeNode | undefined>();
  private readonly loaded = new Emitter();
  private readonly list: PagedList<Video>;
  private nodes = new Map<string, VideoNode>();
  private readonly transient = new Map<string, string>();
  /** Videos that a command started transcoding: followed even when the filter hides them. */
  /** The videos a command started, and whether each was seen settling (or known to be queued). */
  private readonly tracked = new Map<string, boolean>();
  private readonly settled = new Emitter<Video>();

  constructor(
    private readonly source: ClientSource,
    private readonly pageSize: () => number,
  ) {
    this.list = new PagedList<Video>(
      async (page, size) => {
        const client = await this.source.activeClient();
        return { items: await client.queryVideo(videoQuery(this.filterValue, page, size)) };
      },
      this.pageSize,
      (video) => video.id,
    );
  }

  /** A node changed (undefined: the whole tree). */
  readonly onDidChange = this.changed.event;

  /** A tracked video (one a command started transcoding) finished, well or not. */
  readonly onSettled = this.settled.event;

  private fire(node: TreeNode | undefined): void {
    this.changed.fire(node);
  }

  get filter(): VideoFilter {
    return this.filterValue;
  }
  get filterText(): string {
    return describeVideoFilter(this.filterValue);
  }

  setFilter(filter: VideoFilter): void {
    this.filterValue = filter;
    this.filterAccount = this.source.accountId;
    this.refresh();
  }

  /** After items were loaded for the view (the poller looks for settling ones). */
  readonly onDidLoad = this.loaded.event;

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    const epoch = this.source.epoch;
    const children = await this.children(node);
    if (epoch === this.source.epoch) this.loaded.fire();
    return epoch === this.source.epoch ? children : [];
  }

  private async children(node: TreeNode | undefined): Promise<TreeNode[]> {
    if (node === undefined) {
      if (!this.source.hasAccount) return [];
      return listChildren({
        list: this.list,
        parent: undefined,
        noun: 'videos',
        filtered: !isEmptyFilter(this.filterValue),
        node: (video) => this.videoNode(video),
        changed: () => this.fire(undefined),
      });
    }
    if (node instanceof VideoNode)
      return node.video.transcodedVideoList.map((stream) => new RenditionNode(node, stream));
    return [];
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  private videoNode(video: Video): VideoNode {
    let node = this.nodes.get(video.id);
    if (!node) {
      node = new VideoNode(video);
      this.nodes.set(video.id, node);
    }
    node.video = video;
    node.transient = this.transient.get(video.id);
    return node;
  }

  refresh(): void {
    this.list.reset();
    this.nodes = new Map();
    this.fire(undefined);
  }

  /** Account switch: nothing of the old account survives. */
  reset(): void {
    this.transient.clear();
    if (this.filterValue.categoryId !== undefined && this.filterAccount !== this.source.accountId) {
      const { categoryId: _dropped, ...rest } = this.filterValue;
      this.filterValue = rest;
    }
    this.filterAccount = this.source.accountId;
    this.tracked.clear();
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

  /** A tracked video never seen transcoding is dropped after a few rounds. */
  private readonly unseenRounds = new Map<string, number>();
  private untrackIfStale(videoId: string): void {
    const rounds = (this.unseenRounds.get(videoId) ?? 0) + 1;
    this.unseenRounds.set(videoId, rounds);
    if (rounds >= 3) {
      this.tracked.delete(videoId);
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
  track(videoIds: readonly string[], epoch: number, queued = false): void {
    if (epoch !== this.source.epoch) return;
    for (const id of videoIds) this.tracked.set(id, queued);
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

  async pollSettling(): Promise<unknown[]> {
    const failures: unknown[] = [];
    for (const id of this.settlingIds()) {
      try {
        await this.refreshVideo(id);
      } catch (error) {
        failures.push(error);
        // A video that vanished (deleted elsewhere) is not followed any longer.
        this.tracked.delete(id);
      }
    }
    return failures;
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
