import { WentBack, type ProgressHandle, type StepOptions, type Ui } from '../ui';

/**
 * One question of a wizard over its state `S` (the shape of vscode-azuretools' prompt steps): it reads earlier
 * answers from the state and writes its own into it, so going back offers the earlier answer again.
 */
export interface PromptStep<S> {
  /** The step number the user sees ("Step 2 of 6"); several questions may share one. */
  readonly shown: number;
  /** False leaves the question out (a pull address for a push channel); asked again each time it comes up. */
  shouldPrompt?(state: S): boolean;
  /** Asks with the step options; throws WentBack (from the Ui) for Back, GoToStep from a summary. */
  prompt(state: S, step: StepOptions): Promise<void>;
}

/** Work done once the questions are answered, in `priority` order (lower first), under one progress notification. */
export interface ExecuteStep<S> {
  readonly priority: number;
  shouldExecute?(state: S): boolean;
  execute(state: S, progress: ProgressHandle): Promise<void>;
}

export interface Wizard<S> {
  readonly state: S;
  readonly promptSteps: readonly PromptStep<S>[];
  /** With a total, each question shows "Step n of total" and a Back button; without, plain questions. */
  readonly totalSteps?: number;
  readonly executeSteps?: readonly ExecuteStep<S>[];
  /** The progress notification of the execute steps (its title from the answers); cancellable. */
  readonly progressTitle?: (state: S) => string;
}

/**
 * Thrown by a summary step: change step `shown` (a summary row names it). The questions of that step (those
 * with the same `shown` number, such as a pull address after push or pull) are asked, then the wizard returns
 * to the summary, keeping the other answers; Back from the first of them returns too.
 */
export class GoToStep extends Error {
  constructor(readonly shown: number) {
    super(`go to step ${shown}`);
    this.name = 'GoToStep';
  }
}

/**
 * Asks the prompt steps, then runs the execute steps; returns the state. A dismissed question ends the wizard
 * by throwing `Dismissed` (from `answered`), which the command wrapper keeps quiet.
 */
export async function runWizard<S>(ui: Ui, wizard: Wizard<S>): Promise<S> {
  await promptAll(wizard.promptSteps, wizard.state, wizard.totalSteps);
  const executeSteps = [...(wizard.executeSteps ?? [])]
    .filter((step) => step.shouldExecute?.(wizard.state) ?? true)
    .sort((a, b) => a.priority - b.priority);
  if (executeSteps.length === 0) return wizard.state;
  const title = wizard.progressTitle?.(wizard.state);
  if (title === undefined) throw new Error('A wizard with execute steps needs a progress title');
  await ui.withProgress({ title, cancellable: true }, async (progress) => {
    for (const step of executeSteps) await step.execute(wizard.state, progress);
  });
  return wizard.state;
}

/**
 * Asks the steps in order with a step counter and Back: Back asks the previous question again (answers are kept in
 * the state, so a question can offer the earlier answer); GoToStep from a summary changes one step and comes back.
 */
async function promptAll<S>(steps: readonly PromptStep<S>[], state: S, totalSteps: number | undefined): Promise<void> {
  const active = (index: number): boolean => steps[index]!.shouldPrompt?.(state) ?? true;
  /** While one step is changed from the summary: the summary's index and the step's number. */
  let changing: { readonly summary: number; readonly shown: number } | undefined;
  /** Where a step goes next (`from` + 1 or the one before it): back to the summary after the changed step. */
  const leave = (to: number): number => {
    if (!changing || (to < steps.length && to >= 0 && steps[to]!.shown === changing.shown)) return to;
    const summary = changing.summary;
    changing = undefined;
    return summary;
  };
  let index = 0;
  while (index < steps.length) {
    if (!active(index)) {
      index = changing && steps[index]!.shown !== changing.shown ? leave(index) : index + 1;
      continue;
    }
    let previous = index - 1;
    while (previous >= 0 && !active(previous)) previous--;
    const canGoBack = totalSteps !== undefined && (previous >= 0 || changing !== undefined);
    const options: StepOptions =
      totalSteps === undefined ? {} : { step: steps[index]!.shown, totalSteps, back: canGoBack };
    try {
      await steps[index]!.prompt(state, options);
      index = leave(index + 1);
    } catch (error) {
      if (error instanceof WentBack && canGoBack) index = leave(previous);
      else if (error instanceof GoToStep) {
        const first = steps.findIndex((step) => step.shown === error.shown);
        if (first < 0) throw new Error(`The wizard has no step ${error.shown}`);
        changing = { summary: index, shown: error.shown };
        index = first;
      } else throw error;
    }
  }
}
