import { WentBack, type StepOptions } from '../ui';

/** One question of a wizard. `shown` is the step number the user sees (several questions may share one). */
export interface WizardStep {
  readonly shown: number;
  /** Left out (a pull address for a push channel); also when going back. */
  readonly skip?: () => boolean;
  /** Asks the question with the given step options; throws WentBack (from the Ui) for Back. */
  readonly ask: (step: StepOptions) => Promise<void>;
}

/**
 * Thrown by a summary step: change the step at `index` (a summary row names it). The questions of that
 * step (those with the same `shown` number, such as a pull address after push or pull) are asked, then
 * the wizard returns to the summary, keeping the other answers; Back from the first of them returns too.
 */
export class GoToStep extends Error {
  constructor(readonly index: number) {
    super(`go to step ${index}`);
    this.name = 'GoToStep';
  }
}

/**
 * Runs the steps in order with a step counter ("Step 2 of 5") and Back: Back asks the previous question
 * again (answers are kept in the caller's state, so a question can offer the earlier answer). A
 * dismissed question ends the wizard by throwing `Dismissed` from `answered`, as before.
 */
export async function runWizard(steps: readonly WizardStep[], totalSteps: number): Promise<void> {
  const active = (index: number): boolean => !steps[index]!.skip?.();
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
    try {
      await steps[index]!.ask({ step: steps[index]!.shown, totalSteps, back: previous >= 0 || changing !== undefined });
      index = leave(index + 1);
    } catch (error) {
      if (error instanceof WentBack && (previous >= 0 || changing)) index = leave(previous);
      else if (error instanceof GoToStep) {
        changing = { summary: index, shown: steps[error.index]!.shown };
        index = error.index;
      } else throw error;
    }
  }
}
