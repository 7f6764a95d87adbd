import { l10n } from '../../../l10n/l10n';
import { answered } from '../../ask/inputs';
import type { PromptStep } from '../../ask/wizard';
import type { CreateChannelState } from './state';

/** Step 3: the channel's category, or none (the account's categories read once). */
export const categoryStep: PromptStep<CreateChannelState> = {
  shown: 3,
  async prompt(state, step) {
    const categories = (state.accountCategories ??= await state.client.liveChannelTypeList());
    state.category = answered(
      await state.ui.pick<{ id?: string; name?: string }>(
        [
          { label: l10n.t('$(circle-slash) No category'), value: {} },
          ...categories.map((candidate) => ({
            label: `$(folder) ${candidate.name}`,
            value: { id: candidate.id, name: candidate.name },
          })),
        ],
        { title: state.title, ...step, placeHolder: l10n.t('Category of the channel') },
      ),
    );
  },
};
