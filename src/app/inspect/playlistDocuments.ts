import type { PlaylistProblem } from '../../inspector/playlistProblems';
// Through the inspection part (dist/lazy/inspect.js): loaded when the first playlist document is checked, so that
// activation does not carry the check families.
import { playlistProblems } from '../commands/inspectCommands';
import type { EditorDocument } from '../context';

/** Where the problems of `.m3u8` documents are shown (VS Code: a DiagnosticCollection in the Problems panel). */
export type PlaylistProblemsSink = (uri: string, problems: readonly PlaylistProblem[]) => void;

/** Pause after the last change before a playlist is checked again. */
export const PLAYLIST_CHECK_DELAY_MS = 300;

export function isPlaylistDocument(fileName: string): boolean {
  return /\.m3u8?$/i.test(fileName);
}

/**
 * The Problems of open HLS playlists: playlistProblems (src/inspector/playlistProblems.ts) on open, on change
 * (debounced) and cleared on close.
 */
export class PlaylistDocuments {
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
  constructor(private readonly sink: PlaylistProblemsSink) {}

  /** Checks now; other documents are left alone. Returns the problems (undefined: not a playlist). */
  check(document: EditorDocument): readonly PlaylistProblem[] | undefined {
    if (!isPlaylistDocument(document.fileName)) return undefined;
    this.cancel(document.uri);
    const problems = playlistProblems(document.text(), document.uri);
    this.sink(document.uri, problems);
    return problems;
  }

  /** After an edit: checked once the typing pauses. */
  changed(document: EditorDocument): void {
    if (!isPlaylistDocument(document.fileName)) return;
    this.cancel(document.uri);
    this.pending.set(
      document.uri,
      setTimeout(() => {
        this.pending.delete(document.uri);
        this.check(document);
      }, PLAYLIST_CHECK_DELAY_MS),
    );
  }

  closed(uri: string): void {
    this.cancel(uri);
    this.sink(uri, []);
  }

  dispose(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }

  private cancel(uri: string): void {
    const timer = this.pending.get(uri);
    if (timer) clearTimeout(timer);
    this.pending.delete(uri);
  }
}
