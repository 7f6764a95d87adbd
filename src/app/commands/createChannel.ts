import type {
  Channel,
  ChannelCategory,
  ChannelDefinition,
  LiveTemplate,
  OutputGroupDefinition,
  ProtocolType,
} from '../../api/types';
import { PROTOCOL_HLS, PROTOCOL_RTMP } from '../../api/types';
import { l10n } from '../../l10n/l10n';
import type { PickItem, StepOptions } from '../ui';
import type { AppContext } from '../context';
import { answered, askInteger, askText } from './inputs';
import { GoToStep, runWizard, type WizardStep } from './wizard';

/** Schemes a pull source may use. */
const PULL_SCHEMES = /^(rtmp|rtmps|rtsp|srt|http|https):\/\/\S+$/i;

function pullAddressRule(value: string): string | undefined {
  return PULL_SCHEMES.test(value)
    ? undefined
    : l10n.t('Pull address must be an rtmp://, rtmps://, rtsp://, srt://, http:// or https:// address');
}

type GroupOption = 'record' | 'timeShift' | 'encrypt';

/** The wizard's answers so far; kept when the user goes back, so a question can offer them again. */
interface Answers {
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

const TOTAL_STEPS = 6;

function optionText(options: readonly GroupOption[] | undefined, hours: number | undefined): string {
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
function definitionOf(answers: Answers): ChannelDefinition {
  const definition: ChannelDefinition = { name: answers.name!, signalType: answers.signalType!, outputGroupList: [] };
  if (answers.signalType === '2') definition.pullStream = answers.pullStream!;
  if (answers.category?.id) {
    definition.type = answers.category.id;
    definition.typeName = answers.category.name;
  }
  const chosen = answers.templates ?? [];
  const defaultTemplate = chosen.length > 1 ? answers.defaultTemplate : chosen[0];
  const outputTemplateList = chosen.map((template) => ({
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

/**
 * videoPlatform.createChannel: a wizard of six steps with Back (name; push or pull and the pull address;
 * category; output groups with their options; live templates; a summary whose rows change their step and
 * come back to the summary: wizard.ts),
 * then liveCreateChannel and the new channel shown in the view whatever its filter (or why not).
 */
export async function createChannel(ctx: AppContext): Promise<Channel | undefined> {
  const title = l10n.t('Create channel');
  const ui = ctx.ui;
  const client = await ctx.connection.activeClient();
  const answers: Answers = {};
  let categories: ChannelCategory[] | undefined;
  let templates: LiveTemplate[] | undefined;
  const hasHls = (): boolean => answers.protocols?.includes(PROTOCOL_HLS) ?? false;
  const hasRtmp = (): boolean => answers.protocols?.includes(PROTOCOL_RTMP) ?? false;
  const groupOptions = async (protocolType: ProtocolType, step: StepOptions): Promise<GroupOption[]> => {
    const earlier = (protocolType === PROTOCOL_HLS ? answers.hlsOptions : answers.rtmpOptions) ?? [];
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
      await ui.pickMany(
        optionItems.map((item) => ({ ...item, picked: earlier.includes(item.value!) })),
        {
          title,
          ...step,
          placeHolder:
            protocolType === PROTOCOL_HLS
              ? l10n.t('HLS options (none is fine)')
              : l10n.t('RTMP options (none is fine)'),
        },
      ),
    );
  };

  const steps: WizardStep[] = [
    {
      shown: 1,
      ask: async (step) => {
        answers.name = answered(
          await askText(ui, {
            title,
            ...step,
            field: l10n.t('Channel name'),
            prompt: l10n.t('Name of the new channel'),
            value: answers.name,
            maxLength: 100,
          }),
        );
      },
    },
    {
      shown: 2,
      ask: async (step) => {
        answers.signalType = answered(
          await ui.pick<'1' | '2'>(
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
            { title, ...step, placeHolder: l10n.t('How does the source reach the channel?') },
          ),
        );
      },
    },
    {
      shown: 2,
      skip: () => answers.signalType !== '2',
      ask: async (step) => {
        answers.pullStream = answered(
          await askText(ui, {
            title,
            ...step,
            field: l10n.t('Pull address'),
            prompt: l10n.t('Address the platform pulls the source from'),
            placeHolder: 'rtmp://source.example/live/stream',
            value: answers.pullStream,
            rule: pullAddressRule,
          }),
        );
      },
    },
    {
      shown: 3,
      ask: async (step) => {
        categories ??= await client.liveChannelTypeList();
        answers.category = answered(
          await ui.pick<{ id?: string; name?: string }>(
            [
              { label: l10n.t('$(circle-slash) No category'), value: {} },
              ...categories.map((candidate) => ({
                label: `$(folder) ${candidate.name}`,
                value: { id: candidate.id, name: candidate.name },
              })),
            ],
            { title, ...step, placeHolder: l10n.t('Category of the channel') },
          ),
        );
      },
    },
    {
      shown: 4,
      ask: async (step) => {
        const earlier = answers.protocols ?? [PROTOCOL_HLS];
        const protocols = answered(
          await ui.pickMany<ProtocolType>(
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
            { title, ...step, placeHolder: l10n.t('Output groups') },
          ),
        );
        if (protocols.length === 0) throw new Error(l10n.t('Output groups: choose at least one of HLS and RTMP'));
        answers.protocols = protocols;
      },
    },
    {
      shown: 4,
      skip: () => !hasHls(),
      ask: async (step) => {
        answers.hlsOptions = await groupOptions(PROTOCOL_HLS, step);
      },
    },
    {
      shown: 4,
      skip: () => !hasHls() || !answers.hlsOptions?.includes('timeShift'),
      ask: async (step) => {
        answers.timeShiftHours = answered(
          await askInteger(ui, {
            title,
            ...step,
            field: l10n.t('Time shift duration'),
            prompt: l10n.t('Hours viewers can go back'),
            value: answers.timeShiftHours ?? 2,
            min: 1,
            max: 168,
          }),
        );
      },
    },
    {
      shown: 4,
      skip: () => !hasRtmp(),
      ask: async (step) => {
        answers.rtmpOptions = await groupOptions(PROTOCOL_RTMP, step);
      },
    },
    {
      shown: 5,
      ask: async (step) => {
        templates ??= await client.liveGetTemplates();
        if (templates.length === 0) throw new Error(l10n.t('Live templates: the account has none; create one first'));
        const earlier = new Set((answers.templates ?? templates.slice(0, 1)).map((template) => template.id));
        const chosen = answered(
          await ui.pickMany<LiveTemplate>(
            templates.map((template) => ({
              label: template.displayName,
              description: `${template.videoWidth}x${template.videoHeight} · ${template.videoBitrate} kbps`,
              value: template,
              picked: earlier.has(template.id),
            })),
            {
              title,
              ...step,
              placeHolder: l10n.t('Live templates (one output per template)'),
              matchOnDescription: true,
            },
          ),
        );
        if (chosen.length === 0) throw new Error(l10n.t('Live templates: choose at least one'));
        answers.templates = chosen;
      },
    },
    {
      shown: 5,
      skip: () => (answers.templates?.length ?? 0) < 2,
      ask: async (step) => {
        answers.defaultTemplate = answered(
          await ui.pick(
            answers.templates!.map((template) => ({
              label: template.displayName,
              description: `${template.videoWidth}x${template.videoHeight}`,
              value: template,
            })),
            { title, ...step, placeHolder: l10n.t('Default output (played when the player does not choose)') },
          ),
        );
      },
    },
  ];
  // The summary: Create, or a row that goes back to the step it shows.
  const stepOfRow = { name: 0, source: 1, category: 3, outputs: 4, templates: 8 } as const;
  steps.push({
    shown: 6,
    ask: async (step) => {
      const chosen = answers.templates ?? [];
      const defaultTemplate = chosen.length > 1 ? answers.defaultTemplate : chosen[0];
      const outputs = (answers.protocols ?? []).map((protocol) =>
        protocol === PROTOCOL_HLS
          ? `HLS${optionText(answers.hlsOptions, answers.timeShiftHours)}`
          : `RTMP${optionText(answers.rtmpOptions, undefined)}`,
      );
      const change = l10n.t('change');
      const choice = answered(
        await ui.pick<'create' | keyof typeof stepOfRow>(
          [
            { label: l10n.t('$(check) Create channel "{0}"', answers.name ?? ''), value: 'create' },
            { label: l10n.t('Choose a row to change it'), separator: true },
            { label: l10n.t('Name: {0}', answers.name ?? ''), description: change, value: 'name' },
            {
              label:
                answers.signalType === '2'
                  ? l10n.t('Source: pulled from {0}', answers.pullStream ?? '')
                  : l10n.t('Source: pushed by an encoder'),
              description: change,
              value: 'source',
            },
            {
              label: l10n.t('Category: {0}', answers.category?.name ?? l10n.t('none')),
              description: change,
              value: 'category',
            },
            { label: l10n.t('Output groups: {0}', outputs.join(', ')), description: change, value: 'outputs' },
            {
              label: l10n.t(
                'Live templates: {0}',
                chosen
                  .map((template) =>
                    template === defaultTemplate && chosen.length > 1
                      ? l10n.t('{0} (default)', template.displayName)
                      : template.displayName,
                  )
                  .join(', '),
              ),
              description: change,
              value: 'templates',
            },
          ],
          { title, ...step, placeHolder: l10n.t('Create the channel, or change a step') },
        ),
      );
      if (choice !== 'create') throw new GoToStep(stepOfRow[choice]);
    },
  });
  await runWizard(steps, TOTAL_STEPS);

  const definition = definitionOf(answers);
  const name = definition.name;
  const channel = await ui.withProgress(
    { title: l10n.t('Creating channel "{0}"', name), cancellable: true },
    ({ signal }) => client.liveCreateChannel(definition, { signal }),
  );
  ctx.log.info(`Created channel ${channel.id} "${channel.name}"`);
  await showCreatedChannel(ctx, channel);
  return channel;
}

/**
 * The new channel in the view, whatever its filter: placed at the top of its list (no pages read to find
 * it) and revealed; when the filter hides it, the message says which part and offers to clear the filter.
 */
export async function showCreatedChannel(ctx: AppContext, channel: Channel): Promise<void> {
  const hiddenBy = ctx.models.channels.showCreated(channel);
  if (hiddenBy === undefined) {
    await ctx.reveal.channel(channel.id);
    void ctx.ui.info(l10n.t('Created channel "{0}".', channel.name));
    return;
  }
  const clear = l10n.t('Clear Filter');
  const choice = await ctx.ui.info(
    l10n.t('Created channel "{0}". The Live channels filter hides it ({1}).', channel.name, hiddenBy),
    clear,
  );
  if (choice === clear) {
    ctx.models.channels.clearFilter();
    ctx.models.channels.showCreated(channel);
    await ctx.reveal.channel(channel.id);
  }
}
