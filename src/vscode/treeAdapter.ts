import * as vscode from 'vscode';
import { FetchTracker } from '../app/tree/fetchTracker';
import type { TreeNode } from '../app/tree/nodes';
import type { TooltipExtra } from '../app/health/tooltips';
import type { Stills } from '../app/tree/stills';
import type { Lazy } from '../app/util/onFirstUse';

/** A tree model as the adapter sees it (channelTree.ts, videoTree.ts). */
export interface TreeModel {
  getChildren(node?: TreeNode): Promise<TreeNode[]>;
  getParent(node: TreeNode): TreeNode | undefined;
  onDidChange(listener: (node: TreeNode | undefined) => void): { dispose(): void };
}

const COLLAPSIBLE = {
  none: vscode.TreeItemCollapsibleState.None,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  expanded: vscode.TreeItemCollapsibleState.Expanded,
} as const;

/** Turns a model's nodes into TreeItems; commands get the nodes themselves (VS Code passes the element). */
export class ModelTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private subscription: { dispose(): void } | undefined;
  private disposed = false;
  /** What VS Code has fetched since the last change: a reveal waits for it (see fetchTracker.ts). */
  readonly fetched = new FetchTracker<TreeNode>();

  /**
   * `stills`: a node with a still gets its tooltip when hovered (resolveTreeItem), picture embedded; `extra`: more
   * tooltip for the rows it applies to, also when hovered (a running channel's health). The model is made when VS
   * Code first asks for the items (or a command first uses it); its changes are followed from then.
   */
  constructor(
    private readonly model: Lazy<TreeModel>,
    private readonly stills?: Stills,
    private readonly extra?: TooltipExtra,
  ) {
    model.whenMade((made) => {
      if (this.disposed) return;
      this.subscription = made.onDidChange((node) => {
        if (node === undefined) this.fetched.rootChanged();
        this.changed.fire(node);
      });
    });
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const view = node.view();
    const item = new vscode.TreeItem(view.label, COLLAPSIBLE[view.collapsible]);
    if (view.id !== undefined) item.id = view.id;
    item.description = view.description;
    // With a still, the tooltip is left for resolveTreeItem: listing does not wait for pictures.
    if (view.tooltip && !(view.still && this.stills) && !this.extra?.applies(node))
      item.tooltip = new vscode.MarkdownString(view.tooltip);
    if (view.icon)
      item.iconPath = new vscode.ThemeIcon(
        view.icon.id,
        view.icon.color ? new vscode.ThemeColor(view.icon.color) : undefined,
      );
    item.contextValue = view.contextValue;
    if (view.command) item.command = { command: view.command.command, title: view.command.title, arguments: [node] };
    return item;
  }

  async resolveTreeItem(item: vscode.TreeItem, node: TreeNode): Promise<vscode.TreeItem> {
    const view = node.view();
    if (item.tooltip === undefined && (this.stills || this.extra)) {
      const [tooltip, more] = await Promise.all([
        this.stills ? this.stills.tooltip(view) : view.tooltip,
        this.extra?.applies(node) ? this.extra.text(node) : undefined,
      ]);
      const text = [tooltip, more].filter(Boolean).join('\n\n');
      if (text) item.tooltip = new vscode.MarkdownString(text);
    }
    return item;
  }

  getChildren(node?: TreeNode): Promise<TreeNode[]> {
    return this.fetched.track(node, this.model.value.getChildren(node));
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return this.model.value.getParent(node);
  }

  dispose(): void {
    this.disposed = true;
    this.subscription?.dispose();
    this.changed.dispose();
  }
}
