import * as vscode from 'vscode';
import type { CallbackTreeModel } from '../app/callbacks/callbackTree';
import type { TreeNode } from '../app/tree/nodes';
import type { ResourceTreeModel } from '../app/tree/resourceTree';
import type { Lazy } from '../app/util/onFirstUse';
import { ModelTreeProvider } from './treeAdapter';

export const RESOURCES_VIEW = 'videoPlatform.resources';

/** The Resources view: no poller (nothing in it settles) and no filter. */
export function createResourceView(model: Lazy<ResourceTreeModel>, subscriptions: vscode.Disposable[]): void {
  const provider = new ModelTreeProvider(model);
  const view: vscode.TreeView<TreeNode> = vscode.window.createTreeView(RESOURCES_VIEW, {
    treeDataProvider: provider,
    showCollapseAll: true,
  });
  subscriptions.push(provider, view);
}

export const CALLBACKS_VIEW = 'videoPlatform.callbacks';

/** How often the Callbacks view reads the delivery log again while it is visible. */
const CALLBACKS_REFRESH_MS = 3000;

/** The Callbacks view (src/app/callbacks/): no poller of its own; read again every few seconds while shown. */
export function createCallbacksView(model: Lazy<CallbackTreeModel>, subscriptions: vscode.Disposable[]): void {
  const provider = new ModelTreeProvider(model);
  const view: vscode.TreeView<TreeNode> = vscode.window.createTreeView(CALLBACKS_VIEW, { treeDataProvider: provider });
  let timer: NodeJS.Timeout | undefined;
  const follow = (visible: boolean): void => {
    clearInterval(timer);
    timer = visible ? setInterval(() => model.value.refresh(), CALLBACKS_REFRESH_MS) : undefined;
  };
  if (view.visible) follow(true);
  subscriptions.push(
    provider,
    view,
    view.onDidChangeVisibility((event) => follow(event.visible)),
    {
      dispose: () => clearInterval(timer),
    },
  );
}
