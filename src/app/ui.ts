/**
 * The thin seam between command flows and VS Code's window/env API. Flows take a `Ui` so that they
 * run under mocha with scripted answers; `vscodeUi.ts` is the real implementation.
 */

/** A quick-pick row; `separator` rows group the rows after them (QuickPickItemKind.Separator). */
export interface PickItem<T> {
  readonly label: string;
  readonly description?: string;
  readonly detail?: string;
  readonly separator?: boolean;
  readonly picked?: boolean;
  readonly value?: T;
}

/**
 * A question that is one step of a multi-step wizard: "Step 2 of 5" in its title bar, and with `back` a Back
 * button, which makes the question throw `WentBack` (the wizard then asks its previous step again).
 */
export interface StepOptions {
  readonly step?: number;
  readonly totalSteps?: number;
  readonly back?: boolean;
}

/** Thrown by a `Ui` question asked with `back: true` when the user presses Back. */
export class WentBack extends Error {
  constructor() {
    super('went back');
    this.name = 'WentBack';
  }
}

export interface PickOptions extends StepOptions {
  readonly title: string;
  readonly placeHolder?: string;
  readonly matchOnDescription?: boolean;
  readonly matchOnDetail?: boolean;
}

export interface InputOptions extends StepOptions {
  readonly title: string;
  readonly prompt: string;
  readonly value?: string;
  readonly placeHolder?: string;
  /** Masks the typed text (secret keys). */
  readonly password?: boolean;
  /** Returns the rule that the text breaks, or undefined when it is acceptable. */
  readonly validate?: (value: string) => string | undefined;
}

export interface ProgressOptions {
  readonly title: string;
  readonly cancellable: boolean;
}

/** Progress of one task: `signal` aborts when the user cancels. */
export interface ProgressHandle {
  readonly signal: AbortSignal;
  /** `increment`: percent of the whole task done since the last report (a bar where the host shows one). */
  report(message: string, increment?: number): void;
}

export interface OpenFilesOptions {
  readonly title: string;
  /** The button's label. */
  readonly openLabel: string;
  /** Named lists of file extensions without the dot, e.g. `{ Media: ['mp4', 'mov'] }`. */
  readonly filters: Readonly<Record<string, readonly string[]>>;
  /** One folder instead of files. */
  readonly folders?: boolean;
}

export interface ConfirmOptions {
  /**
   * The action destroys or interrupts something (Delete, Stop): the dialog's default button (Enter) is a
   * harmless one, never the action.
   */
  readonly destructive?: boolean;
}

export interface Ui {
  /** Resolves undefined when the user dismisses the pick. */
  pick<T>(items: readonly PickItem<T>[], options: PickOptions): Promise<T | undefined>;
  pickMany<T>(items: readonly PickItem<T>[], options: PickOptions): Promise<T[] | undefined>;
  input(options: InputOptions): Promise<string | undefined>;
  /** The file dialog (several files); the chosen files' paths, or undefined when dismissed. */
  openFiles(options: OpenFilesOptions): Promise<string[] | undefined>;
  /** A modal warning naming what is about to happen; true only when `action` was chosen. */
  confirm(message: string, detail: string, action: string, options?: ConfirmOptions): Promise<boolean>;
  /**
   * The messages resolve with the chosen action when the user dismisses them and never reject (a message the
   * host cannot show resolves undefined), so a flow that does not wait for a button discards them with `void`.
   */
  info(message: string, ...actions: string[]): Promise<string | undefined>;
  warn(message: string, ...actions: string[]): Promise<string | undefined>;
  error(message: string, ...actions: string[]): Promise<string | undefined>;
  withProgress<R>(options: ProgressOptions, task: (progress: ProgressHandle) => Promise<R>): Promise<R>;
  copy(text: string): Promise<void>;
  /** Opens the Settings editor at one setting (`videoPlatform.ffmpegPath`). */
  openSetting(id: string): Promise<void>;
  openExternal(url: string): Promise<boolean>;
  showLog(): void;
}
