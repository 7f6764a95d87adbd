/**
 * The field lists of rest-interface section 2, written out from the interface document, so tests
 * can check that every listed field is present (null where unset) and nothing else is invented.
 */
import * as assert from 'node:assert/strict';

export const CHANNEL_FIELDS = [
  'id',
  'name',
  'description',
  'authCode',
  'type',
  'typeName',
  'signalType',
  'stream',
  'pullStream',
  'pullTaskId',
  'status',
  'streamStatus',
  'userId',
  'streamWidth',
  'streamHeight',
  'streamBitrate',
  'streamAudioBitrate',
  'streamFrameRate',
  'createTime',
  'updateTime',
  'startTime',
  'endTime',
  'autoEndTime',
  'thumbnailUrl',
  'pushUrl',
  'publicPlayUrl',
  'publicFlvPlayUrl',
  'liveType',
  'deviceId',
  'fillInfo',
  'outputGroupList',
];

export const OUTPUT_GROUP_FIELDS = [
  'id',
  'name',
  'protocolType',
  'channelId',
  'taskId',
  'isLiveEncrypt',
  'customerId',
  'contentId',
  'createTime',
  'updateTime',
  'liveLogoId',
  'logoId',
  'liveLogo',
  'rtmpThirdPartyOutputUrl',
  'isRecord',
  'recordTaskId',
  'recordStartTime',
  'needToMp4',
  'isTimeShift',
  'timeShiftDuration',
  'timeShiftTaskId',
  'rotation',
  'outputTemplateList',
  'liveOutputs',
];

export const OUTPUT_TEMPLATE_FIELDS = [
  'id',
  'templateId',
  'isDefault',
  'displayName',
  'name',
  'transcodeType',
  'type',
  'videoWidth',
  'videoHeight',
  'videoBitrate',
  'audioBitrate',
  'frameRate',
  'userId',
  'createTime',
  'updateTime',
];

export const LIVE_TEMPLATE_FIELDS = [
  ...OUTPUT_TEMPLATE_FIELDS,
  'advancedArguments',
  'advancedArgumentsObj',
  'videoCodec',
];

export const LIVE_OUTPUT_FIELDS = [
  'id',
  'publicOutputUrl',
  'videoWidth',
  'videoHeight',
  'videoBitrate',
  'audioBitrate',
  'protocolType',
  'userId',
  'channelId',
  'liveOutputGroupId',
  'liveTemplateId',
  'createTime',
  'updateTime',
  'isDefault',
];

export const CATEGORY_FIELDS = ['id', 'name', 'userId', 'createTime', 'updateTime'];

export const LIVE_LOGO_FIELDS = [
  'id',
  'name',
  'uri',
  'httpUrl',
  'width',
  'height',
  'offsetWidth',
  'offsetHeight',
  'opacity',
  'resize',
  'userId',
];

export const VIDEO_FIELDS = [
  'id',
  'parentId',
  'playrate',
  'fileName',
  'thumbnail',
  'cover',
  'title',
  'width',
  'height',
  'bitrate',
  'audioBitrate',
  'duration',
  'playNum',
  'size',
  'userId',
  'categoryId',
  'category',
  'status',
  'date',
  'uploadTime',
  'tag',
  'description',
  'contentId',
  'customId',
  'sourceContentId',
  'sourceCustomId',
  'transcodedVideoList',
  'subPlayrateList',
  'playCode',
  'type',
  'uri',
  'fastEditor',
  'videoType',
  'audio',
  'audioStatus',
  'audioTaskId',
  'subtitle',
  'subVideoType',
  'shareStatus',
  'shareToUserId',
  'shareCategoryId',
  'logoGroupId',
];

export const STREAM_FIELDS = [
  'name',
  'hlsUrl',
  'mp4Url',
  'flvUrl',
  'tsUrl',
  'hlsSize',
  'mp4Size',
  'flvSize',
  'tsSize',
  'videoWidth',
  'videoHeight',
  'videoBitrate',
  'audioBitrate',
  'defaultVideo',
  'taskId',
  'status',
  'idx',
  'type',
  'hlsEncryptType',
  'mp4EncryptType',
  'flvEncryptType',
  'tsEncryptType',
  'contentId',
  'customId',
  'aesKey',
];

export const PLAYBACK_FIELDS = ['id', 'videoType', 'cdns', 'comments'];
export const CDN_FIELDS = [
  'desc',
  'defaultCdn',
  'hls',
  'mp4',
  'flv',
  'ts',
  'audio',
  'rtmp',
  'thumbnail',
  'thumbnailInterval',
];
export const PLAYBACK_STREAM_FIELDS = [
  'url',
  'desc',
  'width',
  'height',
  'size',
  'encryptType',
  'contentId',
  'customId',
  'aesKey',
  'defaultVideo',
];
export const PLAY_URL_FIELDS = ['channelId', 'channelGroupId', 'channelGroupType', 'playUrl', 'playUrlList'];
export const PLAY_URL_ITEM_FIELDS = ['url', 'width', 'height', 'videoBitrate', 'audioBitrate', 'defaultVideo'];
export const TEMPLATE_GROUP_SUMMARY_FIELDS = [
  'id',
  'userId',
  'name',
  'type',
  'defaultGroup',
  'trailor',
  'trailorDuration',
  'logoGroupId',
  // Beside the facts' fields: the group's items, so it can be opened as a file (src/localPlatform/README.md).
  'transcodeTemplates',
];

/** Exactly the listed fields, none missing (undefined), none extra. */
export function assertFields(record: unknown, fields: readonly string[], what: string): void {
  assert.ok(record !== null && typeof record === 'object', `${what} is an object`);
  const keys = Object.keys(record as object);
  assert.deepEqual([...keys].sort(), [...fields].sort(), `fields of ${what}`);
  for (const f of fields) assert.notEqual((record as Record<string, unknown>)[f], undefined, `${what}.${f} is present`);
}

export const HEX32 = /^[0-9a-f]{32}$/;
