import type { PlatformClient } from '../../api/client';
import { l10n } from '../../l10n/l10n';
import { Emitter } from '../util/emitter';
import type { ClientSource } from './clientSource';
import { listChildren } from './listChildren';
import type { TreeNode } from './nodes';
import { PagedList } from './pagedList';
import {
  RESOURCE_KINDS,
  resourceId,
  resourceWords,
  ResourceNode,
  ResourceSectionNode,
  type Resource,
  type ResourceKind,
} from './resourceNodes';

/** Reads one whole list with its list operation (none of them is paged by the platform). */
export async function listResources(client: PlatformClient, kind: ResourceKind): Promise<Resource[]> {
  switch (kind) {
    case 'templateGroup':
      return (await client.templateGroupList()).map((record) => ({ kind, record }));
    case 'logoGroup':
      return (await client.getLogoGroupList()).map((record) => ({ kind, record }));
    case 'liveTemplate':
      return (await client.liveGetTemplates()).map((record) => ({ kind, record }));
    case 'liveLogo':
      return (await client.liveLogoList()).map((record) => ({ kind, record }));
    case 'channelCategory':
      return (await client.liveChannelTypeList()).map((record) => ({ kind, record }));
  }
}

/** One section's cache: the whole list, read once, shown a page at a time ("Load more"). */
class Section {
  readonly node: ResourceSectionNode;
  readonly list: PagedList<Resource>;
  /** The whole list as last read; undefined until read (and after a refresh). */
  all: Resource[] | undefined;
  readonly nodes = new Map<string, ResourceNode>();

  constructor(
    readonly kind: ResourceKind,
    source: ClientSource,
    pageSize: () => number,
  ) {
    this.node = new ResourceSectionNode(kind, () => this.all?.length);
    this.list = new PagedList<Resource>(
      async (page, size) => {
        if (page === 1 || !this.all) this.all = await listResources(await source.activeClient(), kind);
        return { items: this.all.slice((page - 1) * size, page * size), total: this.all.length };
      },
      pageSize,
      resourceId,
    );
  }

  reset(): void {
    this.all = undefined;
    this.list.reset();
    this.nodes.clear();
  }
}

/**
 * The Resources view without VS Code: template groups, logo groups, live templates, live logos and channel
 * categories, one section each. A section reads its list when first opened and keeps it until Refresh (or an
 * account switch), showing a page-size slice at a time.
 */
export class ResourceTreeModel {
  private readonly changed = new Emitter<TreeNode | undefined>();
  private readonly sections: ReadonlyMap<ResourceKind, Section>;

  constructor(
    private readonly source: ClientSource,
    pageSize: () => number,
  ) {
    this.sections = new Map(RESOURCE_KINDS.map((kind) => [kind, new Section(kind, source, pageSize)]));
  }

  /** A node changed (undefined: the whole tree). */
  readonly onDidChange = this.changed.event;

  /** The view has no filter; the description stays empty. */
  readonly filterText = '';

  section(kind: ResourceKind): ResourceSectionNode {
    return this.sections.get(kind)!.node;
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (!this.source.hasAccount) return [];
    const epoch = this.source.epoch;
    const children = await this.children(node);
    return epoch === this.source.epoch ? children : [];
  }

  private async children(node: TreeNode | undefined): Promise<TreeNode[]> {
    if (node === undefined) return [...this.sections.values()].map((section) => section.node);
    if (!(node instanceof ResourceSectionNode)) return [];
    const section = this.sections.get(node.resourceKind)!;
    const words = resourceWords(section.kind);
    const countBefore = section.all?.length;
    const children = await listChildren({
      list: section.list,
      parent: node,
      node: (resource) => {
        // The same node object across Load more, so VS Code keeps the selection.
        const key = resourceId(resource);
        const known = section.nodes.get(key);
        if (known && known.resource === resource) return known;
        const made = new ResourceNode(node, resource);
        section.nodes.set(key, made);
        return made;
      },
      noun: words.section.toLowerCase(),
      filtered: false,
      empty: l10n.t('No {0} yet', words.section.toLowerCase()),
      changed: () => this.changed.fire(node),
    });
    // The section's description shows the count: drawn again once it is known or has changed (the next
    // reading finds the same count and stops there).
    if (section.all?.length !== countBefore) this.changed.fire(node);
    return children;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  /** The records of a section, read now if the view has not read them (a palette pick). */
  async records(kind: ResourceKind): Promise<readonly Resource[]> {
    const section = this.sections.get(kind)!;
    if (section.all) return section.all;
    return listResources(await this.source.activeClient(), kind);
  }

  /** Reads one section again (all of them without `kind`). */
  refresh(kind?: ResourceKind): void {
    if (kind) {
      const section = this.sections.get(kind)!;
      section.reset();
      this.changed.fire(section.node);
      return;
    }
    for (const section of this.sections.values()) section.reset();
    this.changed.fire(undefined);
  }

  /** A new account: nothing of the old one may show. */
  reset(): void {
    this.refresh();
  }
}
