import type { Channel, ChannelStatus, LiveOutput, OutputGroup } from '../../api/types';
import { ChannelStatuses, isChannelRunning, PROTOCOL_HLS, StreamStatuses } from '../../api/types';
import { l10n } from '../../l10n/l10n';
import { formatCategory, formatDateTime } from '../util/format';
import { hideAuthCode } from '../util/secretAddress';
import { md, stillAddress, type NodeIcon, type NodeView } from './nodeView';

/** Status names (platform-facts section 3) as used in labels and context flags; texts translated when shown. */
const STATE: Record<ChannelStatus, { flag: string; text: () => string }> = {
  0: { flag: 'new', text: () => l10n.t('New (never started)') },
  1: { flag: 'stopped', text: () => l10n.t('Stopped') },
  2: { flag: 'live', text: () => l10n.t('Live') },
  3: { flag: 'pulling', text: () => l10n.t('Pulling the source') },
  5: { flag: 'starting', text: () => l10n.t('Starting') },
};

function state(status: number): { flag: string; text: string } {
  const known = STATE[status as ChannelStatus];
  return known ? { flag: known.flag, text: known.text() } : { flag: 'unknown', text: l10n.t('Status {0}', status) };
}

export function channelStateText(channel: Channel): string {
  const base = state(channel.status).text;
  if (channel.status === ChannelStatuses.live || channel.status === ChannelStatuses.pulling) {
    return channel.streamStatus === StreamStatuses.noSource
      ? l10n.t('{0}, no source', base)
      : l10n.t('{0}, source present', base);
  }
  return base;
}

/**
 * The state in a few words for the row's description, which the default side bar width cuts after about
 * twenty characters ("Live, source prese..."); the tooltip says it in full (channelStateText).
 */
export function channelStateWord(channel: Channel): string {
  const noSource = channel.streamStatus === StreamStatuses.noSource;
  switch (channel.status) {
    case ChannelStatuses.initialised:
      return l10n.t('New');
    case ChannelStatuses.live:
      return noSource ? l10n.t('Live, no source') : l10n.t('Live');
    case ChannelStatuses.pulling:
      return noSource ? l10n.t('Pulling, no source') : l10n.t('Pulling');
    default:
      return state(channel.status).text;
  }
}

/** A channel is "running" (stop makes sense) while live, pulling or starting. */
export function isRunning(channel: Channel): boolean {
  return isChannelRunning(channel.status);
}

/** Still moving between states: the view polls it until it settles. */
export function isChannelSettling(channel: Channel): boolean {
  return channel.status === ChannelStatuses.starting;
}

export function protocolName(protocolType: number): string {
  return protocolType === PROTOCOL_HLS ? 'HLS' : 'RTMP';
}

/**
 * `simulated`: the platform simulates live media (a local platform without ffmpeg): its HLS has no media, so the
 * flag is `simhls` and the menus keyed on `+hls` (Inspect Stream, Open Player, open the address) are not offered.
 */
function protocolFlag(protocolType: number, simulated = false): string {
  return protocolType === PROTOCOL_HLS ? (simulated ? 'simhls' : 'hls') : 'rtmp';
}

/** What a row of a channel with simulated live media says. */
const simulatedText = (): string => l10n.t('simulated live: needs ffmpeg');

export function channelContextValue(channel: Channel, busy: boolean, simulated = false): string {
  const flags = ['channel', state(channel.status).flag];
  const protocols = new Set(channel.outputGroupList.map((group) => protocolFlag(group.protocolType, simulated)));
  if (protocols.has('hls')) flags.push('hls');
  if (protocols.has('simhls')) flags.push('simhls');
  if (protocols.has('rtmp')) flags.push('rtmp');
  flags.push(String(channel.signalType) === '2' ? 'pull' : 'push');
  if (busy) flags.push('busy');
  return flags.join('+');
}

