import * as vscode from 'vscode';
import type { TreeNode } from '../app/tree/nodes';
import type { ResourceTreeModel } from '../app/tree/resourceTree';
import { ModelTreeProvider } from './treeAdapter';

export const RESOURCES_VIEW = 'videoPlatform.resources';

/** The Resources view: no poller (nothing in it settles) and no filter. */
export function createResourceView(model: ResourceTreeModel, subscriptions: vscode.Disposable[]): void {
  const provider = new ModelTreeProvider(model);
  const view: vscode.TreeView<TreeNode> = vscode.window.createTreeView(RESOURCES_VIEW, {
    treeDataProvider: provider,
    showCollapseAll: true,
  });
  subscriptions.push(provider, view);
}
