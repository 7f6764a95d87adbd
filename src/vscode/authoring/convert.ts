/** Offsets and problems of src/authoring as VS Code ranges, diagnostics and edits. */
import * as vscode from 'vscode';
import type { Problem, Severity, TextEdit, TextRange } from '../../authoring/problems';

export const DIAGNOSTIC_SOURCE = 'Video Platform';

export function toRange(document: vscode.TextDocument, range: TextRange): vscode.Range {
  return new vscode.Range(document.positionAt(range.offset), document.positionAt(range.offset + range.length));
}

// Looked up when used, never at load: the bundle must load before VS Code's API is complete (tests' seams).
function severityOf(severity: Severity): vscode.DiagnosticSeverity {
  switch (severity) {
    case 'error':
      return vscode.DiagnosticSeverity.Error;
    case 'warning':
      return vscode.DiagnosticSeverity.Warning;
    case 'info':
      return vscode.DiagnosticSeverity.Information;
  }
}

export function toDiagnostic(document: vscode.TextDocument, problem: Problem): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(
    toRange(document, problem.range),
    problem.message,
    severityOf(problem.severity),
  );
  diagnostic.source = DIAGNOSTIC_SOURCE;
  if (problem.code) diagnostic.code = problem.code;
  return diagnostic;
}

export function toWorkspaceEdit(document: vscode.TextDocument, edits: readonly TextEdit[]): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  for (const e of edits) edit.replace(document.uri, toRange(document, e), e.newText);
  return edit;
}
