/**
 * Records and requests of the platform interface (rest-interface.md section 2 and 4,
 * platform-facts.md sections 3 and 4). Field names are the platform's own.
 */

import type { CHANNEL_SORTS, SORT_ORDERS } from './operations/channels';
import type { VIDEO_SORTS } from './operations/videos';

/** Every response: code 0 and success true, or an error code (section 2.1). */
export interface Envelope<T> {
  code: number;
  message: string;
  result: T;
  success: boolean;
  /** Only on liveGetChannelsByPage: total number of matching channels. */
  count?: number;
}

/** `"0"` / `"1"` string flags, as the platform sends them. */
export type Flag = '0' | '1';

/** 1 HLS, 2 RTMP. */
export type ProtocolType = 1 | 2;
export const PROTOCOL_HLS = 1;
export const PROTOCOL_RTMP = 2;

/** Channel status (facts section 3): 0 initialised, 1 ready (stopped), 2 live, 3 pulling, 5 starting. */
export const ChannelStatuses = { initialised: 0, ready: 1, live: 2, pulling: 3, starting: 5 } as const;
export type ChannelStatus = (typeof ChannelStatuses)[keyof typeof ChannelStatuses];

/** "Running": live, pulling or starting (the statuses a stop applies to and a delete refuses). */
export function isChannelRunning(status: ChannelStatus | number): boolean {
  return status === ChannelStatuses.live || status === ChannelStatuses.pulling || status === ChannelStatuses.starting;
}
/** A channel's `streamStatus`: 1 normal (source present), 2 no source. */
export const StreamStatuses = { sourcePresent: 1, noSource: 2 } as const;
export type StreamStatus = (typeof StreamStatuses)[keyof typeof StreamStatuses];

/** 0 normal, 2 VR, 3 advanced (HD), 4 4K. */
export type LiveType = 0 | 2 | 3 | 4;

export interface LiveOutput {
  id: string;
  publicOutputUrl: string;
  videoWidth: number;
  videoHeight: number;
  videoBitrate: number;
  audioBitrate: number;
  protocolType: ProtocolType;
  userId: number;
  channelId: string;
  liveOutputGroupId: string;
  liveTemplateId: string;
  createTime: number | null;
  updateTime: number | null;
  isDefault: Flag;
}

/** An output template inside a channel, and the live template record (section 2.4). */
export interface OutputTemplate {
  id: string;
  templateId: string | null;
  isDefault: Flag | null;
  displayName: string;
  /** `<displayName>/<videoBitrate>kbps/<width>x<height>` */
  name: string;
  transcodeType: number;
  type: string;
  videoWidth: number;
  videoHeight: number;
  videoBitrate: number;
  audioBitrate: number;
  frameRate: number;
  userId: number | null;
  createTime: number | null;
  updateTime: number | null;
}

/** Keys of `advancedArguments` (section 4.3). */
export interface AdvancedArguments {
  rc?: number | string;
  gopSize?: number;
  bFrame?: number;
  bframe?: number;
  refFrame?: number;
  qualityLevel?: number;
  interlace?: -1 | 0 | 3;
  gopType?: 0 | 1;
  smartBorder?: 0 | 1 | 2;
  [key: string]: unknown;
}

/** The live template record (liveTemplateUpdate / liveTemplateCreate / liveGetTemplates). */
export interface LiveTemplate extends OutputTemplate {
  /** JSON text. */
  advancedArguments: string | null;
  advancedArgumentsObj: AdvancedArguments | null;
  videoCodec: string | null;
}

export interface LiveLogo {
  id: string;
  name: string;
  uri: string;
  httpUrl: string;
  width: number;
  height: number;
  offsetWidth: number;
  offsetHeight: number;
  opacity: number;
  resize: number;
  userId: number;
}

export interface OutputGroup {
  id: string;
  name: string | null;
  protocolType: ProtocolType;
  channelId: string;
  taskId: string | null;
  isLiveEncrypt: Flag | null;
  customerId: string | null;
  contentId: string | null;
  createTime: number | null;
  updateTime: number | null;
  liveLogoId: string | null;
  logoId: string | null;
  liveLogo: LiveLogo | null;
  rtmpThirdPartyOutputUrl: string | null;
  isRecord: Flag;
  recordTaskId: string | null;
  recordStartTime: number | null;
  needToMp4: Flag | null;
  isTimeShift: Flag | null;
  /** Hours. */
  timeShiftDuration: string | null;
  timeShiftTaskId: string | null;
  rotation: string | null;
  outputTemplateList: OutputTemplate[];
  liveOutputs: LiveOutput[];
}

