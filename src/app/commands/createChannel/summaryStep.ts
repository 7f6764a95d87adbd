import { PROTOCOL_HLS } from '../../../api/types';
import { l10n } from '../../../l10n/l10n';
import { answered } from '../../ask/inputs';
import { GoToStep, type PromptStep } from '../../ask/wizard';
import type { PickItem } from '../../ui';
import { defaultTemplateOf, optionText, type CreateChannelState } from './state';

/** The step each summary row changes (the `shown` numbers of the steps). */
const STEP_OF_ROW = { name: 1, source: 2, category: 3, outputs: 4, templates: 5 } as const;
type Row = keyof typeof STEP_OF_ROW;

/** The summary's rows: what each step chose. */
function rows(state: CreateChannelState): PickItem<Row>[] {
  const chosen = state.templates ?? [];
  const defaultTemplate = defaultTemplateOf(state);
  const outputs = (state.protocols ?? []).map((protocol) =>
    protocol === PROTOCOL_HLS
      ? `HLS${optionText(state.hlsOptions, state.timeShiftHours)}`
      : `RTMP${optionText(state.rtmpOptions, undefined)}`,
  );
  const templates = chosen.map((template) =>
    template === defaultTemplate && chosen.length > 1
      ? l10n.t('{0} (default)', template.displayName)
      : template.displayName,
  );
  const change = l10n.t('change');
  return [
    { label: l10n.t('Name: {0}', state.name ?? ''), description: change, value: 'name' },
    {
      label:
        state.signalType === '2'
          ? l10n.t('Source: pulled from {0}', state.pullStream ?? '')
          : l10n.t('Source: pushed by an encoder'),
      description: change,
      value: 'source',
    },
    {
      label: l10n.t('Category: {0}', state.category?.name ?? l10n.t('none')),
      description: change,
      value: 'category',
    },
    { label: l10n.t('Output groups: {0}', outputs.join(', ')), description: change, value: 'outputs' },
    { label: l10n.t('Live templates: {0}', templates.join(', ')), description: change, value: 'templates' },
  ];
}

/** Step 6: Create, or a row that goes back to the step it shows and returns here. */
export const summaryStep: PromptStep<CreateChannelState> = {
  shown: 6,
  async prompt(state, step) {
    const choice = answered(
      await state.ui.pick<'create' | Row>(
        [
          { label: l10n.t('$(check) Create channel "{0}"', state.name ?? ''), value: 'create' },
          { label: l10n.t('Choose a row to change it'), separator: true },
          ...rows(state),
        ],
        { title: state.title, ...step, placeHolder: l10n.t('Create the channel, or change a step') },
      ),
    );
    if (choice !== 'create') throw new GoToStep(STEP_OF_ROW[choice]);
  },
};
