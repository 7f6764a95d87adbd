import * as vscode from 'vscode';
import type { TreeNode } from '../app/tree/nodes';
import type { Poller } from '../app/tree/poller';
import type { TooltipExtra } from '../app/health/tooltips';
import type { Stills } from '../app/tree/stills';
import type { Lazy } from '../app/util/onFirstUse';
import { ModelTreeProvider, type TreeModel } from './treeAdapter';

export const CHANNELS_VIEW = 'videoPlatform.channels';
export const VIDEOS_VIEW = 'videoPlatform.videos';

export interface View {
  readonly view: vscode.TreeView<TreeNode>;
  readonly provider: ModelTreeProvider;
}

/** A view's model as the view follows it: its items, its filter in words, its totals. */
type ViewModel = TreeModel & {
  readonly filterText: string;
  /** Totals and the filter in force; the filter text when the model has none. */
  readonly description?: string;
  readonly onDidLoad?: (listener: () => void) => { dispose(): void };
};

/**
 * Creates a tree view over a model, its poller following visibility, and its filter description. The model and its
 * poller are made on first use (VS Code asks for the items, or a command uses them), and followed from then.
 */
export function createView(
  id: string,
  model: Lazy<ViewModel>,
  poller: Lazy<Poller>,
  filteredKey: string,
  subscriptions: vscode.Disposable[],
  stills?: Stills,
  extra?: TooltipExtra,
): View {
  const provider = new ModelTreeProvider(model, stills, extra);
  const view = vscode.window.createTreeView(id, {
    treeDataProvider: provider,
    canSelectMany: true,
    showCollapseAll: true,
  });
  subscriptions.push(
    provider,
    view,
    view.onDidChangeVisibility((event) => poller.ifMade?.setVisible(event.visible)),
  );
  // A poller starts as if shown: told when it is made that the view is hidden.
  poller.whenMade((made) => {
    if (!view.visible) made.setVisible(false);
  });
  model.whenMade((made) => followModel(view, made, poller.value, filteredKey, subscriptions));
  return { view, provider };
}

/**
 * The view's description and "filtered" context key follow the model's changes and loads, and each change kicks the
 * poller. Nothing is described when the model is made: a new model has no filter and no totals (an unset context
 * key is false, as "filtered" would be).
 */
function followModel(
  view: vscode.TreeView<TreeNode>,
  model: ViewModel,
  poller: Poller,
  filteredKey: string,
  subscriptions: vscode.Disposable[],
): void {
  const describe = (): void => {
    view.description = (model.description ?? model.filterText) || undefined;
    // Only a closing window refuses a context key; the view goes with it.
    vscode.commands.executeCommand('setContext', filteredKey, model.filterText !== '').then(undefined, () => undefined);
  };
  subscriptions.push(
    model.onDidChange((node) => {
      if (node === undefined) describe();
      poller.kick();
    }),
  );
  // The totals are known once a page has come back.
  if (model.onDidLoad) subscriptions.push(model.onDidLoad(describe));
}

/** How long a reveal waits for VS Code to fetch the refreshed tree, and then for the selection to show. */
const REVEAL_WAIT_MS = 3_000;
const REVEAL_CONFIRM_MS = 1_000;

/** Resolves true once the view's selection holds the node (by its item id), or false after timeoutMs. */
function whenSelected(view: vscode.TreeView<TreeNode>, node: TreeNode, timeoutMs: number): Promise<boolean> {
  const id = node.view().id;
  const selected = (): boolean =>
    view.selection.some((candidate) => candidate === node || (id !== undefined && candidate.view().id === id));
  if (selected()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (value: boolean): void => {
      clearTimeout(timer);
      subscription.dispose();
      resolve(value);
    };
    const timer = setTimeout(() => done(selected()), timeoutMs);
    const subscription = view.onDidChangeSelection(() => {
      if (selected()) done(true);
    });
  });
}

/**
 * Reveals, selects and focuses a node. VS Code ignores a reveal of an element it has not fetched and shown
 * yet (a channel created a moment ago: the tree refreshed, but not yet read again), and says nothing; so this
 * waits until VS Code has read the tree again, reveals, and tries again while the selection does not follow.
 * A hidden view is read only once the reveal has opened it.
 */
export async function revealNode({ view, provider }: View, node: TreeNode): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (view.visible) await provider.fetched.whenFetched(node.parent, REVEAL_WAIT_MS);
    await view.reveal(node, { select: true, focus: true });
    if (await whenSelected(view, node, REVEAL_CONFIRM_MS)) return;
  }
}
