/**
 * The authoring features in the editor: the Problems of the six document kinds, quick fixes, id completion,
 * hovers on ids and the kinds' snippets,
 * from activation on. The diagnostics are the application's DiagnosticsPort (src/app/context.ts).
 */
import * as vscode from 'vscode';
import type { DiagnosticsPort, EditorDocument } from '../../app/context';
import type { ReferenceCache } from '../../app/authoring/referenceCache';
import { textDocumentOf } from '../editor';
import { DocumentDiagnostics } from './diagnostics';
import {
  AUTHORING_SELECTOR,
  AuthoringCodeActions,
  AuthoringCompletions,
  AuthoringHovers,
  AuthoringSnippets,
  SELECT_AFTER_FIX,
  selectAfterFix,
} from './providers';

function textDocument(document: EditorDocument): vscode.TextDocument {
  const text = textDocumentOf(document);
  if (!text) throw new Error(`${document.fileName} is no longer open.`);
  return text;
}

/** Creates the diagnostics and registers the providers; everything made is pushed to `subscriptions`. */
export function createAuthoringFeatures(
  references: ReferenceCache,
  subscriptions: vscode.Disposable[],
): DiagnosticsPort {
  const diagnostics = new DocumentDiagnostics(references);
  subscriptions.push(
    diagnostics,
    vscode.languages.registerCodeActionsProvider(AUTHORING_SELECTOR, new AuthoringCodeActions(diagnostics), {
      providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
    }),
    vscode.commands.registerCommand(SELECT_AFTER_FIX, selectAfterFix),
    // Completion inside quotes ("...) and after a colon.
    vscode.languages.registerCompletionItemProvider(AUTHORING_SELECTOR, new AuthoringCompletions(references), '"', ':'),
    vscode.languages.registerCompletionItemProvider(AUTHORING_SELECTOR, new AuthoringSnippets()),
    vscode.languages.registerHoverProvider(AUTHORING_SELECTOR, new AuthoringHovers(references)),
  );
  return {
    validateFully: (document, kind) => diagnostics.validateFully(textDocument(document), kind),
    validate: (document) => void diagnostics.validate(textDocument(document)),
    addPlatformProblem: (document, problem) => diagnostics.addPlatformProblem(textDocument(document), problem),
    revalidateAll: () => diagnostics.revalidateAll(),
  };
}
