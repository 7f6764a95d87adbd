import type { ProtocolType } from '../../../api/types';
import { PROTOCOL_HLS, PROTOCOL_RTMP } from '../../../api/types';
import { l10n } from '../../../l10n/l10n';
import { answered, askInteger } from '../../ask/inputs';
import type { PromptStep } from '../../ask/wizard';
import type { PickItem, StepOptions } from '../../ui';
import type { CreateChannelState, GroupOption } from './state';

const hasHls = (state: CreateChannelState): boolean => state.protocols?.includes(PROTOCOL_HLS) ?? false;
const hasRtmp = (state: CreateChannelState): boolean => state.protocols?.includes(PROTOCOL_RTMP) ?? false;

/** Step 4: HLS, RTMP or both. */
const protocolsStep: PromptStep<CreateChannelState> = {
  shown: 4,
  async prompt(state, step) {
    const earlier = state.protocols ?? [PROTOCOL_HLS];
    const protocols = answered(
      await state.ui.pickMany<ProtocolType>(
        [
          {
            label: 'HLS',
            description: l10n.t('playlists for players and browsers; recording, time shift, encryption'),
            value: PROTOCOL_HLS,
            picked: earlier.includes(PROTOCOL_HLS),
          },
          {
            label: 'RTMP',
            description: l10n.t('RTMP output, optionally to a third-party ingest'),
            value: PROTOCOL_RTMP,
            picked: earlier.includes(PROTOCOL_RTMP),
          },
        ],
        { title: state.title, ...step, placeHolder: l10n.t('Output groups') },
      ),
    );
    if (protocols.length === 0) throw new Error(l10n.t('Output groups: choose at least one of HLS and RTMP'));
    state.protocols = protocols;
  },
};

/** The options of one output group (HLS has time shift and encryption too), the earlier choice picked. */
async function groupOptions(
  state: CreateChannelState,
  protocolType: ProtocolType,
  step: StepOptions,
): Promise<GroupOption[]> {
  const earlier = (protocolType === PROTOCOL_HLS ? state.hlsOptions : state.rtmpOptions) ?? [];
  const optionItems: PickItem<GroupOption>[] = [
    { label: l10n.t('Record'), description: l10n.t('keep a recording of the broadcast'), value: 'record' },
  ];
  if (protocolType === PROTOCOL_HLS) {
    optionItems.push({
      label: l10n.t('Time shift'),
      description: l10n.t('viewers can go back in time'),
      value: 'timeShift',
    });
    optionItems.push({ label: l10n.t('Encrypt'), description: l10n.t('encrypt the HLS output'), value: 'encrypt' });
  }
  return answered(
    await state.ui.pickMany(
      optionItems.map((item) => ({ ...item, picked: earlier.includes(item.value!) })),
      {
        title: state.title,
        ...step,
        placeHolder:
          protocolType === PROTOCOL_HLS ? l10n.t('HLS options (none is fine)') : l10n.t('RTMP options (none is fine)'),
      },
    ),
  );
}

const hlsOptionsStep: PromptStep<CreateChannelState> = {
  shown: 4,
  shouldPrompt: hasHls,
  async prompt(state, step) {
    state.hlsOptions = await groupOptions(state, PROTOCOL_HLS, step);
  },
};

const timeShiftStep: PromptStep<CreateChannelState> = {
  shown: 4,
  shouldPrompt: (state) => hasHls(state) && (state.hlsOptions?.includes('timeShift') ?? false),
  async prompt(state, step) {
    state.timeShiftHours = answered(
      await askInteger(state.ui, {
        title: state.title,
        ...step,
        field: l10n.t('Time shift duration'),
        prompt: l10n.t('Hours viewers can go back'),
        value: state.timeShiftHours ?? 2,
        min: 1,
        max: 168,
      }),
    );
  },
};

const rtmpOptionsStep: PromptStep<CreateChannelState> = {
  shown: 4,
  shouldPrompt: hasRtmp,
  async prompt(state, step) {
    state.rtmpOptions = await groupOptions(state, PROTOCOL_RTMP, step);
  },
};

/** Step 4: the output groups and each one's options. */
export const outputGroupSteps = [protocolsStep, hlsOptionsStep, timeShiftStep, rtmpOptionsStep];
