import type { Channel, ChannelStatus, LiveOutput, OutputGroup } from '../../api/types';
import { PROTOCOL_HLS } from '../../api/types';
import { hideAuthCode } from '../util/secretAddress';
import { md, stillMarkdown, type NodeIcon, type NodeView } from './nodeView';

/** Status names (platform-facts section 3) as used in labels and context flags. */
const STATE: Record<ChannelStatus, { flag: string; text: string }> = {
  0: { flag: 'new', text: 'New (never started)' },
  1: { flag: 'stopped', text: 'Stopped' },
  2: { flag: 'live', text: 'Live' },
  3: { flag: 'pulling', text: 'Pulling the source' },
  5: { flag: 'starting', text: 'Starting' },
};

function state(status: number): { flag: string; text: string } {
  return STATE[status as ChannelStatus] ?? { flag: 'unknown', text: `Status ${status}` };
}

export function channelStateText(channel: Channel): string {
  const base = state(channel.status).text;
  if (channel.status === 2 || channel.status === 3) {
    return channel.streamStatus === 2 ? `${base}, no source` : `${base}, source present`;
  }
  return base;
}

/** A channel is "running" (stop makes sense) while live, pulling or starting. */
export function isRunning(channel: Channel): boolean {
  return channel.status === 2 || channel.status === 3 || channel.status === 5;
}

/** Still moving between states: the view polls it until it settles. */
export function isChannelSettling(channel: Channel): boolean {
  return channel.status === 5;
}

export function protocolName(protocolType: number): string {
  return protocolType === PROTOCOL_HLS ? 'HLS' : 'RTMP';
}

function protocolFlag(protocolType: number): string {
  return protocolType === PROTOCOL_HLS ? 'hls' : 'rtmp';
}

export function channelContextValue(channel: Channel, busy: boolean): string {
  const flags = ['channel', state(channel.status).flag];
  const protocols = new Set(channel.outputGroupList.map((group) => protocolFlag(group.protocolType)));
  if (protocols.has('hls')) flags.push('hls');
  if (protocols.has('rtmp')) flags.push('rtmp');
  flags.push(String(channel.signalType) === '2' ? 'pull' : 'push');
  if (busy) flags.push('busy');
  return flags.join('+');
}

function channelIcon(channel: Channel, busy: boolean): NodeIcon {
  if (busy || channel.status === 5) return { id: 'loading~spin', color: 'charts.yellow' };
  switch (channel.status) {
    case 2:
      return { id: 'broadcast', color: channel.streamStatus === 2 ? 'charts.orange' : 'charts.green' };
    case 3:
      return { id: 'cloud-download', color: channel.streamStatus === 2 ? 'charts.orange' : 'charts.blue' };
    case 1:
      return { id: 'debug-stop', color: 'descriptionForeground' };
    case 0:
      return { id: 'circle-large-outline', color: 'descriptionForeground' };
    default:
      return { id: 'question', color: 'charts.orange' };
  }
}

/** "1280x720 1500 kbps" */
export function outputSize(width: number, height: number, videoBitrate: number): string {
  return `${width}x${height} ${videoBitrate} kbps`;
}

function groupFlags(group: OutputGroup): string[] {
  const flags: string[] = [];
  if (group.isRecord === '1') flags.push(group.needToMp4 === '1' ? 'recording (MP4)' : 'recording');
  if (group.isTimeShift === '1') flags.push(`time shift ${group.timeShiftDuration ?? '?'} h`);
  if (group.isLiveEncrypt === '1') flags.push('encrypted');
  if (group.liveLogoId || group.logoId) flags.push('logo');
  if (group.rotation && group.rotation !== '0') flags.push(`rotated ${group.rotation}°`);
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
  return `${protocolName(group.protocolType)}: ${outputs || 'no outputs'}${flags.length ? ` (${flags.join(', ')})` : ''}`;
}