function channelIcon(channel: Channel, busy: boolean): NodeIcon {
  if (busy || channel.status === ChannelStatuses.starting) return { id: 'loading~spin', color: 'charts.yellow' };
  switch (channel.status) {
    case ChannelStatuses.live:
      return {
        id: 'broadcast',
        color: channel.streamStatus === StreamStatuses.noSource ? 'charts.orange' : 'charts.green',
      };
    case ChannelStatuses.pulling:
      return {
        id: 'cloud-download',
        color: channel.streamStatus === StreamStatuses.noSource ? 'charts.orange' : 'charts.blue',
      };
    case ChannelStatuses.ready:
      return { id: 'debug-stop', color: 'descriptionForeground' };
    case ChannelStatuses.initialised:
      return { id: 'circle-large-outline', color: 'descriptionForeground' };
    default:
      return { id: 'question', color: 'charts.orange' };
  }
}

/** "1280x720 1500 kbps" */
export function outputSize(width: number, height: number, videoBitrate: number): string {
  return l10n.t('{0}x{1} {2} kbps', width, height, videoBitrate);
}

function groupFlags(group: OutputGroup): string[] {
  const flags: string[] = [];
  if (group.isRecord === '1') flags.push(group.needToMp4 === '1' ? l10n.t('recording (MP4)') : l10n.t('recording'));
  if (group.isTimeShift === '1') flags.push(l10n.t('time shift {0} h', group.timeShiftDuration ?? '?'));
  if (group.isLiveEncrypt === '1') flags.push(l10n.t('encrypted'));
  if (group.liveLogoId || group.logoId) flags.push(l10n.t('logo'));
  if (group.rotation && group.rotation !== '0') flags.push(l10n.t('rotated {0}°', group.rotation));
  return flags;
}

function groupSummary(group: OutputGroup): string {
  const outputs = group.liveOutputs.length
    ? group.liveOutputs
        .map((output) => outputSize(output.videoWidth, output.videoHeight, output.videoBitrate))
        .join(', ')
    : group.outputTemplateList
        .map((template) => outputSize(template.videoWidth, template.videoHeight, template.videoBitrate))
        .join(', ');
  const flags = groupFlags(group);
  const summary = l10n.t('{0}: {1}', protocolName(group.protocolType), outputs || l10n.t('no outputs'));
  return flags.length ? l10n.t('{0} ({1})', summary, flags.join(', ')) : summary;
}

