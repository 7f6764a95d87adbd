import assert from 'node:assert/strict';
import { answered, askText, Dismissed } from '../../src/app/ask/inputs';
import { GoToStep, runWizard, type ExecuteStep, type PromptStep } from '../../src/app/ask/wizard';
import { back, choose, dismissInput, type, ScriptedUi } from './helpers/scriptedUi';

/** A wizard's state in these tests: two answers and what the execute steps did, in order. */
interface State {
  first?: string;
  second?: string;
  done: string[];
}

function textStep(ui: ScriptedUi, key: 'first' | 'second', shown: number): PromptStep<State> {
  return {
    shown,
    shouldPrompt: (state) => key === 'first' || state.first !== 'skip',
    async prompt(state, step) {
      state[key] = answered(await askText(ui, { title: 'Test', ...step, field: key, prompt: key, value: state[key] }));
    },
  };
}

function executeStep(name: string, priority: number, when?: (state: State) => boolean): ExecuteStep<State> {
  return {
    priority,
    ...(when ? { shouldExecute: when } : {}),
    async execute(state, progress) {
      assert.equal(progress.signal.aborted, false);
      state.done.push(name);
    },
  };
}

describe('the wizard runner (src/app/ask/wizard.ts)', () => {
  it('asks with a step counter and Back, offering the earlier answer again after Back', async () => {
    const ui = new ScriptedUi().script(type('one'), back(), type('uno'), type('two'));
    const state = await runWizard(ui, {
      state: { done: [] } as State,
      totalSteps: 2,
      promptSteps: [textStep(ui, 'first', 1), textStep(ui, 'second', 2)],
    });
    assert.deepEqual([state.first, state.second], ['uno', 'two']);
    assert.deepEqual(
      ui.asked.map((asked) => [asked.step, asked.back ?? false, asked.input?.value]),
      [
        ['1/2', false, undefined],
        ['2/2', true, undefined],
        ['1/2', false, 'one'],
        ['2/2', true, undefined],
      ],
    );
  });

  it('leaves out a question whose shouldPrompt is false, and shows no counter without a total', async () => {
    const ui = new ScriptedUi().script(type('skip'));
    const state = await runWizard(ui, {
      state: { done: [] } as State,
      promptSteps: [textStep(ui, 'first', 1), textStep(ui, 'second', 2)],
    });
    assert.equal(state.second, undefined);
    assert.deepEqual(
      ui.asked.map((asked) => asked.step),
      [undefined],
    );
  });

  it('runs the execute steps by priority, those that apply, under one cancellable progress', async () => {
    const ui = new ScriptedUi().script(type('one'), type('two'));
    const state = await runWizard(ui, {
      state: { done: [] } as State,
      promptSteps: [textStep(ui, 'first', 1), textStep(ui, 'second', 2)],
      executeSteps: [executeStep('reveal', 200), executeStep('never', 150, () => false), executeStep('create', 100)],
      progressTitle: (answers) => `Creating "${answers.first}"`,
    });
    assert.deepEqual(state.done, ['create', 'reveal']);
    assert.deepEqual(ui.progress, ['Creating "one"']);
  });

  it('goes from a summary to the step it names and back to the summary, keeping the other answers', async () => {
    const ui = new ScriptedUi().script(type('one'), type('two'), choose('change 2'), type('deux'), choose('done'));
    const summary: PromptStep<State> = {
      shown: 3,
      async prompt(state, step) {
        const choice = answered(
          await ui.pick(
            [
              { label: 'done', value: 0 },
              { label: 'change 2', value: 2 },
            ],
            { title: 'Summary', ...step },
          ),
        );
        if (choice !== 0) throw new GoToStep(choice);
      },
    };
    const state = await runWizard(ui, {
      state: { done: [] } as State,
      totalSteps: 3,
      promptSteps: [textStep(ui, 'first', 1), textStep(ui, 'second', 2), summary],
    });
    assert.deepEqual([state.first, state.second], ['one', 'deux']);
    assert.deepEqual(
      ui.asked.map((asked) => asked.step),
      ['1/3', '2/3', '3/3', '2/3', '3/3'],
    );
  });

  it('ends with Dismissed when a question is dismissed, and runs no execute step', async () => {
    const ui = new ScriptedUi().script(dismissInput());
    const state: State = { done: [] };
    await assert.rejects(
      runWizard(ui, {
        state,
        promptSteps: [textStep(ui, 'first', 1)],
        executeSteps: [executeStep('create', 100)],
        progressTitle: () => 'Creating',
      }),
      Dismissed,
    );
    assert.deepEqual(state.done, []);
    assert.deepEqual(ui.progress, []);
  });
});
