import type { LiveTemplate } from '../../../api/types';
import { l10n } from '../../../l10n/l10n';
import { answered } from '../../ask/inputs';
import type { PromptStep } from '../../ask/wizard';
import type { CreateChannelState } from './state';

/** Step 5: the live templates, one output per template (the account's templates read once). */
const templatesStep: PromptStep<CreateChannelState> = {
  shown: 5,
  async prompt(state, step) {
    const templates = (state.accountTemplates ??= await state.client.liveGetTemplates());
    if (templates.length === 0) throw new Error(l10n.t('Live templates: the account has none; create one first'));
    const earlier = new Set((state.templates ?? templates.slice(0, 1)).map((template) => template.id));
    const chosen = answered(
      await state.ui.pickMany<LiveTemplate>(
        templates.map((template) => ({
          label: template.displayName,
          description: `${template.videoWidth}x${template.videoHeight} · ${template.videoBitrate} kbps`,
          value: template,
          picked: earlier.has(template.id),
        })),
        {
          title: state.title,
          ...step,
          placeHolder: l10n.t('Live templates (one output per template)'),
          matchOnDescription: true,
        },
      ),
    );
    if (chosen.length === 0) throw new Error(l10n.t('Live templates: choose at least one'));
    state.templates = chosen;
  },
};

/** Step 5, with several templates: the one played when the player does not choose. */
const defaultTemplateStep: PromptStep<CreateChannelState> = {
  shown: 5,
  shouldPrompt: (state) => (state.templates?.length ?? 0) >= 2,
  async prompt(state, step) {
    state.defaultTemplate = answered(
      await state.ui.pick(
        state.templates!.map((template) => ({
          label: template.displayName,
          description: `${template.videoWidth}x${template.videoHeight}`,
          value: template,
        })),
        { title: state.title, ...step, placeHolder: l10n.t('Default output (played when the player does not choose)') },
      ),
    );
  },
};

export const templateSteps = [templatesStep, defaultTemplateStep];
