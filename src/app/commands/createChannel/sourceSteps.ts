import { l10n } from '../../../l10n/l10n';
import { answered, askText } from '../../ask/inputs';
import type { PromptStep } from '../../ask/wizard';
import type { CreateChannelState } from './state';

/** Schemes a pull source may use. */
const PULL_SCHEMES = /^(rtmp|rtmps|rtsp|srt|http|https):\/\/\S+$/i;

function pullAddressRule(value: string): string | undefined {
  return PULL_SCHEMES.test(value)
    ? undefined
    : l10n.t('Pull address must be an rtmp://, rtmps://, rtsp://, srt://, http:// or https:// address');
}

/** Step 2: pushed by an encoder, or pulled from an address. */
const signalTypeStep: PromptStep<CreateChannelState> = {
  shown: 2,
  async prompt(state, step) {
    state.signalType = answered(
      await state.ui.pick<'1' | '2'>(
        [
          {
            label: l10n.t('$(arrow-up) Push'),
            description: l10n.t('the source is pushed to the channel (an encoder sends it)'),
            value: '1',
          },
          {
            label: l10n.t('$(arrow-down) Pull'),
            description: l10n.t('the platform pulls the source from an address'),
            value: '2',
          },
        ],
        { title: state.title, ...step, placeHolder: l10n.t('How does the source reach the channel?') },
      ),
    );
  },
};

/** Step 2, for a pulled source: the address the platform pulls. */
const pullAddressStep: PromptStep<CreateChannelState> = {
  shown: 2,
  shouldPrompt: (state) => state.signalType === '2',
  async prompt(state, step) {
    state.pullStream = answered(
      await askText(state.ui, {
        title: state.title,
        ...step,
        field: l10n.t('Pull address'),
        prompt: l10n.t('Address the platform pulls the source from'),
        placeHolder: 'rtmp://source.example/live/stream',
        value: state.pullStream,
        rule: pullAddressRule,
      }),
    );
  },
};

export const sourceSteps = [signalTypeStep, pullAddressStep];
