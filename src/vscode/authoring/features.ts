/**
 * The authoring features' implementation: the Problems of the six document kinds, quick fixes, id completion,
 * hovers on ids and the kinds' snippets. The extension's bundle leaves it in a part of its own
 * (dist/lazy/authoring.js, scripts/build.mjs), loaded by ./languageFeatures.ts when a document of the six kinds is
 * open or a provider is first asked.
 */
import type * as vscode from 'vscode';
import type { ReferenceCache } from '../../app/authoring/referenceCache';
import { DocumentDiagnostics } from './diagnostics';
import {
  AuthoringCodeActions,
  AuthoringCompletions,
  AuthoringHovers,
  AuthoringSnippets,
  selectAfterFix,
} from './providers';

/** The diagnostics (which validate the open documents at once) and the providers, over `collection`. */
export function authoringFeatures(references: ReferenceCache, collection: vscode.DiagnosticCollection) {
  const diagnostics = new DocumentDiagnostics(references, collection);
  return {
    diagnostics,
    codeActions: new AuthoringCodeActions(diagnostics),
    completions: new AuthoringCompletions(references),
    snippets: new AuthoringSnippets(),
    hovers: new AuthoringHovers(references),
    selectAfterFix,
  };
}

export type AuthoringFeatures = ReturnType<typeof authoringFeatures>;
