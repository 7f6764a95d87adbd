/**
 * The VS Code side of configuration as code (issue 27), thin: the Configuration Plan view over the last plan's rows
 * (src/app/configs/planTree.ts), drift in the Explorer (file decorations) and in the Problems panel (one line per
 * drifted or refused file) with the quick fixes "take the platform's version" and "plan to put mine back", and the
 * watch of the workspace's pulled folders (the ones holding a state file).
 */
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import type { AppContext } from '../app/context';
import { CONFIGS_IN_USE_KEY } from '../app/contextKeys';
import { inBackground } from '../app/failures';
import { configsPart, whenConfigsLoaded } from '../app/configs/lazy';
import type { PlanRow } from '../app/configs/planTree';
import { lazyPart } from '../app/lazyPart';
import type * as Drift from './configsDrift';
import { STATE_FILE } from '../app/configs/stateFile';
import { l10n } from '../l10n/l10n';

/** The drift's decorations and problems, a part of its own loaded with configuration as code (scripts/build.mjs). */
const driftPart = lazyPart('configsDrift', () => require('./configsDrift') as typeof Drift);

export const CONFIG_PLAN_VIEW = 'videoPlatform.configPlan';
export const DRIFT_CODE = 'videoPlatform.drift';

class PlanTreeProvider implements vscode.TreeDataProvider<PlanRow> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  rows: PlanRow[] = [];

  show(rows: PlanRow[]): void {
    this.rows = rows;
    this.changed.fire();
  }

  getChildren(row?: PlanRow): PlanRow[] {
    return row ? row.children : this.rows;
  }

  getTreeItem(row: PlanRow): vscode.TreeItem {
    const item = new vscode.TreeItem(
      row.label,
      row.children.length > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
    );
    item.description = row.description;
    item.tooltip = row.tooltip;
    if (row.icon) item.iconPath = new vscode.ThemeIcon(row.icon);
    if (row.path) {
      item.resourceUri = vscode.Uri.file(row.path);
      item.command = { command: 'vscode.open', title: l10n.t('Open'), arguments: [vscode.Uri.file(row.path)] };
    }
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** The quick fixes of a drifted file's problem. */
class DriftFixes implements vscode.CodeActionProvider {
  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const drift = context.diagnostics.find((d) => d.code === DRIFT_CODE);
    if (!drift) return [];
    // The file's URI: the shell's command arguments (extension.ts commandArgs) read a URI as the clicked file; a
    // plain object would arrive as a tree node, and the command would not know the file.
    const args = document.uri;
    const take = new vscode.CodeAction(l10n.t("Take the platform's version"), vscode.CodeActionKind.QuickFix);
    take.command = { command: 'videoPlatform.takePlatformVersion', title: take.title, arguments: [args] };
    take.diagnostics = [drift];
    const putBack = new vscode.CodeAction(l10n.t('Plan to put mine back'), vscode.CodeActionKind.QuickFix);
    putBack.command = { command: 'videoPlatform.planToPutMineBack', title: putBack.title, arguments: [args] };
    putBack.diagnostics = [drift];
    return [take, putBack];
  }
}

/**
 * The plan view, the drift's decorations, problems and quick fixes. The part behind them (src/app/configs/lazy.ts)
 * is loaded on first use: a command of it, or a pulled folder in the workspace, which also starts the drift watch.
 */
export function registerConfigs(ctx: AppContext, subscriptions: vscode.Disposable[]): void {
  const tree = new PlanTreeProvider();
  const view = vscode.window.createTreeView(CONFIG_PLAN_VIEW, { treeDataProvider: tree, showCollapseAll: true });
  // The Problems collection is there from activation on; what fills it (./configsDrift.ts) comes with the part.
  const driftProblems = vscode.languages.createDiagnosticCollection('videoPlatform.configs');
  const inUse = (): void =>
    inBackground(
      ctx.log,
      `Setting ${CONFIGS_IN_USE_KEY}`,
      vscode.commands.executeCommand('setContext', CONFIGS_IN_USE_KEY, true),
    );
  subscriptions.push(
    tree,
    view,
    driftProblems,
    vscode.languages.registerCodeActionsProvider({ scheme: 'file', pattern: '**/*.json' }, new DriftFixes(), {
      providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
    }),
  );
  // Once loaded (by a command or by the pulled folders below), the view and the drift follow the part's service.
  let disposed = false;
  subscriptions.push({ dispose: () => void (disposed = true) });
  whenConfigsLoaded(({ configsOf, planRows }) => {
    if (disposed) return;
    const service = configsOf(ctx);
    const drift = new (driftPart().DriftPresentation)(driftProblems);
    subscriptions.push(
      drift,
      vscode.window.registerFileDecorationProvider(drift),
      service.onDidChangePlan((plan) => {
        if (plan) inUse();
        tree.show(planRows(plan));
        view.description = plan ? plan.dir.split(/[\\/]/).pop() : undefined;
      }),
      service.onDidChangeDrift(() => drift.show(service.folderDrifts)),
      ctx.connection.onDidChange(() => void service.compareAll()),
      { dispose: () => service.dispose() },
    );
  });
  // The workspace's pulled folders, and those pulled later: only they load the part and start the drift watch.
  const watchStateFiles = (uris: readonly vscode.Uri[]): void => {
    if (uris.length === 0 || disposed) return;
    inUse();
    configsPart()
      .configsOf(ctx)
      .watch(uris.map((uri) => dirname(uri.fsPath)));
  };
  void vscode.workspace.findFiles(`**/${STATE_FILE}`, '**/node_modules/**', 50).then(watchStateFiles);
  const watcher = vscode.workspace.createFileSystemWatcher(`**/${STATE_FILE}`);
  subscriptions.push(
    watcher,
    watcher.onDidCreate((uri) => watchStateFiles([uri])),
  );
}
