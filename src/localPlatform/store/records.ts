/**
 * What the local platform stores per account. Records are immutable once stored: a change puts a new
 * object, so a snapshot can hold references while writes go on. Addresses are not stored (the port can
 * change between runs); they are composed against the serving address when a response is built.
 *
 * A record is the wire type of src/api/types.ts less what is composed when answering (addresses, the
 * owner's `userId`), plus what only the platform keeps (as Azurite's stored models extend its wire
 * models): a field added to the interface is added once, there.
 */
import { randomBytes } from 'node:crypto';
import type {
  AdHocTemplate,
  Channel,
  ChannelCategory,
  Flag,
  LiveLogo,
  LogoGroup,
  LogoItem,
  TemplateGroupListedItem,
  TemplateGroupSummary,
  TranscodedStream,
  Video,
} from '../../api/types';
import { ChannelStatuses, StreamStatuses, VideoStatuses } from '../../api/types';

export interface MetaRec {
  id: 'meta';
  userId: number;
  nextLogoGroupId: number;
  nextTemplateGroupId: number;
  nextVideoCategoryId: number;
  /** The account's default transcoding template group (facts: "default regular group"), if any. */
  defaultTemplateGroupId: number | null;
  createdAt: number;
}

/** The owner is the account holding it. */
export type CategoryRec = Omit<ChannelCategory, 'userId'>;

export interface LiveTemplateRec {
  id: string;
  displayName: string;
  /** Template type, an integer on input; the record carries it as text. */
  type: number;
  transcodeType: number;
  videoWidth: number;
  videoHeight: number;
  videoBitrate: number;
  audioBitrate: number;
  frameRate: number;
  videoCodec: string;
  advanced: AdvancedArgumentsRec;
  createTime: number;
  updateTime: number | null;
}

/** The keys of a live template's `advancedArgumentsObj`, null where unset. */
export interface AdvancedArgumentsRec {
  rc: number | string | null;
  refFrame: number | null;
  gopSize: number | null;
  bframe: number | null;
  interlace: number | null;
  gopType: number | null;
  smartBorder: number | null;
}

/** `httpUrl` is composed from `uri` when answering. */
export interface LiveLogoRec extends Omit<LiveLogo, 'httpUrl' | 'userId'> {
  createTime: number;
}

export interface LiveOutputRec {
  id: string;
  templateId: string;
  isDefault: Flag;
  createTime: number;
  updateTime: number | null;
}

export interface OutputGroupRec {
  id: string;
  protocolType: 1 | 2;
  taskId: string | null;
  isLiveEncrypt: Flag;
  customerId: string | null;
  contentId: string | null;
  createTime: number;
  updateTime: number | null;
  logoId: string | null;
  rtmpThirdPartyOutputUrl: string | null;
  isRecord: Flag;
  recordTaskId: string | null;
  recordStartTime: number | null;
  needToMp4: Flag;
  isTimeShift: Flag;
  timeShiftDuration: string | null;
  timeShiftTaskId: string | null;
  rotation: string | null;
  outputs: LiveOutputRec[];
}

/** Addresses and the owner are composed when answering; the output groups are stored as `groups`. */
export interface ChannelRec extends Omit<
  Channel,
  | 'authCode'
  | 'userId'
  | 'createTime'
  | 'autoEndTime'
  | 'liveType'
  | 'thumbnailUrl'
  | 'pushUrl'
  | 'publicPlayUrl'
  | 'publicFlvPlayUrl'
  | 'deviceId'
  | 'fillInfo'
  | 'outputGroupList'
> {
  /** The code that lets an encoder publish (never shown in lists). */
  authCode: string;
  createTime: number;
  autoEndTime: number;
  liveType: number;
  groups: OutputGroupRec[];
}

export type LogoItemRec = LogoItem;

export interface LogoGroupRec extends Omit<LogoGroup, 'userId' | 'createTime'> {
  createTime: number;
}

export type TemplateGroupItemRec = TemplateGroupListedItem;

/** `defaultGroup` is the account's meta (`defaultTemplateGroupId`); the items are stored as `templates`. */
export interface TemplateGroupRec extends Pick<
  TemplateGroupSummary,
  'id' | 'name' | 'type' | 'trailor' | 'trailorDuration' | 'logoGroupId'
> {
  templates: TemplateGroupItemRec[];
  createTime: number;
  updateTime: number | null;
}

export interface VideoCategoryRec {
  id: number;
  name: string;
}

/** A rendition (one `transcodedVideoList` entry); addresses are paths below the serving origin. */
export interface StreamRec extends Omit<TranscodedStream, 'hlsUrl' | 'mp4Url' | 'flvUrl' | 'tsUrl'> {
  hlsPath: string | null;
  mp4Path: string | null;
  flvPath: string | null;
  tsPath: string | null;
}

/**
 * Addresses, the owner, the category's name and the fields this platform leaves null are composed
 * when answering; the renditions are stored as `streams`.
 */
export interface VideoRec extends Omit<
  Video,
  | 'thumbnail'
  | 'cover'
  | 'userId'
  | 'category'
  | 'date'
  | 'transcodedVideoList'
  | 'subPlayrateList'
  | 'playCode'
  | 'audio'
  | 'audioStatus'
  | 'audioTaskId'
  | 'subtitle'
  | 'subVideoType'
  | 'shareStatus'
  | 'shareToUserId'
  | 'shareCategoryId'