export interface Channel {
  id: string;
  name: string;
  description: string | null;
  authCode?: string | null;
  /** Category id. */
  type: string | null;
  typeName: string | null;
  /** `1` push, `2` pull. */
  signalType: '1' | '2';
  stream: string;
  pullStream: string | null;
  pullTaskId: string | null;
  status: ChannelStatus;
  streamStatus: StreamStatus;
  userId: number;
  streamWidth: number | null;
  streamHeight: number | null;
  streamBitrate: number | null;
  streamAudioBitrate: number | null;
  streamFrameRate: number | null;
  createTime: number | null;
  updateTime: number | null;
  startTime: number | null;
  endTime: number | null;
  autoEndTime: number | null;
  thumbnailUrl: string;
  pushUrl: string;
  publicPlayUrl: string;
  publicFlvPlayUrl: string;
  liveType: LiveType;
  deviceId: string | null;
  fillInfo: unknown;
  outputGroupList: OutputGroup[];
}

/** Channel category (section 2.6). */
export interface ChannelCategory {
  id: string;
  name: string;
  userId: number;
  createTime: number;
  updateTime: number | null;
}

/** Flags accept `"0"`/`"1"` and numbers, as clients of the real service send both. */
export type FlagInput = Flag | 0 | 1;

/** An output group in a liveCreateChannel / liveUpdate body. */
export interface OutputGroupDefinition {
  /** Only for liveUpdate: keeps the group (and its play addresses); without it the group is replaced. */
  id?: string;
  protocolType: ProtocolType;
  rtmpThirdPartyOutputUrl?: string;
  rotation?: '0' | '90' | '270';
  isRecord?: FlagInput;
  needToMp4?: FlagInput;
  isTimeShift?: FlagInput;
  timeShiftDuration?: string;
  isLiveEncrypt?: FlagInput;
  logoId?: string;
  outputTemplateList: Array<{ templateId: string; isDefault: FlagInput }>;
}

/** The liveCreateChannel JSON body (and liveUpdate's, with `id`). */
export interface ChannelDefinition {
  name: string;
  signalType: '1' | '2' | 1 | 2;
  pullStream?: string;
  liveType?: LiveType;
  typeName?: string;
  type?: string;
  description?: string;
  outputGroupList: OutputGroupDefinition[];
}

export interface ChannelUpdate extends ChannelDefinition {
  id: string;
}

/** The channel list's sort keys, as the operation's spec accepts them. */
export type ChannelSortKey = (typeof CHANNEL_SORTS)[number];
export type SortOrder = (typeof SORT_ORDERS)[number];

export interface ChannelListQuery {
  /** 1-based page number; default 1. */
  start?: number;
  /** Page size; default 15. */
  number?: number;
  sort?: ChannelSortKey;
  order?: SortOrder;
  searchType?: 'name' | 'type' | 'all';
  keyword?: string;
}

export interface ChannelPage {
  channels: Channel[];
  /** Total number of matching channels (not the page length). */
  count: number;
}

/** One entry per output group (section 2.10). */
export interface ChannelPlayUrl {
  channelId: string;
  channelGroupId: string;
  channelGroupType: ProtocolType;
  playUrl: string;
  playUrlList: Array<{
    url: string;
    width: number;
    height: number;
    videoBitrate: number;
    audioBitrate: number;
    defaultVideo: Flag;
  }>;
}

/** liveTemplateCreate / liveTemplateUpdate fields. */
export interface LiveTemplateInput {
  displayName?: string;
  type?: number;
  transcodeType?: number;
  videoWidth?: number;
  videoHeight?: number;
  videoBitrate?: number;
  audioBitrate?: number;
  frameRate?: number;
  advancedArguments?: AdvancedArguments;
}

export interface LiveTemplateUpdate extends LiveTemplateInput {
  id: string;
}

export interface LiveTemplateQuery {
  name?: string;
  type?: number;
  transcodeType?: number;
}

export interface LiveLogoInput {
  name: string;
  uri: string;
  width: number;
  height: number;
  offsetWidth: number;
  offsetHeight: number;
  /** 0-100, default 100. */
  opacity?: number;
  /** 1-100, default 100. */
  resize?: number;
}

/** A logo in a logo group (section 4.2 logoGroup). */
export interface LogoItem {
  uri: string;
  width: number;
  height: number;
  leftPos: number;
  topPos: number;
  opacity: number;
  resize: number;
  start: number;
  end: number;
}

export interface LogoGroupInput {
  /** Omitted: create; given: modify. */
  id?: number | string;
  name: string;
  logos: LogoItem[];
}

/** Logo group as listed by getLogoGroupList (shape not documented; follows the logoGroup fields). */
export interface LogoGroup {
  id: number;
  name: string;
  logos: LogoItem[];
  userId: number;
  createTime: number | null;
  updateTime: number | null;
}

