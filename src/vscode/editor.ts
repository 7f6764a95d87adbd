import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TextEdit } from '../authoring/problems';
import type { DiffSide, EditorDocument, EditorPort } from '../app/context';
import { toWorkspaceEdit } from './authoring/convert';

/** A VS Code document as the application sees it; the adapters get the TextDocument back from it. */
class VscodeDocument implements EditorDocument {
  constructor(readonly document: vscode.TextDocument) {}
  get uri(): string {
    return this.document.uri.toString();
  }
  get fileName(): string {
    return this.document.fileName;
  }
  get isDirty(): boolean {
    return this.document.isDirty;
  }
  get isUntitled(): boolean {
    return this.document.isUntitled;
  }
  text(): string {
    return this.document.getText();
  }
}

/** A VS Code document as the application's. */
export function wrapDocument(document: vscode.TextDocument): EditorDocument {
  return new VscodeDocument(document);
}

/** The TextDocument behind an application document (made here, or one open under its URI). */
export function textDocumentOf(document: EditorDocument): vscode.TextDocument | undefined {
  if (document instanceof VscodeDocument) return document.document;
  return vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === document.uri);
}

/** A free untitled path for the document, in the first workspace folder (or the temp folder). */
function untitledUri(fileName: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? tmpdir();
  const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.fsPath));
  // "News.channel.json", then "News (2).channel.json": the kind's suffix stays last.
  const suffix = /\.[a-z]+\.json$/i.exec(fileName)?.[0] ?? '';
  const base = fileName.slice(0, fileName.length - suffix.length);
  for (let n = 1; ; n++) {
    const path = join(folder, n === 1 ? fileName : `${base} (${n})${suffix}`);
    if (!existsSync(path) && !open.has(path)) return vscode.Uri.file(path).with({ scheme: 'untitled' });
  }
}

/** The read-only documents of Compare with Platform: `videoplatform-compare:/<n>/<name>`, their text kept here. */
const COMPARE_SCHEME = 'videoplatform-compare';
const compareTexts = new Map<string, string>();
let compareProvider: vscode.Disposable | undefined;
let compareCount = 0;

function compareUri(side: DiffSide): vscode.Uri {
  // Registered on first use: lives as long as the extension host (a handful of texts, replaced per comparison).
  compareProvider ??= vscode.workspace.registerTextDocumentContentProvider(COMPARE_SCHEME, {
    provideTextDocumentContent: (uri) => compareTexts.get(uri.path) ?? '',
  });
  // A new path each time: VS Code caches a virtual document's text by its URI.
  const path = `/${++compareCount}/${side.name.replace(/[\\/]+/g, '-')}`;
  compareTexts.set(path, side.text);
  // Only the last few comparisons are kept.
  for (const key of compareTexts.keys()) if (compareTexts.size > 20) compareTexts.delete(key);
  return vscode.Uri.from({ scheme: COMPARE_SCHEME, path });
}

/** The editor port over VS Code's workspace and window. */
export function createVscodeEditor(): EditorPort {
  return {
    openDocuments(): EditorDocument[] {
      const documents = [
        vscode.window.activeTextEditor?.document,
        ...vscode.window.visibleTextEditors.map((editor) => editor.document),
        ...vscode.workspace.textDocuments,
      ].filter((document): document is vscode.TextDocument => document !== undefined && !document.isClosed);
      const seen = new Set<string>();
      return documents.flatMap((document) => {
        const key = document.uri.toString();
        if (seen.has(key)) return [];
        seen.add(key);
        return [new VscodeDocument(document)];
      });
    },
    async document(uri?: string): Promise<EditorDocument | undefined> {
      // An open document first (an untitled one cannot be opened again from its URI).
      const open = uri
        ? vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri)
        : undefined;
      const document = uri
        ? (open ?? (await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))))
        : vscode.window.activeTextEditor?.document;
      return document ? new VscodeDocument(document) : undefined;
    },
    async applyEdits(document: EditorDocument, edits: readonly TextEdit[]): Promise<boolean> {
      const text = textDocumentOf(document);
      return text ? vscode.workspace.applyEdit(toWorkspaceEdit(text, edits)) : false;
    },
    async save(document: EditorDocument): Promise<void> {
      await textDocumentOf(document)?.save();
    },
    async openUntitled(fileName: string, text: string): Promise<string> {
      const document = await vscode.workspace.openTextDocument(untitledUri(fileName));
      const edit = new vscode.WorkspaceEdit();
      edit.insert(document.uri, new vscode.Position(0, 0), text);
      await vscode.workspace.applyEdit(edit);
      await vscode.window.showTextDocument(document);
      return document.uri.toString();
    },
    async showProblems(): Promise<void> {
      await vscode.commands.executeCommand('workbench.actions.view.problems');
    },
    async showReadOnly(document: DiffSide): Promise<void> {
      await vscode.window.showTextDocument(compareUri(document), { preview: true });
    },
    async showDiff(left: DiffSide, right: DiffSide, title: string): Promise<void> {
      await vscode.commands.executeCommand('vscode.diff', compareUri(left), compareUri(right), title, {
        preview: true,
      });
    },
  };
}