> {
  streams: StreamRec[];
  /**
   * `cover.jpg` and `thumbnail.jpg` are in the video's media folder: set when an upload or a transcoding run
   * writes them, so listing a video never asks the disk. Records of older versions lack it until loaded
   * (media/files.ts `withCoverFlags`).
   */
  covers: boolean;
}

/**
 * The rendition a transcoding run produces, resolved from a group or ad-hoc templates at request time: an ad-hoc
 * template (the wire shape) with every option settled, plus a group item's `advancedArguments` JSON text (real
 * media maps it to ffmpeg: media/advanced.ts).
 */
export interface JobTemplate extends Required<Omit<AdHocTemplate, 'logoGroupId'>> {
  advancedArguments?: string | null;
}

/** A second transcoding in flight, with wall-clock deadlines so a restart resumes it. */
export interface JobRec {
  id: string;
  videoId: string;
  replace: boolean;
  templates: JobTemplate[];
  trailor: boolean;
  trailorDuration: number;
  logoGroupId: number | null;
  /** Only with ad-hoc templates: the video type of the result (0 normal, 1 VR). */
  videoType: 0 | 1 | null;
  /** The first transcoding after an upload (status 1 while it runs, not 6); real media only. */
  first?: boolean;
  /** When the video goes 7 -> 6 (ms since epoch, real clock). */
  startAt: number;
  /** When the video goes 6 -> 2 with its renditions. */
  doneAt: number;
  createTime: number;
}

/** Every stored collection; map keys are the ids as text. */
export interface Collections {
  meta: Map<string, MetaRec>;
  categories: Map<string, CategoryRec>;
  liveTemplates: Map<string, LiveTemplateRec>;
  liveLogos: Map<string, LiveLogoRec>;
  channels: Map<string, ChannelRec>;
  logoGroups: Map<string, LogoGroupRec>;
  templateGroups: Map<string, TemplateGroupRec>;
  videoCategories: Map<string, VideoCategoryRec>;
  videos: Map<string, VideoRec>;
  jobs: Map<string, JobRec>;
}

export type CollectionName = keyof Collections;
export type RecordOf<C extends CollectionName> = Collections[C] extends Map<string, infer R> ? R : never;

export const COLLECTION_NAMES: readonly CollectionName[] = [
  'meta',
  'categories',
  'liveTemplates',
  'liveLogos',
  'channels',
  'logoGroups',
  'templateGroups',
  'videoCategories',
  'videos',
  'jobs',
];

/**
 * A channel as liveCreateChannel leaves it (initialised, no source, nothing measured), with the
 * given fields on top; the create operation, the demo data and test seeds all start from it.
 */
export function newChannelRecord(
  fields: Pick<ChannelRec, 'id' | 'name' | 'createTime'> & Partial<ChannelRec>,
): ChannelRec {
  return {
    description: null,
    // Random, not derived from the id: ids are shown in lists and tooltips, and the code lets one publish.
    authCode: randomBytes(8).toString('hex'),
    type: null,
    typeName: null,
    signalType: '1',
    stream: fields.id.slice(0, 16),
    pullStream: null,
    pullTaskId: null,
    status: ChannelStatuses.initialised,
    streamStatus: StreamStatuses.noSource,
    streamWidth: null,
    streamHeight: null,
    streamBitrate: null,
    streamAudioBitrate: null,
    streamFrameRate: null,
    updateTime: null,
    startTime: null,
    endTime: null,
    autoEndTime: 0,
    liveType: 0,
    groups: [],
    ...fields,
  };
}

/** An output group with nothing running and every option off, with the given fields on top. */
export function newOutputGroupRecord(
  fields: Pick<OutputGroupRec, 'id' | 'protocolType' | 'createTime' | 'outputs'> & Partial<OutputGroupRec>,
): OutputGroupRec {
  return {
    taskId: null,
    isLiveEncrypt: '0',
    customerId: null,
    contentId: null,
    updateTime: null,
    logoId: null,
    rtmpThirdPartyOutputUrl: null,
    isRecord: '0',
    recordTaskId: null,
    recordStartTime: null,
    needToMp4: '0',
    isTimeShift: '0',
    timeShiftDuration: null,
    timeShiftTaskId: null,
    rotation: null,
    ...fields,
  };
}

/**
 * A video as an upload leaves it (status 0, nothing measured, no renditions, nothing optional set),
 * with the given fields on top; the demo data and test seeds start from it.
 */
export function newVideoRecord(
  fields: Pick<VideoRec, 'id' | 'fileName' | 'title' | 'uploadTime'> & Partial<VideoRec>,
): VideoRec {
  return {
    parentId: null,
    playrate: '1',
    width: 0,
    height: 0,
    bitrate: 0,
    audioBitrate: 0,
    duration: 0,
    playNum: 0,
    size: 0,
    categoryId: 0,
    status: VideoStatuses.uploadFinished,
    tag: null,
    description: null,
    contentId: null,
    customId: null,
    sourceContentId: null,
    sourceCustomId: null,
    streams: [],
    type: 0,
    uri: null,
    fastEditor: 0,
    videoType: 0,
    logoGroupId: null,
    covers: false,
    ...fields,
  };
}
