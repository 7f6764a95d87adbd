/**
 * The web panels the inspection commands show (the report, the preview), without VS Code:
 * src/vscode/webPanels.ts adapts VS Code's webview panels; test/app/helpers/harness.ts keeps them in memory.
 */
export interface WebPanel {
  /** The origins the page's own resources come from (the webview's `cspSource`). */
  readonly cspSource: string;
  /** The address by which the page loads a local file (the file must be under one of the panel's folders). */
  resource(path: string): string;
  setHtml(html: string): void;
  /** A message the page posted (`{ type: 'rerun' }`, `{ type: 'canPlay', ... }`). */
  onMessage(listener: (message: unknown) => void): void;
  /** The user closed the panel (or dispose() did). */
  onDidDispose(listener: () => void): void;
  reveal(): void;
  dispose(): void;
}

export interface PanelOptions {
  /** What the panel shows: one panel kind per purpose. */
  readonly kind: 'report' | 'preview' | 'ladder' | 'health';
  readonly title: string;
  /** Folders whose files the page may load (preview files). */
  readonly folders?: readonly string[];
}

export interface PanelPort {
  open(options: PanelOptions): WebPanel;
}