function channelTooltip(channel: Channel): string {
  const lines = [`**${md(channel.name)}**`, '', `${md(channelStateText(channel))}`];
  if (channel.description) lines.push('', md(channel.description));
  lines.push('');
  const pull = String(channel.signalType) === '2';
  lines.push(
    `- Source: ${pull ? `pull from \`${hideAuthCode(channel.pullStream ?? '?')}\`` : `push to \`${hideAuthCode(channel.pushUrl)}\``}`,
  );
  if (channel.typeName) lines.push(`- Category: ${md(channel.typeName)}`);
  if (channel.streamWidth && channel.streamHeight) {
    lines.push(
      `- Incoming stream: ${outputSize(channel.streamWidth, channel.streamHeight, channel.streamBitrate ?? 0)}`,
    );
  }
  for (const group of channel.outputGroupList) lines.push(`- ${groupSummary(group)}`);
  if (channel.startTime) lines.push(`- Started: ${new Date(channel.startTime).toISOString()}`);
  if (channel.endTime) lines.push(`- Ended: ${new Date(channel.endTime).toISOString()}`);
  lines.push(`- Id: \`${channel.id}\``);
  const still = stillMarkdown(channel.thumbnailUrl);
  if (still) lines.push('', still);
  return lines.join('\n');
}

/** `transient` is the text shown while an operation on the channel runs ("Starting..."). */
export function channelView(channel: Channel, transient?: string): NodeView {
  const busy = transient !== undefined;
  const protocols = [...new Set(channel.outputGroupList.map((group) => protocolName(group.protocolType)))].join('+');
  const description = busy
    ? transient
    : isChannelSettling(channel)
      ? 'Starting...'
      : [channelStateText(channel), protocols, channel.typeName ?? ''].filter(Boolean).join(' · ');
  return {
    id: `channel:${channel.id}`,
    label: channel.name,
    description,
    tooltip: channelTooltip(channel),
    icon: channelIcon(channel, busy),
    contextValue: channelContextValue(channel, busy),
    collapsible: channel.outputGroupList.length ? 'collapsed' : 'none',
  };
}

export function outputGroupView(group: OutputGroup): NodeView {
  const protocol = protocolFlag(group.protocolType);
  const flags = ['outputGroup', protocol];
  if (group.isRecord === '1') flags.push('record');
  if (group.isTimeShift === '1') flags.push('timeshift');
  if (group.isLiveEncrypt === '1') flags.push('encrypted');
  if (group.liveLogoId || group.logoId) flags.push('logo');
  const details = groupFlags(group);
  const tooltip = [
    `**${protocolName(group.protocolType)} output group** ${md(group.name)}`,
    '',
    `- ${groupSummary(group)}`,
  ];
  if (group.rtmpThirdPartyOutputUrl) tooltip.push(`- Third-party ingest: \`${group.rtmpThirdPartyOutputUrl}\``);
  tooltip.push(`- Id: \`${group.id}\``);
  return {
    id: `outputGroup:${group.id}`,
    label: group.name ? `${protocolName(group.protocolType)} ${group.name}` : protocolName(group.protocolType),
    description: [`${group.liveOutputs.length} output${group.liveOutputs.length === 1 ? '' : 's'}`, ...details].join(
      ' · ',
    ),
    tooltip: tooltip.join('\n'),
    icon: { id: group.protocolType === PROTOCOL_HLS ? 'list-ordered' : 'radio-tower' },
    contextValue: flags.join('+'),
    collapsible: group.liveOutputs.length ? 'collapsed' : 'none',
  };
}

export function outputView(output: LiveOutput): NodeView {
  const isDefault = output.isDefault === '1';
  return {
    id: `output:${output.id}`,
    label: `${outputSize(output.videoWidth, output.videoHeight, output.videoBitrate)}${isDefault ? ' (default)' : ''}`,
    description: output.publicOutputUrl,
    tooltip: [
      `**${protocolName(output.protocolType)} output** ${outputSize(output.videoWidth, output.videoHeight, output.videoBitrate)}`,
      '',
      `- Audio: ${output.audioBitrate} kbps`,
      `- Play address: \`${output.publicOutputUrl}\``,
    ].join('\n'),
    icon: { id: 'play-circle' },
    contextValue: ['output', protocolFlag(output.protocolType), ...(isDefault ? ['default'] : [])].join('+'),
    collapsible: 'none',
  };
}
