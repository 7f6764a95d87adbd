/** Quick fixes of the problems, and completion of ids (with names) at id-valued fields. */
import * as vscode from 'vscode';
import { completionCandidates, referenceSiteAt } from '../../authoring/completion';
import { documentKind } from '../../authoring/documentKind';
import { REFERENCE_LABELS } from '../../authoring/references';
import { DIAGNOSTIC_SOURCE, toRange, toWorkspaceEdit } from './convert';
import type { DocumentDiagnostics } from './diagnostics';
import type { ReferenceCache } from '../../app/authoring/referenceCache';

/** The documents the providers serve: JSON files of the six kinds (untitled ones too). */
export const AUTHORING_SELECTOR: vscode.DocumentSelector = [
  'channel',
  'templategroup',
  'logogroup',
  'transcode',
  'livetemplate',
  'livelogo',
].flatMap((kind) => [
  { language: 'json', pattern: `**/*.${kind}.json` },
  { language: 'jsonc', pattern: `**/*.${kind}.json` },
]);

export class AuthoringCodeActions implements vscode.CodeActionProvider {
  constructor(private readonly diagnostics: DocumentDiagnostics) {}

  provideCodeActions(
    document: vscode.TextDocument,
    range: vscode.Range | vscode.Selection,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    if (!documentKind(document.fileName)) return [];
    const actions: vscode.CodeAction[] = [];
    for (const problem of this.diagnostics.problems(document)) {
      if (!problem.fix) continue;
      const problemRange = toRange(document, problem.range);
      if (!problemRange.intersection(range) && !problemRange.contains(range)) continue;
      const action = new vscode.CodeAction(problem.fix.title, vscode.CodeActionKind.QuickFix);
      action.edit = toWorkspaceEdit(document, problem.fix.edits);
      action.diagnostics = context.diagnostics.filter(
        (d) => d.source === DIAGNOSTIC_SOURCE && d.message === problem.message,
      );
      action.isPreferred = true;
      actions.push(action);
    }
    return actions;
  }
}

export class AuthoringCompletions implements vscode.CompletionItemProvider {
  constructor(private readonly references: ReferenceCache) {}

  async provideCompletionItems(
    document: vscode.TextDocument,
    position: vscode.Position,
  ): Promise<vscode.CompletionItem[]> {
    const kind = documentKind(document.fileName);
    if (!kind) return [];
    const at = referenceSiteAt(kind, document.getText(), document.offsetAt(position));
    if (!at) return [];
    const list = await this.references.list(at.site.ref, document.uri.toString());
    if (!list) return [];
    const range = toRange(document, at.range);
    return completionCandidates(at.site, list.items).map((candidate, index) => {
      const item = new vscode.CompletionItem(
        { label: candidate.label, description: candidate.description },
        vscode.CompletionItemKind.Reference,
      );
      item.insertText = candidate.insertText;
      item.filterText = candidate.filterText;
      item.range = range;
      item.sortText = String(index).padStart(5, '0');
      item.detail = `${REFERENCE_LABELS[at.site.ref]} ${candidate.description}`;
      return item;
    });
  }
}
