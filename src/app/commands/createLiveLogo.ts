import type { LiveLogo, LiveLogoInput } from '../../api/types';
import type { AppContext } from '../context';
import { l10n } from '../../l10n/l10n';
import { answered, askInteger, askText } from '../ask/inputs';
import { runWizard, type ExecuteStep, type PromptStep } from '../ask/wizard';
import { inBackground } from '../failures';

/** Create Live Logo's one state: the answers (liveLogoCreate's fields, interface 4.2) and the logo made. */
interface LiveLogoState {
  readonly ctx: AppContext;
  readonly title: string;
  readonly input: Partial<LiveLogoInput>;
  logo?: LiveLogo;
}

type NumberField = 'width' | 'height' | 'offsetWidth' | 'offsetHeight' | 'opacity' | 'resize';

/** A whole-number question for one field; `field` and `prompt` are looked up when asked (the translator). */
function integerStep(
  key: NumberField,
  words: () => { field: string; prompt: string },
  bounds: { min: number; max: number; value?: number },
): PromptStep<LiveLogoState> {
  return {
    shown: 0,
    async prompt(state) {
      state.input[key] = answered(await askInteger(state.ctx.ui, { title: state.title, ...words(), ...bounds }));
    },
  };
}

const nameStep: PromptStep<LiveLogoState> = {
  shown: 0,
  async prompt(state) {
    state.input.name = answered(
      await askText(state.ctx.ui, {
        title: state.title,
        field: l10n.t('Logo name'),
        prompt: l10n.t('Name of the logo'),
        maxLength: 100,
      }),
    );
  },
};

const imageStep: PromptStep<LiveLogoState> = {
  shown: 0,
  async prompt(state) {
    state.input.uri = answered(
      await askText(state.ctx.ui, {
        title: state.title,
        field: l10n.t('Image path'),
        prompt: l10n.t('Relative path of the logo image on the platform'),
        placeHolder: 'logos/station.png',
        rule: (value) =>
          /^[a-z][a-z0-9+.-]*:\/\//i.test(value) || value.startsWith('/')
            ? l10n.t('Image path must be relative (no scheme, no leading /)')
            : undefined,
      }),
    );
  },
};

const PROMPT_STEPS: readonly PromptStep<LiveLogoState>[] = [
  nameStep,
  imageStep,
  integerStep('width', () => ({ field: l10n.t('Width'), prompt: l10n.t('Logo width in pixels') }), {
    min: 1,
    max: 7680,
  }),
  integerStep('height', () => ({ field: l10n.t('Height'), prompt: l10n.t('Logo height in pixels') }), {
    min: 1,
    max: 4320,
  }),
  integerStep(
    'offsetWidth',
    () => ({
      field: l10n.t('Horizontal offset'),
      prompt: l10n.t('Offset of the upper-left corner from the left, in pixels'),
    }),
    { value: 0, min: 0, max: 7680 },
  ),
  integerStep(
    'offsetHeight',
    () => ({
      field: l10n.t('Vertical offset'),
      prompt: l10n.t('Offset of the upper-left corner from the top, in pixels'),
    }),
    { value: 0, min: 0, max: 4320 },
  ),
  integerStep('opacity', () => ({ field: l10n.t('Opacity'), prompt: l10n.t('Opacity in percent, 100 is opaque') }), {
    value: 100,
    min: 0,
    max: 100,
  }),
  integerStep('resize', () => ({ field: l10n.t('Scale'), prompt: l10n.t('Scale in percent, 100 is no scaling') }), {
    value: 100,
    min: 1,
    max: 100,
  }),
];

const createStep: ExecuteStep<LiveLogoState> = {
  priority: 100,
  async execute(state, { signal }) {
    const client = await state.ctx.connection.activeClient();
    state.logo = await client.liveLogoCreate(state.input as LiveLogoInput, { signal });
  },
};

/** videoPlatform.createLiveLogo: a wizard over the liveLogoCreate fields (interface 4.2), a step per field. */
export async function createLiveLogo(ctx: AppContext): Promise<LiveLogo | undefined> {
  const { logo } = await runWizard<LiveLogoState>(ctx.ui, {
    state: { ctx, title: l10n.t('Create live logo'), input: {} },
    promptSteps: PROMPT_STEPS,
    executeSteps: [createStep],
    progressTitle: (state) => l10n.t('Creating live logo "{0}"', state.input.name ?? ''),
  });
  ctx.log.info(`Created live logo ${logo!.id} (${logo!.httpUrl})`);
  ctx.models.resources.refresh('liveLogo');
  const copyId = l10n.t('Copy Id');
  void ctx.ui.info(l10n.t('Created live logo "{0}" (id {1}).', logo!.name, logo!.id), copyId).then((choice) => {
    if (choice === copyId) inBackground(ctx.log, 'Copying the logo id', ctx.ui.copy(logo!.id));
  });
  return logo;
}
