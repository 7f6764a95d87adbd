/**
 * How a tree node looks, without VS Code types: treeAdapter.ts turns it into a vscode.TreeItem
 * (icon -> ThemeIcon + ThemeColor, tooltip -> MarkdownString).
 */
export interface NodeIcon {
  /** Codicon id, e.g. `broadcast` or `sync~spin`. */
  readonly id: string;
  /** Theme colour id, e.g. `charts.green`. */
  readonly color?: string;
}

export interface NodeCommand {
  readonly command: string;
  readonly title: string;
}

export interface NodeView {
  readonly label: string;
  readonly description?: string;
  /** Markdown text. */
  readonly tooltip?: string;
  readonly icon?: NodeIcon;
  /**
   * Flags joined with `+` (GitLens style) so that `when` clauses match with a regular expression.
   * channel+<new|stopped|live|pulling|starting>[+hls][+rtmp]+<push|pull>[+busy]
   * outputGroup+<hls|rtmp>[+record][+timeshift][+encrypted][+logo]
   * output+<hls|rtmp>[+default]
   * category, uncategorised
   * video+<uploaded|transcoding|done|failed|uploadFailed|unknownType|queued>[+second][+vr][+busy]
   *   (status 6, a second transcoding, is `video+transcoding+second`)
   * rendition[+hls][+mp4][+flv][+ts][+default]
   * loadMore, error, message
   */
  readonly contextValue: string;
  readonly collapsible: 'none' | 'collapsed' | 'expanded';
  /** Run on click (Load more, Retry); the node itself is the argument. */
  readonly command?: NodeCommand;
  /** Stable id within the view (keeps expansion across refreshes); undefined for transient rows. */
  readonly id?: string;
}

/** Escapes text from the platform before it goes into Markdown. */
export function md(text: string | null | undefined): string {
  return (text ?? '').replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (character) => `\\${character}`);
}

/**
 * A still in a tooltip: the picture at `url` (the channel thumbnail or video cover address the platform lists),
 * 240 pixels wide (VS Code's `|width=` suffix). Only plain http(s) addresses: nothing else reaches the Markdown.
 */
export function stillMarkdown(url: string | null | undefined): string | undefined {
  if (!url || !/^https?:\/\/[^\s<>()|]+$/i.test(url)) return undefined;
  return `![still](${url}|width=240)`;
}
