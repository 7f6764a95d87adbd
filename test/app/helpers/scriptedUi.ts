import type {
  ConfirmOptions,
  InputOptions,
  OpenFilesOptions,
  PickItem,
  PickOptions,
  ProgressHandle,
  ProgressOptions,
  StepOptions,
  Ui,
} from '../../../src/app/ui';
import { WentBack } from '../../../src/app/ui';

/** One scripted answer: gets what the flow asked and returns the user's answer. */
export type Answer =
  | { kind: 'pick'; answer: (items: readonly PickItem<unknown>[], options: PickOptions) => unknown }
  | { kind: 'pickMany'; answer: (items: readonly PickItem<unknown>[], options: PickOptions) => unknown[] | undefined }
  | { kind: 'input'; answer: (options: InputOptions) => string | undefined }
  | { kind: 'confirm'; answer: boolean }
  | { kind: 'files'; answer: (options: OpenFilesOptions) => string[] | undefined }
  | { kind: 'back' };

function rowsOf(items: readonly PickItem<unknown>[]): PickItem<unknown>[] {
  return items.filter((item) => !item.separator);
}

function find(items: readonly PickItem<unknown>[], label: string): PickItem<unknown> {
  const found = rowsOf(items).find((item) => item.label.includes(label));
  if (!found)
    throw new Error(
      `scripted pick: no item with "${label}" among ${rowsOf(items)
        .map((item) => item.label)
        .join(' | ')}`,
    );
  return found;
}

/** Picks the first row whose label contains `label`. */
export const choose = (label: string): Answer => ({ kind: 'pick', answer: (items) => find(items, label).value });
/** Picks a row by a test on its value. */
export const chooseWhere = (test: (value: unknown, item: PickItem<unknown>) => boolean): Answer => ({
  kind: 'pick',
  answer: (items) => {
    const found = rowsOf(items).find((item) => test(item.value, item));
    if (!found) throw new Error('scripted pick: no matching item');
    return found.value;
  },
});
export const chooseMany = (...labels: string[]): Answer => ({
  kind: 'pickMany',
  answer: (items) => labels.map((label) => find(items, label).value),
});
export const type = (text: string): Answer => ({ kind: 'input', answer: () => text });
/** Enter on the prefilled value. */
export const keep = (): Answer => ({ kind: 'input', answer: (options) => options.value ?? '' });
/** The Back button of a wizard's question (pick, pick of many, or input); a question without one fails the test. */
export const back = (): Answer => ({ kind: 'back' });
export const dismissPick = (): Answer => ({ kind: 'pick', answer: () => undefined });
export const dismissInput = (): Answer => ({ kind: 'input', answer: () => undefined });
export const accept = (): Answer => ({ kind: 'confirm', answer: true });
export const decline = (): Answer => ({ kind: 'confirm', answer: false });
/** The file dialog: these files chosen (none: dismissed). */
export const openFiles = (...paths: string[]): Answer => ({
  kind: 'files',
  answer: () => (paths.length ? paths : undefined),
});

export interface Asked {
  readonly kind: Answer['kind'];
  readonly title: string;
  readonly items?: readonly PickItem<unknown>[];
  readonly input?: InputOptions;
  readonly message?: string;
  /** A confirmation's button and whether it was asked as destructive (not the default button). */
  readonly action?: string;
  readonly destructive?: boolean;
  /** A wizard step's counter, "2/5", and whether it had a Back button. */
  readonly step?: string;
  readonly back?: boolean;
}

function stepOf(options: StepOptions): Pick<Asked, 'step' | 'back'> {
  return {
    ...(options.step !== undefined ? { step: `${options.step}/${options.totalSteps ?? '?'}` } : {}),
    ...(options.back ? { back: true } : {}),
  };
}

/**
 * The Ui seam with scripted answers, recording everything the flow showed. A question with no
 * answer left fails the test (the flow asked more than expected).
 */
export class ScriptedUi implements Ui {
  readonly answers: Answer[] = [];
  readonly asked: Asked[] = [];
  readonly infos: string[] = [];
  readonly warnings: string[] = [];
  readonly errors: string[] = [];
  /** The buttons offered with each error message. */
  readonly errorActions: string[][] = [];
  /** The buttons offered with each information message. */
  readonly infoActions: string[][] = [];
  readonly progress: string[] = [];
  /** What each progress reported: its message and increment (percent). */
  readonly reports: Array<{ message: string; increment?: number }> = [];
  /** Cancels the progress when a report passes this test (the user clicks Cancel then). */
  cancelWhen: ((message: string) => boolean) | undefined;
  readonly copied: string[] = [];
  readonly opened: string[] = [];
  /** The settings opened in the Settings editor. */
  readonly settingsOpened: string[] = [];
  showLogCount = 0;
  /** The button the next information/warning/error message "clicks" (when it offers that button). */
  messageChoice: string | undefined;
  /** Cancels each progress this many ms after it starts (the user clicks Cancel). */
  cancelAfterMs: number | undefined;