function channelTooltip(channel: Channel, simulated: boolean): string {
  const lines = [`**${md(channel.name)}**`, '', `${md(channelStateText(channel))}`];
  if (simulated) {
    lines.push(
      '',
      l10n.t(
        'Simulated live: this local platform found no ffmpeg, so its channels have no real media to play or inspect. Set videoPlatform.ffmpegPath or install ffmpeg, then restart the local platform.',
      ),
    );
  }
  if (channel.description) lines.push('', md(channel.description));
  lines.push('');
  const pull = String(channel.signalType) === '2';
  lines.push(
    `- ${
      pull
        ? l10n.t('Source: pull from {0}', `\`${hideAuthCode(channel.pullStream ?? '?')}\``)
        : l10n.t('Source: push to {0}', `\`${hideAuthCode(channel.pushUrl)}\``)
    }`,
  );
  if (channel.typeName)
    lines.push(
      `- ${l10n.t('Category: {0}', md(formatCategory({ name: channel.typeName, id: channel.type ?? undefined })))}`,
    );
  if (channel.streamWidth && channel.streamHeight) {
    lines.push(
      `- ${l10n.t('Incoming stream: {0}', outputSize(channel.streamWidth, channel.streamHeight, channel.streamBitrate ?? 0))}`,
    );
  }
  for (const group of channel.outputGroupList) lines.push(`- ${groupSummary(group)}`);
  if (channel.startTime) lines.push(`- ${l10n.t('Started: {0}', formatDateTime(channel.startTime))}`);
  if (channel.endTime) lines.push(`- ${l10n.t('Ended: {0}', formatDateTime(channel.endTime))}`);
  lines.push(`- ${l10n.t('Id: {0}', `\`${channel.id}\``)}`);
  return lines.join('\n');
}

/**
 * `transient` is the text shown while an operation on the channel runs ("Starting..."); `simulated`: the platform
 * simulates live media (see protocolFlag).
 */
export function channelView(channel: Channel, transient?: string, simulated = false): NodeView {
  const busy = transient !== undefined;
  const protocols = [...new Set(channel.outputGroupList.map((group) => protocolName(group.protocolType)))].join('+');
  const description = busy
    ? transient
    : isChannelSettling(channel)
      ? l10n.t('Starting...')
      : [channelStateWord(channel), simulated ? simulatedText() : '', protocols, channel.typeName ?? '']
          .filter(Boolean)
          .join(' · ');
  return {
    id: `channel:${channel.id}`,
    label: channel.name,
    description,
    tooltip: channelTooltip(channel, simulated),
    still: stillAddress(channel.thumbnailUrl),
    icon: channelIcon(channel, busy),
    contextValue: channelContextValue(channel, busy, simulated),
    collapsible: channel.outputGroupList.length ? 'collapsed' : 'none',
  };
}

export function outputGroupView(group: OutputGroup, simulated = false): NodeView {
  const protocol = protocolFlag(group.protocolType, simulated);
  const flags = ['outputGroup', protocol];
  if (group.isRecord === '1') flags.push('record');
  if (group.isTimeShift === '1') flags.push('timeshift');
  if (group.isLiveEncrypt === '1') flags.push('encrypted');
  if (group.liveLogoId || group.logoId) flags.push('logo');
  const details = groupFlags(group);
  const tooltip = [
    l10n.t('**{0} output group** {1}', protocolName(group.protocolType), md(group.name)),
    '',
    `- ${groupSummary(group)}`,
  ];
  if (group.rtmpThirdPartyOutputUrl) {
    tooltip.push(`- ${l10n.t('Third-party ingest: {0}', `\`${group.rtmpThirdPartyOutputUrl}\``)}`);
  }
  tooltip.push(`- ${l10n.t('Id: {0}', `\`${group.id}\``)}`);
  return {
    id: `outputGroup:${group.id}`,
    label: group.name ? `${protocolName(group.protocolType)} ${group.name}` : protocolName(group.protocolType),
    description: [
      group.liveOutputs.length === 1 ? l10n.t('1 output') : l10n.t('{0} outputs', group.liveOutputs.length),
      ...details,
    ].join(' · '),
    tooltip: tooltip.join('\n'),
    icon: { id: group.protocolType === PROTOCOL_HLS ? 'list-ordered' : 'radio-tower' },
    contextValue: flags.join('+'),
    collapsible: group.liveOutputs.length ? 'collapsed' : 'none',
  };
}

export function outputView(output: LiveOutput, simulated = false): NodeView {
  const isDefault = output.isDefault === '1';
  return {
    id: `output:${output.id}`,
    label: isDefault
      ? l10n.t('{0} (default)', outputSize(output.videoWidth, output.videoHeight, output.videoBitrate))
      : outputSize(output.videoWidth, output.videoHeight, output.videoBitrate),
    description: output.publicOutputUrl,
    tooltip: [
      l10n.t(
        '**{0} output** {1}',
        protocolName(output.protocolType),
        outputSize(output.videoWidth, output.videoHeight, output.videoBitrate),
      ),
      '',
      `- ${l10n.t('Audio: {0} kbps', output.audioBitrate)}`,
      `- ${l10n.t('Play address: {0}', `\`${output.publicOutputUrl}\``)}`,
    ].join('\n'),
    icon: { id: 'play-circle' },
    contextValue: ['output', protocolFlag(output.protocolType, simulated), ...(isDefault ? ['default'] : [])].join('+'),
    collapsible: 'none',
  };
}
