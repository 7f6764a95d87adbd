/**
 * The authoring features in the editor: the Problems of the six document kinds, quick fixes, id completion,
 * hovers on ids and the kinds' snippets. The diagnostics are the application's DiagnosticsPort (src/app/context.ts).
 * At activation only cheap stand-ins are registered (the Problems collection, providers that forward); the
 * implementation (./features.ts, a lazy part) is loaded when a document of the six kinds is open, a provider is asked
 * or a command validates.
 */
import * as vscode from 'vscode';
import type { ReferenceCache } from '../../app/authoring/referenceCache';
import { inPulledFolder } from '../../app/configs/stateFile';
import type { DiagnosticsPort, EditorDocument } from '../../app/context';
import { describeFailure } from '../../app/failures';
import { lazyPart } from '../../app/lazyPart';
import { documentKind } from '../../authoring/documentKind';
import { textDocumentOf } from '../editor';
import type * as Features from './features';
import { AUTHORING_SELECTOR, SELECT_AFTER_FIX } from './selector';

function textDocument(document: EditorDocument): vscode.TextDocument {
  const text = textDocumentOf(document);
  if (!text) throw new Error(`${document.fileName} is no longer open.`);
  return text;
}

const featuresPart = lazyPart('authoring', () => require('./features') as typeof Features);

/** Creates the diagnostics and registers the providers; everything made is pushed to `subscriptions`. */
export function createAuthoringFeatures(
  references: ReferenceCache,
  subscriptions: vscode.Disposable[],
  log: vscode.LogOutputChannel,
): DiagnosticsPort {
  const collection = vscode.languages.createDiagnosticCollection('videoPlatform.authoring');
  subscriptions.push(collection);
  let features: Features.AuthoringFeatures | undefined;
  const load = (): Features.AuthoringFeatures => {
    if (!features) {
      features = featuresPart().authoringFeatures(references, collection);
      subscriptions.push(features.diagnostics);
    }
    return features;
  };
  // A document of the six kinds is open: its Problems are wanted now (the diagnostics validate every open one).
  const loadFor = (document: vscode.TextDocument): void => {
    if (features || !documentKind(document.fileName) || inPulledFolder(document.fileName)) return;
    try {
      load();
    } catch (error) {
      log.error(`Loading the authoring features failed: ${describeFailure(error)}`);
    }
  };
  // Those open at activation are looked at once activate() has returned.
  const atStart = setTimeout(() => vscode.workspace.textDocuments.forEach(loadFor), 0);
  subscriptions.push(
    { dispose: () => clearTimeout(atStart) },
    vscode.workspace.onDidOpenTextDocument(loadFor),
    vscode.languages.registerCodeActionsProvider(
      AUTHORING_SELECTOR,
      {
        provideCodeActions: (document, range, context) =>
          load().codeActions.provideCodeActions(document, range, context),
      },
      { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
    ),
    vscode.commands.registerCommand(
      SELECT_AFTER_FIX,
      (uri: vscode.Uri, select: Parameters<Features.AuthoringFeatures['selectAfterFix']>[1]) =>
        load().selectAfterFix(uri, select),
    ),
    // Completion inside quotes ("...) and after a colon.
    vscode.languages.registerCompletionItemProvider(
      AUTHORING_SELECTOR,
      { provideCompletionItems: (document, position) => load().completions.provideCompletionItems(document, position) },
      '"',
      ':',
    ),
    vscode.languages.registerCompletionItemProvider(AUTHORING_SELECTOR, {
      provideCompletionItems: (document, position) => load().snippets.provideCompletionItems(document, position),
    }),
    vscode.languages.registerHoverProvider(AUTHORING_SELECTOR, {
      provideHover: (document, position) => load().hovers.provideHover(document, position),
    }),
  );
  return {
    validateFully: (document, kind) => load().diagnostics.validateFully(textDocument(document), kind),
    validate: (document) => void load().diagnostics.validate(textDocument(document)),
    addPlatformProblem: (document, problem) => load().diagnostics.addPlatformProblem(textDocument(document), problem),
    // Nothing was validated before the part was loaded.
    revalidateAll: () => features?.diagnostics.revalidateAll(),
  };
}