  script(...answers: Answer[]): this {
    this.answers.push(...answers);
    return this;
  }

  private next<K extends Answer['kind']>(kind: K, asked: Asked): Extract<Answer, { kind: K }> {
    this.asked.push(asked);
    const answer = this.answers.shift();
    if (!answer) throw new Error(`unscripted ${kind}: "${asked.title}"`);
    if (answer.kind === 'back' && kind !== 'confirm' && kind !== 'files') {
      if (!asked.back) throw new Error(`scripted Back, but the ${kind} "${asked.title}" has no Back button`);
      throw new WentBack();
    }
    if (answer.kind !== kind) throw new Error(`expected a ${answer.kind}, the flow asked a ${kind}: "${asked.title}"`);
    return answer as Extract<Answer, { kind: K }>;
  }

  async pick<T>(items: readonly PickItem<T>[], options: PickOptions): Promise<T | undefined> {
    const answer = this.next('pick', { kind: 'pick', title: options.title, items, ...stepOf(options) });
    return answer.answer(items, options) as T | undefined;
  }
  async pickMany<T>(items: readonly PickItem<T>[], options: PickOptions): Promise<T[] | undefined> {
    const answer = this.next('pickMany', { kind: 'pickMany', title: options.title, items, ...stepOf(options) });
    return answer.answer(items, options) as T[] | undefined;
  }
  async input(options: InputOptions): Promise<string | undefined> {
    return this.next('input', { kind: 'input', title: options.title, input: options, ...stepOf(options) }).answer(
      options,
    );
  }
  async openFiles(options: OpenFilesOptions): Promise<string[] | undefined> {
    return this.next('files', { kind: 'files', title: options.title }).answer(options);
  }
  async confirm(message: string, detail: string, action: string, options?: ConfirmOptions): Promise<boolean> {
    return this.next('confirm', {
      kind: 'confirm',
      title: message,
      message: `${message}\n${detail}`,
      action,
      destructive: options?.destructive === true,
    }).answer;
  }
  async info(message: string, ...actions: string[]): Promise<string | undefined> {
    this.infos.push(message);
    this.infoActions.push(actions);
    return actions.includes(this.messageChoice ?? '') ? this.messageChoice : undefined;
  }
  async warn(message: string, ...actions: string[]): Promise<string | undefined> {
    this.warnings.push(message);
    return actions.includes(this.messageChoice ?? '') ? this.messageChoice : undefined;
  }
  async error(message: string, ...actions: string[]): Promise<string | undefined> {
    this.errors.push(message);
    this.errorActions.push(actions);
    return actions.includes(this.messageChoice ?? '') ? this.messageChoice : undefined;
  }
  async withProgress<R>(options: ProgressOptions, task: (progress: ProgressHandle) => Promise<R>): Promise<R> {
    this.progress.push(options.title);
    const controller = new AbortController();
    const timer =
      this.cancelAfterMs !== undefined && options.cancellable
        ? setTimeout(() => controller.abort(), this.cancelAfterMs)
        : undefined;
    try {
      return await task({
        signal: controller.signal,
        report: (message, increment) => {
          this.reports.push(increment === undefined ? { message } : { message, increment });
          if (this.cancelWhen?.(message)) controller.abort();
        },
      });
    } finally {
      if (timer) clearTimeout(timer);
    }
  }
  async openSetting(id: string): Promise<void> {
    this.settingsOpened.push(id);
  }
  async copy(text: string): Promise<void> {
    this.copied.push(text);
  }
  async openExternal(url: string): Promise<boolean> {
    this.opened.push(url);
    return true;
  }
  showLog(): void {
    this.showLogCount++;
  }
  /** Everything shown to the user, for "never shows the secret" checks. */
  everythingShown(): string {
    return JSON.stringify([
      this.infos,
      this.warnings,
      this.errors,
      this.progress,
      this.asked.map((entry) => [
        entry.title,
        entry.message,
        entry.items?.map((item) => [item.label, item.description, item.detail]),
      ]),
    ]);
  }
}
