import { l10n } from '../../../l10n/l10n';
import { answered, askInteger } from '../../ask/inputs';
import type { PromptStep } from '../../ask/wizard';
import { step } from '../../failures';
import type { PickItem } from '../../ui';
import { formatCategory } from '../../util/format';
import { seenVideoCategories } from '../videoCategories';
import type { Transcoding, UploadState } from './state';

/** The videos' category: none, one seen in the Videos view, or an id typed next. */
const categoryStep: PromptStep<UploadState> = {
  shown: 1,
  async prompt(state) {
    const items: PickItem<number | 'other'>[] = [
      { label: `$(circle-slash) ${formatCategory(undefined)}`, value: 0 },
      ...seenVideoCategories(state.ctx)
        .filter(({ id }) => id > 0)
        .map(({ id, name }) => ({ label: formatCategory({ name, id }), value: id })),
      { label: `$(edit) ${l10n.t('Enter a category id...')}`, value: 'other' },
    ];
    state.category = answered(
      await state.ctx.ui.pick(items, {
        title: l10n.t('{0}: {1}', state.title, state.names),
        placeHolder: l10n.t('Video category'),
      }),
    );
    if (state.category !== 'other') state.categoryId = state.category;
  },
};

const categoryIdStep: PromptStep<UploadState> = {
  shown: 1,
  shouldPrompt: (state) => state.category === 'other',
  async prompt(state) {
    state.categoryId = answered(
      await askInteger(state.ctx.ui, {
        title: state.title,
        field: l10n.t('Category id'),
        prompt: l10n.t('Video category id'),
        min: 0,
        max: 2 ** 31 - 1,
      }),
    );
  },
};

/** The template group that transcodes the uploads: the default, one of the account's, or none. */
const transcodingStep: PromptStep<UploadState> = {
  shown: 2,
  async prompt(state) {
    const groups = await step(l10n.t('Read the template groups'), () => state.client.templateGroupList());
    const defaultGroup = groups.find((group) => group.defaultGroup);
    state.transcoding = answered(
      await state.ctx.ui.pick<Transcoding>(
        [
          {
            label: `$(star) ${l10n.t('Default group')}`,
            description: defaultGroup ? `"${defaultGroup.name}"` : l10n.t("the account's default group"),
            value: { kind: 'default' },
          },
          ...groups.map((group) => ({
            label: `$(layers) ${group.name}`,
            description: [group.type === 1 ? 'VR' : '', l10n.t('id {0}', group.id)].filter(Boolean).join(' · '),
            value: { kind: 'group', group } as Transcoding,
          })),
          {
            label: `$(circle-slash) ${l10n.t('None: no transcoding')}`,
            description: l10n.t('keep the file as uploaded'),
            value: { kind: 'none' },
          },
        ],
        { title: l10n.t('{0}: {1}', state.title, state.names), placeHolder: l10n.t('Transcode with...') },
      ),
    );
  },
};

export const uploadSteps = [categoryStep, categoryIdStep, transcodingStep];
