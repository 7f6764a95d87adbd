import * as vscode from 'vscode';
import type { PanelOptions, PanelPort, WebPanel } from '../app/inspect/panels';

const VIEW_TYPES = {
  report: 'videoPlatform.inspectReport',
  preview: 'videoPlatform.preview',
  ladder: 'videoPlatform.ladder',
  health: 'videoPlatform.channelHealth',
} as const;

/**
 * The report and preview panels as VS Code webview panels: scripts on (the pages carry a nonce-only CSP),
 * local files only from the given folders (the preview files), nothing else.
 */
export function createWebPanels(subscriptions: vscode.Disposable[]): PanelPort {
  return {
    open(options: PanelOptions): WebPanel {
      const panel = vscode.window.createWebviewPanel(
        VIEW_TYPES[options.kind],
        options.title,
        { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
        {
          enableScripts: true,
          retainContextWhenHidden: options.kind !== 'preview',
          localResourceRoots: (options.folders ?? []).map((folder) => vscode.Uri.file(folder)),
        },
      );
      subscriptions.push(panel);
      return {
        get cspSource() {
          return panel.webview.cspSource;
        },
        resource: (path) => panel.webview.asWebviewUri(vscode.Uri.file(path)).toString(),
        setHtml: (html) => {
          panel.webview.html = html;
        },
        onMessage: (listener) => {
          subscriptions.push(panel.webview.onDidReceiveMessage(listener));
        },
        onDidDispose: (listener) => {
          subscriptions.push(panel.onDidDispose(listener));
        },
        reveal: () => panel.reveal(),
        dispose: () => panel.dispose(),
      };
    },
  };
}
