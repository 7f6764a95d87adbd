/**
 * The authoring features of one extension run: diagnostics, quick fixes and id completion for the
 * six document kinds. Created once (at activation, or by the first authoring command when the
 * entry point does not create it) and disposed with the extension.
 */
import * as vscode from 'vscode';
import type { ExtensionServices } from '../services';
import { DocumentDiagnostics } from './diagnostics';
import { AUTHORING_SELECTOR, AuthoringCodeActions, AuthoringCompletions } from './providers';
import { ReferenceCache } from './referenceCache';

export class AuthoringSession implements vscode.Disposable {
  readonly references: ReferenceCache;
  readonly diagnostics: DocumentDiagnostics;
  private readonly disposables: vscode.Disposable[];

  constructor(services: ExtensionServices) {
    this.references = new ReferenceCache(services);
    this.diagnostics = new DocumentDiagnostics(this.references);
    this.disposables = [
      this.diagnostics,
      vscode.languages.registerCodeActionsProvider(AUTHORING_SELECTOR, new AuthoringCodeActions(this.diagnostics), {
        providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
      }),
      // Completion inside quotes ("...) and after a colon.
      vscode.languages.registerCompletionItemProvider(
        AUTHORING_SELECTOR,
        new AuthoringCompletions(this.references),
        '"',
        ':',
      ),
    ];
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

const sessions = new WeakMap<ExtensionServices, AuthoringSession>();

/** The session of these services, created on first use and disposed with the extension. */
export function authoringSession(services: ExtensionServices): AuthoringSession {
  let session = sessions.get(services);
  if (!session) {
    session = new AuthoringSession(services);
    sessions.set(services, session);
    services.context.subscriptions.push(session);
  }
  return session;
}

/** For the entry point: diagnostics and providers from activation on (not only after a first command). */
export function activateAuthoring(services: ExtensionServices): void {
  authoringSession(services);
}
