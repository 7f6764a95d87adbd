import { Emitter } from '../util/emitter';
import type { ClientSource } from './clientSource';
import type { TreeNode } from './nodes';
import type { PagedList } from './pagedList';

/** "10,000": the same separators in every locale the views are shown in (English, Chinese). */
export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

/**
 * A list's total for the description: the platform's count when it tells one, else the records loaded
 * ("1,600+" while more pages follow); empty before the first page or after a failure.
 */
export function listTotal<T>(
  list: PagedList<T>,
  all: (count: string, n: number) => string,
  atLeast: (count: string) => string,
): string {
  if (!list.started || list.error !== undefined) return '';
  const total = list.totalCount;
  if (total !== undefined) return all(formatCount(total), total);
  const loaded = list.items.length;
  return list.hasMore ? atLeast(formatCount(loaded)) : all(formatCount(loaded), loaded);
}

/**
 * What the Live channels and Videos models share: a filter bound to the account it was set for (its
 * category ids mean nothing in another account), the change and load events, answers from before an
 * account switch dropped, and the view's description (totals, then the filter in force).
 */
export abstract class FilteredListModel<F extends object> {
  private filterValue: F = {} as F;
  /** The account the filter was set for. */
  private filterAccount: string | undefined;
  protected readonly changed = new Emitter<TreeNode | undefined>();
  protected readonly loaded = new Emitter();

  constructor(protected readonly source: ClientSource) {}

  /** A node changed (undefined: the whole tree). */
  readonly onDidChange = this.changed.event;
  /** After items were loaded for the view (the poller looks for settling ones, the view's description follows). */
  readonly onDidLoad = this.loaded.event;

  protected fire(node: TreeNode | undefined): void {
    this.changed.fire(node);
  }

  get filter(): F {
    return this.filterValue;
  }

  /** The filter in force, in words; empty when nothing is set (the view's "filtered" context key). */
  get filterText(): string {
    return this.describeFilter(this.filterValue);
  }

  /** For the view's `description`: the totals, then the filter in force ("10,000 channels · live only"). */
  get description(): string {
    return [this.totalText(), this.filterText, ...this.notes()].filter(Boolean).join(' · ');
  }

  setFilter(filter: F): void {
    this.filterValue = filter;
    this.filterAccount = this.source.accountId;
    this.refresh();
  }

  /** Clear Filter (and an account switch, through helper code that calls it): no filter, no grouping. */
  clearFilter(): void {
    this.filterValue = {} as F;
    this.filterAccount = this.source.accountId;
    this.clearArrangement();
    this.refresh();
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    const epoch = this.source.epoch;
    const children = await this.children(node);
    if (epoch === this.source.epoch) this.loaded.fire();
    // An account switch while loading: the view asks again, so answer nothing from the old account.
    return epoch === this.source.epoch ? children : [];
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  /** After an account switch: the parts of the filter that name the old account's records are dropped. */
  protected keepFilterForAccount(): void {
    if (this.filterAccount !== this.source.accountId) this.filterValue = this.withoutAccountParts(this.filterValue);
    this.filterAccount = this.source.accountId;
  }

  protected abstract children(node: TreeNode | undefined): Promise<TreeNode[]>;
  protected abstract describeFilter(filter: F): string;
  /** The filter without what is per account (category ids). */
  protected abstract withoutAccountParts(filter: F): F;
  /** "10,000 channels", "1,600+ videos", or empty before the first page. */
  protected abstract totalText(): string;
  /** What else the description says (records that the filter hides). */
  protected notes(): string[] {
    return [];
  }
  /** Arrangement that Clear Filter also resets (grouping). */
  protected clearArrangement(): void {}
  abstract refresh(): void;
}
