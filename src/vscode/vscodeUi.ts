import * as vscode from 'vscode';
import { lazyPart } from '../app/lazyPart';
import type { ProgressHandle, ProgressOptions, Ui } from '../app/ui';
import type * as Questions from './questions';

/** The questions (quick picks, input boxes, the wizard's steps): a part of their own, loaded on the first one. */
const questionsPart = lazyPart('questions', () => require('./questions') as typeof Questions);
const questions = (): typeof Questions.questions => questionsPart().questions;

/** The Ui seam over VS Code's window and env. */
/** A message's answer; a message VS Code could not show is logged and answers undefined (`Ui`'s messages never reject). */
function shown(log: vscode.LogOutputChannel, answer: Thenable<string | undefined>): Promise<string | undefined> {
  return Promise.resolve(answer).catch((error: unknown) => {
    log.warn(`A message could not be shown: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  });
}

export function createVscodeUi(log: vscode.LogOutputChannel): Ui {
  return {
    pick: (items, options) => questions().pick(items, options),
    pickMany: (items, options) => questions().pickMany(items, options),
    input: (options) => questions().input(options),
    confirm: (message, detail, action, options) => questions().confirm(message, detail, action, options),
    info: (message, ...actions) => shown(log, vscode.window.showInformationMessage(message, ...actions)),
    warn: (message, ...actions) => shown(log, vscode.window.showWarningMessage(message, ...actions)),
    error: (message, ...actions) => shown(log, vscode.window.showErrorMessage(message, ...actions)),
    withProgress<R>(options: ProgressOptions, task: (progress: ProgressHandle) => Promise<R>): Promise<R> {
      return Promise.resolve(
        vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: options.title, cancellable: options.cancellable },
          (progress, token) => {
            // The client takes an AbortSignal; VS Code gives a CancellationToken.
            const controller = new AbortController();
            const subscription = token.onCancellationRequested(() => controller.abort());
            return task({
              signal: controller.signal,
              report: (message, increment) =>
                progress.report(increment === undefined ? { message } : { message, increment }),
            }).finally(() => subscription.dispose());
          },
        ),
      );
    },
    openFiles: async (options) => {
      const uris = await vscode.window.showOpenDialog({
        title: options.title,
        openLabel: options.openLabel,
        canSelectMany: options.folders !== true,
        canSelectFiles: options.folders !== true,
        canSelectFolders: options.folders === true,
        filters: Object.fromEntries(Object.entries(options.filters).map(([name, list]) => [name, [...list]])),
      });
      return uris && uris.length > 0 ? uris.map((uri) => uri.fsPath) : undefined;
    },
    openSetting: async (id) => {
      await vscode.commands.executeCommand('workbench.action.openSettings', id);
    },
    copy: (text) => Promise.resolve(vscode.env.clipboard.writeText(text)),
    openExternal: (url) => Promise.resolve(vscode.env.openExternal(vscode.Uri.parse(url))),
    showLog: () => log.show(true),
  };
}
