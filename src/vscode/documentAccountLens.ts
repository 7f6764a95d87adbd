/**
 * The account of each platform document, as a CodeLens on its first line (src/app/accounts/documentAccounts.ts
 * decides the text); a click runs "Choose the Document's Account".
 */
import * as vscode from 'vscode';
import { documentAccountLens } from '../app/accounts/documentAccounts';
import { inPulledFolder } from '../app/configs/stateFile';
import type { AppContext } from '../app/context';
import { inBackground } from '../app/failures';
import { documentKind } from '../authoring/documentKind';
import { AUTHORING_SELECTOR } from './authoring/selector';

class DocumentAccountLenses implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(private readonly ctx: AppContext) {}

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    // A pulled folder's files go to its account by Plan and Apply, not one by one (src/app/configs/).
    if (!documentKind(document.fileName) || inPulledFolder(document.fileName)) return [];
    const uri = document.uri.toString();
    const lens = documentAccountLens(this.ctx.documentAccounts.accountOf(uri), this.ctx.connection.activeAccount);
    return [
      new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
        title: lens.title,
        tooltip: lens.tooltip,
        command: 'videoPlatform.chooseDocumentAccount',
        arguments: [document.uri],
      }),
    ];
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** Registers the lens; it follows bindings, profiles and the active account. */
export function registerDocumentAccountLens(ctx: AppContext, subscriptions: vscode.Disposable[]): void {
  const lenses = new DocumentAccountLenses(ctx);
  const refresh = (): void => lenses.refresh();
  subscriptions.push(
    lenses,
    vscode.languages.registerCodeLensProvider(AUTHORING_SELECTOR, lenses),
    ctx.documentAccounts.onDidChange(refresh),
    ctx.accounts.onDidChange(refresh),
    ctx.connection.onDidChange(refresh),
    // An untitled document saved as a file: the file takes over its account.
    vscode.workspace.onDidOpenTextDocument((document) => {
      if (document.uri.scheme === 'file' && documentKind(document.fileName))
        inBackground(
          ctx.log,
          'Binding the saved document to its account',
          ctx.documentAccounts.settle(document.uri.toString()),
        );
    }),
  );
}
