/**
 * The Ui's questions (pick, pick many, input, confirm) over VS Code's quick input and modal messages, with the
 * wizard's steps and Back button. Only commands ask them: the extension's bundle leaves this in a part of its own
 * (dist/lazy/questions.js, scripts/build.mjs), loaded by ./vscodeUi.ts on the first question.
 */
import * as vscode from 'vscode';
import { l10n } from '../l10n/l10n';
import {
  WentBack,
  type ConfirmOptions,
  type InputOptions,
  type PickItem,
  type PickOptions,
  type StepOptions,
  type Ui,
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

/** A wizard's question (a step counter or Back): showQuickPick/showInputBox have neither. */
function isStep(options: StepOptions): boolean {
  return options.step !== undefined || options.back === true;
}

function applyStep(input: vscode.QuickInput, options: StepOptions): void {
  if (options.step !== undefined) input.step = options.step;
  if (options.totalSteps !== undefined) input.totalSteps = options.totalSteps;
}

/**
 * One wizard question with createQuickPick: resolves the accepted rows, undefined when hidden, and
 * rejects with WentBack on the Back button.
 */
function stepPick<T>(
  items: readonly PickItem<T>[],
  options: PickOptions,
  many: boolean,
): Promise<Row<T>[] | undefined> {
  const pick = vscode.window.createQuickPick<Row<T>>();
  pick.title = options.title;
  pick.placeholder = options.placeHolder;
  pick.matchOnDescription = options.matchOnDescription ?? false;
  pick.matchOnDetail = options.matchOnDetail ?? false;
  pick.canSelectMany = many;
  pick.ignoreFocusOut = true;
  applyStep(pick, options);
  if (options.back) pick.buttons = [vscode.QuickInputButtons.Back];
  const shown = rows(items);
  pick.items = shown;
  if (many) pick.selectedItems = shown.filter((row) => row.picked);
  return new Promise((resolve, reject) => {
    const finish = settleOnce(pick);
    pick.onDidAccept(() => finish(() => resolve([...(many ? pick.selectedItems : pick.activeItems.slice(0, 1))])));
    pick.onDidTriggerButton((button) => {
      if (button === vscode.QuickInputButtons.Back) finish(() => reject(new WentBack()));
    });
    pick.onDidHide(() => finish(() => resolve(undefined)));
    pick.show();
  });
}

/** Runs the first settling action only (accept, Back and hide can all fire), then closes the question. */
function settleOnce(question: vscode.Disposable): (action: () => void) => void {
  let settled = false;
  return (action) => {
    if (settled) return;
    settled = true;
    action();
    question.dispose();
  };
}

function stepInput(options: InputOptions): Promise<string | undefined> {
  const box = vscode.window.createInputBox();
  box.title = options.title;
  box.prompt = options.prompt;
  box.value = options.value ?? '';
  box.placeholder = options.placeHolder;
  box.password = options.password ?? false;
  box.ignoreFocusOut = true;
  applyStep(box, options);
  if (options.back) box.buttons = [vscode.QuickInputButtons.Back];
  return new Promise((resolve, reject) => {
    const finish = settleOnce(box);
    const rule = (): string | undefined => options.validate?.(box.value);
    box.validationMessage = box.value ? rule() : undefined;
    box.onDidChangeValue(() => (box.validationMessage = rule()));
    box.onDidAccept(() => {
      const broken = rule();
      box.validationMessage = broken;
      if (!broken) finish(() => resolve(box.value));
    });
    box.onDidTriggerButton((button) => {
      if (button === vscode.QuickInputButtons.Back) finish(() => reject(new WentBack()));
    });
    box.onDidHide(() => finish(() => resolve(undefined)));
    box.show();
  });
}

/** The Ui's questions. */
export const questions: Pick<Ui, 'pick' | 'pickMany' | 'input' | 'confirm'> = {
  async pick<T>(items: readonly PickItem<T>[], options: PickOptions): Promise<T | undefined> {
    if (isStep(options)) return (await stepPick(items, options, false))?.[0]?.value;
    const picked = await vscode.window.showQuickPick(rows(items), { ...options, ignoreFocusOut: false });
    return picked?.value;
  },
  async pickMany<T>(items: readonly PickItem<T>[], options: PickOptions): Promise<T[] | undefined> {
    if (isStep(options))
      return (await stepPick(items, options, true))
        ?.filter((row) => row.value !== undefined)
        .map((row) => row.value as T);
    const picked = await vscode.window.showQuickPick(rows(items), { ...options, canPickMany: true });
    return picked?.filter((row) => row.value !== undefined).map((row) => row.value as T);
  },
  input(options: InputOptions): Promise<string | undefined> {
    if (isStep(options)) return stepInput(options);
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
    // button goes first, so Enter keeps things as they are; Escape and Cancel do too. Two buttons (the action
    // and a harmless one with `isCloseAffordance`) are not enough: VS Code makes a close affordance the
    // dialog's cancel button, which is never the default, so the action would be what Enter picks.
    // (VS Code: mainThreadMessageService._showModalMessage and massageMessageBoxOptions, defaultId 0.)
    const keep: vscode.MessageItem = { title: l10n.t("Don't {0}", action) };
    const act: vscode.MessageItem = { title: action };
    return (await vscode.window.showWarningMessage(message, options, keep, act)) === act;
  },
};
