import { l10n } from '../../../l10n/l10n';
import { answered, askText } from '../../ask/inputs';
import type { PromptStep } from '../../ask/wizard';
import type { CreateChannelState } from './state';

/** Step 1: the channel's name. */
export const nameStep: PromptStep<CreateChannelState> = {
  shown: 1,
  async prompt(state, step) {
    state.name = answered(
      await askText(state.ui, {
        title: state.title,
        ...step,
        field: l10n.t('Channel name'),
        prompt: l10n.t('Name of the new channel'),
        value: state.name,
        maxLength: 100,
      }),
    );
  },
};
