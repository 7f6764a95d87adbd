import type { PlatformClient } from '../../../api/client';
import type {
  Channel,
  ChannelCategory,
  ChannelDefinition,
  LiveTemplate,
  OutputGroupDefinition,
  ProtocolType,
} from '../../../api/types';
import { PROTOCOL_HLS } from '../../../api/types';
import { l10n } from '../../../l10n/l10n';
import type { Ui } from '../../ui';

export type GroupOption = 'record' | 'timeShift' | 'encrypt';

/** The wizard's answers so far; kept when the user goes back, so a question can offer them again. */
export interface ChannelAnswers {
  name?: string;
  signalType?: '1' | '2';
  pullStream?: string;
  category?: { id?: string; name?: string };
  protocols?: ProtocolType[];
  hlsOptions?: GroupOption[];
  timeShiftHours?: number;
  rtmpOptions?: GroupOption[];
  templates?: LiveTemplate[];
  defaultTemplate?: LiveTemplate;
}

/** Create Channel's one state: what the steps ask with, the account's lists (read once), the answers, the result. */
export interface CreateChannelState extends ChannelAnswers {
  readonly ui: Ui;
  readonly title: string;
  readonly client: PlatformClient;
  accountCategories?: ChannelCategory[];
  accountTemplates?: LiveTemplate[];
  channel?: Channel;
}

export const TOTAL_STEPS = 6;

/** The template played when the player does not choose: the one chosen, or the only one. */
export function defaultTemplateOf(answers: ChannelAnswers): LiveTemplate | undefined {
  const chosen = answers.templates ?? [];
  return chosen.length > 1 ? answers.defaultTemplate : chosen[0];
}

/** An output group's options as the summary shows them: " (record, time shift 2 h)". */
export function optionText(options: readonly GroupOption[] | undefined, hours: number | undefined): string {
  const names = (options ?? []).map((option) =>
    option === 'record'
      ? l10n.t('record')
      : option === 'encrypt'
        ? l10n.t('encrypt')
        : l10n.t('time shift {0} h', hours ?? 2),
  );
  return names.length ? ` (${names.join(', ')})` : '';
}

/** The channel the answers describe (what liveCreateChannel is sent). */
export function definitionOf(answers: ChannelAnswers): ChannelDefinition {
  const definition: ChannelDefinition = { name: answers.name!, signalType: answers.signalType!, outputGroupList: [] };
  if (answers.signalType === '2') definition.pullStream = answers.pullStream!;
  if (answers.category?.id) {
    definition.type = answers.category.id;
    definition.typeName = answers.category.name;
  }
  const defaultTemplate = defaultTemplateOf(answers);
  const outputTemplateList = (answers.templates ?? []).map((template) => ({
    templateId: template.id,
    isDefault: template === defaultTemplate ? ('1' as const) : ('0' as const),
  }));
  for (const protocolType of answers.protocols ?? []) {
    const group: OutputGroupDefinition = { protocolType, outputTemplateList };
    const options = (protocolType === PROTOCOL_HLS ? answers.hlsOptions : answers.rtmpOptions) ?? [];
    if (options.includes('record')) group.isRecord = '1';
    if (options.includes('encrypt')) group.isLiveEncrypt = '1';
    if (options.includes('timeShift')) {
      group.isTimeShift = '1';
      group.timeShiftDuration = String(answers.timeShiftHours ?? 2);
    }
    definition.outputGroupList.push(group);
  }
  return definition;
}