/** 0 hls, 1 mp4, 2 flv, 3 ts. */
export type TemplateFormat = 0 | 1 | 2 | 3;
/** 0 none, 6 AES (HLS only), 7 vendor encryption. */
export type EncryptType = 0 | 6 | 7;

/** A template item of a transcoding template group. */
export interface TemplateGroupItem {
  name: string;
  videoWidth: number;
  videoHeight: number;
  /** kbps */
  videoBitrate: number;
  /** bits per second */
  audioBitrate: number;
  format: TemplateFormat;
  encryptType: EncryptType;
  defaultVideo: 0 | 1;
  /** JSON text on the wire; the client accepts an object and serialises it. */
  advancedArguments?: string | AdvancedArguments;
}

export interface TemplateGroupInput {
  /** Omitted: create; given: modify. */
  id?: number | string;
  name: string;
  /** 0 normal, 1 VR */
  type: 0 | 1;
  trailor: boolean;
  /** seconds */
  trailorDuration: number;
  logoGroupId: number;
  transcodeTemplates: TemplateGroupItem[];
}

/** templateGroupList item (facts section 4), field types as the real platform answers them. */
export interface TemplateGroupSummary {
  id: number;
  /**
   * The account the group belongs to, as text in the platform's published example ("0" for the
   * platform's built-in groups; see isBuiltInTemplateGroup).
   */
  userId: string;
  name: string;
  type: 0 | 1;
  /** True for the account's default group. */
  defaultGroup: boolean;
  trailor: boolean;
  trailorDuration: number;
  logoGroupId: number | null;
  /**
   * The group's template items (each `advancedArguments` as JSON text or null). Facts section 4 lists the
   * other fields only, so a platform may leave this out: Open as File and Compare with Platform then say so.
   */
  transcodeTemplates?: TemplateGroupListedItem[];
}

/** A group of the platform's own, in every account ("0", or 0 from a platform that sends a number). */
export function isBuiltInTemplateGroup(group: { userId: string | number }): boolean {
  return String(group.userId) === '0';
}

/** A template item as templateGroupList lists it: `advancedArguments` JSON text, or null when unset. */
export interface TemplateGroupListedItem extends Omit<TemplateGroupItem, 'advancedArguments'> {
  advancedArguments: string | null;
}

/** An ad-hoc template item of secondTranscodeV2. */
export interface AdHocTemplate {
  name: string;
  videoWidth: number;
  videoHeight: number;
  /** kbps */
  videoBitrate: number;
  /** bits per second */
  audioBitrate: number;
  hls: boolean;
  mp4: boolean;
  flv: boolean;
  ts?: boolean;
  hlsEncryptType?: EncryptType;
  mp4EncryptType?: 0 | 7;
  flvEncryptType?: 0 | 7;
  tsEncryptType?: 0 | 7;
  defaultVideo?: 0 | 1;
  logoGroupId?: number;
}

export type AdHocTemplates = AdHocTemplate[] | { logoGroupId: number; templates: AdHocTemplate[] };

export interface SecondTranscodeJob {
  videoIds: string[];
  /** Ad-hoc templates win over a group id when both are given. */
  transcodeTemplates?: AdHocTemplates;
  transcodeTemplateGroupId?: number;
  videoType?: 0 | 1;
  trailor?: boolean;
  trailorDuration?: number;
  /** false: save as (new video item); true: replace earlier renditions when done. */
  replace: boolean;
}

/** Per-video outcome of secondTranscodeV2 (returned, never thrown). */
export interface SecondTranscodeResult {
  id: string;
  code: number;
  message: string;
}

/** Video status (section 3.2). */
export const VideoStatuses = {
  uploadFinished: 0,
  transcoding: 1,
  completed: 2,
  failed: 3,
  uploadFailed: 4,
  unknownFileType: 5,
  secondTranscoding: 6,
  waiting: 7,
} as const;
export type VideoStatus = (typeof VideoStatuses)[keyof typeof VideoStatuses];

export interface TranscodedStream {
  name: string;
  hlsUrl: string | null;
  mp4Url: string | null;
  flvUrl: string | null;
  tsUrl: string | null;
  hlsSize: number;
  mp4Size: number;
  flvSize: number;
  tsSize: number;
  videoWidth: number;
  videoHeight: number;
  videoBitrate: number;
  /** bits per second */
  audioBitrate: number;
  defaultVideo: 0 | 1;
  taskId: string;
  status: number;
  idx: number;
  type: 0 | 1;
  hlsEncryptType: EncryptType;
  mp4EncryptType: 0 | 7;
  flvEncryptType: 0 | 7;
  tsEncryptType: 0 | 7;
  contentId: string | null;
  customId: string | null;
  aesKey: string | null;
}

