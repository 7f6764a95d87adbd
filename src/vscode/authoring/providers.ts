/** Quick fixes of the problems, and completion of ids (with names) at id-valued fields. */
import * as vscode from 'vscode';
import { completionCandidates, referenceSiteAt } from '../../authoring/completion';
import { hoverMarkdown, idAt } from '../../authoring/hover';
import { documentKind } from '../../authoring/documentKind';
import { referenceLabel } from '../../authoring/references';
import type { TextRange } from '../../authoring/problems';
import { snippetDescription, snippetPrefixRange, snippetsOfferedAt } from '../../authoring/snippets';
import { DIAGNOSTIC_SOURCE, toRange, toWorkspaceEdit } from './convert';
import type { DocumentDiagnostics } from './diagnostics';
import type { ReferenceCache } from '../../app/authoring/referenceCache';
import { SELECT_AFTER_FIX } from './selector';

/** The command behind SELECT_AFTER_FIX (not in the palette: only quick fixes run it). */
export function selectAfterFix(uri: vscode.Uri, select: TextRange): void {
  const editor = vscode.window.visibleTextEditors.find(
    (candidate) => candidate.document.uri.toString() === uri.toString(),
  );
  if (!editor) return;
  const range = toRange(editor.document, select);
  editor.selection = new vscode.Selection(range.start, range.end);
  editor.revealRange(range);
}

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
      const problemRange = toRange(document, problem.range);
      if (!problemRange.intersection(range) && !problemRange.contains(range)) continue;
      const diagnostics = context.diagnostics.filter(
        (d) => d.source === DIAGNOSTIC_SOURCE && d.message === problem.message,
      );
      const offered = new Set<string>();
      for (const [fix, preferred] of [
        ...(problem.fix ? [[problem.fix, true] as const] : []),
        ...(problem.alternatives ?? []).map((alternative) => [alternative, false] as const),
      ]) {
        // An alternative making the same change as the preferred fix is offered once.
        const change = JSON.stringify(fix.edits);
        if (offered.has(change)) continue;
        offered.add(change);
        const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        action.edit = toWorkspaceEdit(document, fix.edits);
        if (fix.select)
          action.command = { command: SELECT_AFTER_FIX, title: fix.title, arguments: [document.uri, fix.select] };
        action.diagnostics = diagnostics;
        action.isPreferred = preferred;
        actions.push(action);
      }
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
      item.detail = `${referenceLabel(at.site.ref)} ${candidate.description}`;
      return item;
    });
  }
}

/** The `vp-` snippets of the document's kind (src/authoring/snippets.ts), only in the six kinds. */
export class AuthoringSnippets implements vscode.CompletionItemProvider {
  provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] {
    const kind = documentKind(document.fileName);
    if (!kind) return [];
    const text = document.getText();
    const offset = document.offsetAt(position);
    const range = toRange(document, snippetPrefixRange(text, offset));
    return snippetsOfferedAt(kind, text, offset).map((snippet) => {
      const item = new vscode.CompletionItem(snippet.prefix, vscode.CompletionItemKind.Snippet);
      item.insertText = new vscode.SnippetString(snippet.body);
      item.detail = snippetDescription(snippet);
      item.documentation = new vscode.MarkdownString().appendCodeblock(snippet.body, 'json');
      item.filterText = snippet.prefix;
      item.range = range;
      return item;
    });
  }
}

/** Hovers on ids: the record's name and main fields (src/authoring/hover.ts), from the account's lists. */
export class AuthoringHovers implements vscode.HoverProvider {
  constructor(private readonly references: ReferenceCache) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const kind = documentKind(document.fileName);
    if (!kind) return undefined;
    const at = idAt(kind, document.getText(), document.offsetAt(position));
    if (!at) return undefined;
    const lookup = await this.references.find(at.site.ref, at.id, at.site.byName, document.uri.toString());
    return new vscode.Hover(new vscode.MarkdownString(hoverMarkdown(at, lookup)), toRange(document, at.range));
  }
}
