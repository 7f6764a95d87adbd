import * as vscode from 'vscode';
import type { PlaylistProblemsSink } from '../app/inspect/playlistDocuments';

function severity(level: 'error' | 'warning' | 'info'): vscode.DiagnosticSeverity {
  return level === 'error'
    ? vscode.DiagnosticSeverity.Error
    : level === 'warning'
      ? vscode.DiagnosticSeverity.Warning
      : vscode.DiagnosticSeverity.Information;
}

/** The Problems of open `.m3u8` documents: one DiagnosticCollection, fed by src/app/inspect/playlistDocuments.ts. */
export function createPlaylistDiagnostics(subscriptions: vscode.Disposable[]): PlaylistProblemsSink {
  const collection = vscode.languages.createDiagnosticCollection('videoPlatform.hls');
  subscriptions.push(collection);
  return (uri, problems) => {
    const target = vscode.Uri.parse(uri);
    if (problems.length === 0) {
      collection.delete(target);
      return;
    }
    collection.set(
      target,
      problems.map((problem) => {
        const range = new vscode.Range(problem.line, problem.startColumn, problem.line, problem.endColumn);
        const diagnostic = new vscode.Diagnostic(range, problem.message, severity(problem.severity));
        diagnostic.code = problem.code;
        diagnostic.source = 'HLS';
        return diagnostic;
      }),
    );
  };
}
