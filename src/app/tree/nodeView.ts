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
  /** A picture shown at the end of the tooltip (stills.ts embeds it when the tooltip is shown). */
  readonly still?: string;
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
 * The address of a still for a tooltip (the channel thumbnail or video cover the platform lists): plain
 * http(s) addresses only. The tree adapter downloads it when the tooltip is shown (stills.ts).
 */
export function stillAddress(url: string | null | undefined): string | undefined {
  return url && /^https?:\/\/[^\s<>()|]+$/i.test(url) ? url : undefined;
}