export interface Video {
  id: string;
  parentId: string | null;
  playrate: string;
  fileName: string;
  thumbnail: string;
  cover: string;
  title: string;
  width: number;
  height: number;
  bitrate: number;
  audioBitrate: number;
  /** milliseconds */
  duration: number;
  playNum: number;
  /** KB */
  size: number;
  userId: number;
  categoryId: number;
  category: string | null;
  status: VideoStatus;
  date: string;
  uploadTime: number;
  tag: string | null;
  description: string | null;
  contentId: string | null;
  customId: string | null;
  sourceContentId: string | null;
  sourceCustomId: string | null;
  transcodedVideoList: TranscodedStream[];
  subPlayrateList: Array<{ videoId: string; playrate: string; subVideoType: 0 | 1 }>;
  playCode: { previewUrl: string; flashUrl: string; htmlEmbedCode: string };
  type: number;
  uri: string | null;
  fastEditor: number;
  videoType: 0 | 1;
  audio: string | null;
  audioStatus: number | null;
  audioTaskId: string | null;
  subtitle: string | null;
  subVideoType: 0 | 1 | null;
  shareStatus: number | null;
  shareToUserId: number | null;
  shareCategoryId: number | null;
  logoGroupId: number | null;
}

/** queryVideo's sort keys, as the operation's spec accepts them. */
export type VideoSortKey = (typeof VIDEO_SORTS)[number];

export interface VideoQuery {
  /** 1-based page number (this project's choice, consistent with the channel list). */
  start: number;
  number: number;
  sort: VideoSortKey;
  order: SortOrder;
  searchType?: 'title' | 'tag' | 'all';
  keyword?: string;
  categoryId?: number;
  videoType?: 0 | 1;
  status?: VideoStatus;
}

export interface PlaybackStream {
  url: string;
  desc: string;
  width: number;
  height: number;
  size: number | null;
  encryptType: EncryptType;
  contentId: string | null;
  customId: string | null;
  aesKey: string | null;
  defaultVideo: 0 | 1;
}

export interface PlaybackStreams {
  dynamic: null;
  list: PlaybackStream[];
}

export interface CdnInfo {
  desc: string;
  defaultCdn: 0 | 1;
  hls: PlaybackStreams | null;
  mp4: PlaybackStreams | null;
  flv: PlaybackStreams | null;
  ts: PlaybackStreams | null;
  audio: string | null;
  rtmp: null;
  thumbnail: null;
  thumbnailInterval: null;
}

/** getTranscodedVideos item (section 2.9); nulls for an unknown id. */
export interface VideoPlayback {
  id: string;
  videoType: 0 | 1 | null;
  cdns: CdnInfo[] | null;
  comments: Array<{ id: string; time: number; comment: string }> | null;
}

/** `getToken` (facts section 6): the token for uploads. */
export interface UploadToken {
  accessToken: string;
  /** ms since epoch */
  accessTokenTime: number;
  /** seconds */
  expiresIn: number;
  refreshToken: string;
  userId: number;
}

/**
 * An upload (facts section 6): `POST {upload_base}/multipart/upload`, a multipart form. The file is
 * read from disk as it is sent; the other fields are optional and travel as the form's text fields.
 */
export interface UploadInput {
  /** The path of the file on this machine. */
  file: string;
  /** The name the platform records (default: the file's own name). */
  fileName?: string;
  /** An access token from getToken (default: one asked for just before the upload). */
  token?: string;
  /** A video category id (0 or absent: none). */
  categoryId?: number;
  /** 0 normal (default), 1 VR. */
  videoType?: 0 | 1;
  /** Transcode after the upload (the platform's default: true). */
  isTranscoder?: boolean;
  /** Encrypt (not with `isTranscoder` false). */
  isEncrypt?: boolean;
  /** The template group to transcode with (absent: the account's default group). */
  transcodeTemplateGroupId?: number;
  /** Cover capture times in seconds, at most 8. */
  capturePoints?: number[];
  isExtractFrame?: boolean;
  /** Seconds between extracted frames. */
  frameInterval?: number;
  tag?: string;
}

/** One uploaded file as the upload's answer lists it (the real service spells `thumbnaill` in its example). */
export interface UploadedVideo {
  videoId: string;
  fileName: string;
  thumbnail?: string;
  thumbnaill?: string;
  title?: string;
  /** The video's status right after the upload, where the platform says it. */
  status?: VideoStatus;
  [field: string]: unknown;
}

/** How far an upload is: bytes of the file sent so far, of its size. */
export interface UploadProgress {
  sentBytes: number;
  totalBytes: number;
}
