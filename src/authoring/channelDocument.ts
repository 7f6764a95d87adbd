/**
 * "Open as File": a channel as a *.channel.json document holding only what liveUpdate takes, with
 * the channel's and the groups' ids, so it can be changed and sent back without replacing groups.
 */
import type { Channel, Flag, OutputGroup } from '../api/types';
import type { JsonObject } from './rules/ruleKit';

const ROTATIONS = ['0', '90', '270'];
const LIVE_TYPES: readonly unknown[] = [0, 2, 3, 4];

export function channelToDocument(channel: Channel): JsonObject {
  const doc: JsonObject = { id: channel.id, name: channel.name, signalType: channel.signalType };
  if (channel.signalType === '2' && channel.pullStream) doc.pullStream = channel.pullStream;
  // Responses may carry null (or a kind this interface does not list): then the field is left out.
  if (LIVE_TYPES.includes(channel.liveType)) doc.liveType = channel.liveType;
  if (channel.type) doc.type = channel.type;
  if (channel.description) doc.description = channel.description;
  doc.outputGroupList = channel.outputGroupList.map(groupToDocument);
  return doc;
}

function groupToDocument(group: OutputGroup): JsonObject {
  const hls = group.protocolType === 1;
  const doc: JsonObject = { id: group.id, protocolType: group.protocolType };
  if (!hls && group.rtmpThirdPartyOutputUrl) doc.rtmpThirdPartyOutputUrl = group.rtmpThirdPartyOutputUrl;
  if (group.rotation && ROTATIONS.includes(group.rotation)) doc.rotation = group.rotation;
  doc.isRecord = group.isRecord ?? '0';
  if (group.needToMp4) doc.needToMp4 = group.needToMp4;
  if (hls) {
    doc.isTimeShift = group.isTimeShift ?? '0';
    if (group.isTimeShift === '1' && group.timeShiftDuration) doc.timeShiftDuration = group.timeShiftDuration;
    doc.isLiveEncrypt = group.isLiveEncrypt ?? '0';
  }
  const logoId = group.logoId ?? group.liveLogoId;
  if (logoId) doc.logoId = logoId;
  // Channel responses leave the templates' isDefault null; the outputs carry it.
  doc.outputTemplateList = group.outputTemplateList.map((template) => ({
    templateId: template.id,
    isDefault: defaultOf(group, template.id, template.isDefault),
  }));
  return doc;
}

function defaultOf(group: OutputGroup, templateId: string, fallback: Flag | null): Flag {
  return group.liveOutputs.find((output) => output.liveTemplateId === templateId)?.isDefault ?? fallback ?? '0';
}

export function channelDocumentText(channel: Channel): string {
  return `${JSON.stringify(channelToDocument(channel), null, 2)}\n`;
}

/** A file name from the channel name: `Morning news.channel.json`, safe on every file system. */
export function channelDocumentFileName(channel: Channel): string {
  // Control characters are refused by some file systems too.
  const base = channel.name
    // eslint-disable-next-line no-control-regex -- the control range is the point here
    .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '-')
    .replace(/^[.\s-]+|[.\s]+$/g, '')
    .slice(0, 80);
  return `${base || channel.id}.channel.json`;
}
