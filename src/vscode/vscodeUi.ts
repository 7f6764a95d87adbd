import * as vscode from 'vscode';
import { l10n } from '../app/l10n';
import type {
  ConfirmOptions,
  InputOptions,
  PickItem,
  PickOptions,
  ProgressHandle,
  ProgressOptions,
  Ui,
} from '../app/ui';

type Row<T> = vscode.QuickPickItem & { value?: T };

function rows<T>(items: readonly PickItem<T>[]): Row<T>[] {
  return items.map((item) =>
    item.separator
      ? { label: item.label, kind: vscode.QuickPickItemKind.Separator }
      : {
          label: item.label,
          description: item.description,
          detail: item.detail,
          picked: item.picked,
          value: item.value,
        },
  );
}

/** The Ui seam over VS Code's window and env. */
export function createVscodeUi(log: vscode.LogOutputChannel): Ui {
  return {
    async pick<T>(items: readonly PickItem<T>[], options: PickOptions): Promise<T | undefined> {
      const picked = await vscode.window.showQuickPick(rows(items), { ...options, ignoreFocusOut: false });
      return picked?.value;
    },
    async pickMany<T>(items: readonly PickItem<T>[], options: PickOptions): Promise<T[] | undefined> {
      const picked = await vscode.window.showQuickPick(rows(items), { ...options, canPickMany: true });
      return picked?.filter((row) => row.value !== undefined).map((row) => row.value as T);
    },
    input(options: InputOptions): Promise<string | undefined> {
      return Promise.resolve(
        vscode.window.showInputBox({
          title: options.title,
          prompt: options.prompt,
          value: options.value,
          placeHolder: options.placeHolder,
          password: options.password,
          ignoreFocusOut: true,
          validateInput: options.validate,
        }),
      );
    },
    async confirm(message: string, detail: string, action: string, confirmOptions?: ConfirmOptions): Promise<boolean> {
      const options = { modal: true, detail: detail || undefined };
      if (!confirmOptions?.destructive)
        return (await vscode.window.showWarningMessage(message, options, action)) === action;
      // A modal's first button is its default (Enter), and VS Code adds Cancel after the given ones: a harmless
      // button goes first, so Enter keeps things as they are; Escape and Cancel do too.
      const keep: vscode.MessageItem = { title: l10n.t("Don't {0}", action) };
      const act: vscode.MessageItem = { title: action };
      return (await vscode.window.showWarningMessage(message, options, keep, act)) === act;
    },
    info: (message, ...actions) => Promise.resolve(vscode.window.showInformationMessage(message, ...actions)),
    warn: (message, ...actions) => Promise.resolve(vscode.window.showWarningMessage(message, ...actions)),
    error: (message, ...actions) => Promise.resolve(vscode.window.showErrorMessage(message, ...actions)),
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
        canSelectMany: true,
        canSelectFiles: true,
        canSelectFolders: false,
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
