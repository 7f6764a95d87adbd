import type { Channel, ChannelDefinition, LiveTemplate, OutputGroupDefinition, ProtocolType } from '../../api/types';
import { PROTOCOL_HLS, PROTOCOL_RTMP } from '../../api/types';
import type { PickItem } from '../ui';
import type { AppContext } from '../context';
import { answered, askInteger, askText } from './inputs';

/** Schemes a pull source may use. */
const PULL_SCHEMES = /^(rtmp|rtmps|rtsp|srt|http|https):\/\/\S+$/i;

function pullAddressRule(value: string): string | undefined {
  return PULL_SCHEMES.test(value)
    ? undefined
    : 'Pull address must be an rtmp://, rtmps://, rtsp://, srt://, http:// or https:// address';
}

type GroupOption = 'record' | 'timeShift' | 'encrypt';

/**
 * videoPlatform.createChannel: name, push or pull (and the pull address), category, output
 * groups (HLS and/or RTMP with their options) and live templates; then liveCreateChannel, the
 * view refreshed and the new channel revealed.
 */
export async function createChannel(ctx: AppContext): Promise<Channel | undefined> {
  const title = 'Create channel';
  const ui = ctx.ui;
  const client = await ctx.connection.activeClient();
  const name = answered(
    await askText(ui, { title, field: 'Channel name', prompt: 'Name of the new channel', maxLength: 100 }),
  );
  const signalType = answered(
    await ui.pick<'1' | '2'>(
      [
        {
          label: '$(arrow-up) Push',
          description: 'the source is pushed to the channel (an encoder sends it)',
          value: '1',
        },
        { label: '$(arrow-down) Pull', description: 'the platform pulls the source from an address', value: '2' },
      ],
      { title, placeHolder: 'How does the source reach the channel?' },
    ),
  );
  const definition: ChannelDefinition = { name, signalType, outputGroupList: [] };
  if (signalType === '2') {
    definition.pullStream = answered(
      await askText(ui, {
        title,
        field: 'Pull address',
        prompt: 'Address the platform pulls the source from',
        placeHolder: 'rtmp://source.example/live/stream',
        rule: pullAddressRule,
      }),
    );
  }

  const categories = await client.liveChannelTypeList();
  const category = answered(
    await ui.pick<{ id?: string; name?: string }>(
      [
        { label: '$(circle-slash) No category', value: {} },
        ...categories.map((candidate) => ({
          label: `$(folder) ${candidate.name}`,
          value: { id: candidate.id, name: candidate.name },
        })),
      ],
      { title, placeHolder: 'Category of the channel' },
    ),
  );
  if (category.id) {
    definition.type = category.id;
    definition.typeName = category.name;
  }

  const protocols = answered(
    await ui.pickMany<ProtocolType>(
      [
        {
          label: 'HLS',
          description: 'playlists for players and browsers; recording, time shift, encryption',
          value: PROTOCOL_HLS,
          picked: true,
        },
        { label: 'RTMP', description: 'RTMP output, optionally to a third-party ingest', value: PROTOCOL_RTMP },
      ],
      { title, placeHolder: 'Output groups' },
    ),
  );
  if (protocols.length === 0) throw new Error('Output groups: choose at least one of HLS and RTMP');

  const templates = await client.liveGetTemplates();
  if (templates.length === 0) throw new Error('Live templates: the account has none; create one first');
  const chosen = answered(
    await ui.pickMany<LiveTemplate>(
      templates.map((template, index) => ({
        label: template.displayName,
        description: `${template.videoWidth}x${template.videoHeight} · ${template.videoBitrate} kbps`,
        value: template,
        picked: index === 0,
      })),
      { title, placeHolder: 'Live templates (one output per template)', matchOnDescription: true },
    ),
  );
  if (chosen.length === 0) throw new Error('Live templates: choose at least one');
  let defaultTemplate = chosen[0]!;
  if (chosen.length > 1) {
    defaultTemplate = answered(
      await ui.pick(
        chosen.map((template) => ({
          label: template.displayName,
          description: `${template.videoWidth}x${template.videoHeight}`,
          value: template,
        })),
        { title, placeHolder: 'Default output (played when the player does not choose)' },
      ),
    );
  }
  const outputTemplateList = chosen.map((template) => ({
    templateId: template.id,
    isDefault: template === defaultTemplate ? ('1' as const) : ('0' as const),
  }));

  for (const protocolType of protocols) {
    const group: OutputGroupDefinition = { protocolType, outputTemplateList };
    const optionItems: PickItem<GroupOption>[] = [
      { label: 'Record', description: 'keep a recording of the broadcast', value: 'record' },
    ];
    if (protocolType === PROTOCOL_HLS) {
      optionItems.push({ label: 'Time shift', description: 'viewers can go back in time', value: 'timeShift' });
      optionItems.push({ label: 'Encrypt', description: 'encrypt the HLS output', value: 'encrypt' });
    }
    const options = answered(
      await ui.pickMany(optionItems, {
        title,
        placeHolder: `${protocolType === PROTOCOL_HLS ? 'HLS' : 'RTMP'} options (none is fine)`,
      }),
    );
    if (options.includes('record')) group.isRecord = '1';
    if (options.includes('encrypt')) group.isLiveEncrypt = '1';
    if (options.includes('timeShift')) {
      group.isTimeShift = '1';
      group.timeShiftDuration = String(
        answered(
          await askInteger(ui, {
            title,
            field: 'Time shift duration',
            prompt: 'Hours viewers can go back',
            value: 2,
            min: 1,
            max: 168,
          }),
        ),
      );
    }
    definition.outputGroupList.push(group);
  }

  const channel = await ui.withProgress({ title: `Creating channel "${name}"`, cancellable: true }, ({ signal }) =>
    client.liveCreateChannel(definition, { signal }),
  );
  ctx.log.info(`Created channel ${channel.id} "${channel.name}"`);
  ctx.models.channels.refresh();
  await ctx.reveal.channel(channel.id);
  void ui.info(`Created channel "${channel.name}".`);
  return channel;
}
