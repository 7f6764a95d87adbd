import { WentBack, type StepOptions } from '../ui';

/** One question of a wizard. `shown` is the step number the user sees (several questions may share one). */
export interface WizardStep {
  readonly shown: number;
  /** Left out (a pull address for a push channel); also when going back. */
  readonly skip?: () => boolean;
  /** Asks the question with the given step options; throws WentBack (from the Ui) for Back. */
  readonly ask: (step: StepOptions) => Promise<void>;
}

/** Jump to another step (a summary row names the step to change). */
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
  let index = 0;
  while (index < steps.length) {
    if (!active(index)) {
      index++;
      continue;
    }
    let previous = index - 1;
    while (previous >= 0 && !active(previous)) previous--;
    try {
      await steps[index]!.ask({ step: steps[index]!.shown, totalSteps, back: previous >= 0 });
      index++;
    } catch (error) {
      if (error instanceof WentBack && previous >= 0) index = previous;
      else if (error instanceof GoToStep) index = error.index;
      else throw error;
    }
  }
}
