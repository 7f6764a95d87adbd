/**
 * Stored records -> the interface's records (rest-interface section 2), every listed field present
 * in the listed order, null where unset, with the stated types.
 */
import type {
  CdnInfo,
  Channel,
  ChannelCategory,
  ChannelPlayUrl,
  LiveLogo,
  LiveOutput,
  LiveTemplate,
  LogoGroup,
  OutputGroup,
  OutputTemplate,
  PlaybackStream,
  PlaybackStreams,
  TemplateGroupSummary,
  TranscodedStream,
  Video,
  VideoPlayback,
} from '../../api/types';
import * as addr from './addresses';
import { AnswerCache, JsonList } from '../store/answerCache';
import type { Origin } from './addresses';
import type {
  CategoryRec,
  ChannelRec,
  LiveLogoRec,
  LiveTemplateRec,
  LogoGroupRec,
  OutputGroupRec,
  StreamRec,
  TemplateGroupRec,
  VideoRec,
} from '../store/records';
import type { AccountStore } from '../store/store';

export interface View {
  store: AccountStore;
  userId: number;
  origin: Origin;
  /** Whether a channel's live thumbnail is on disk (real live media); absent: never (nothing serves it). */
  liveThumbnail?: (channelId: string) => boolean;
}

export function templateName(
  t: Pick<LiveTemplateRec, 'displayName' | 'videoBitrate' | 'videoWidth' | 'videoHeight'>,
): string {
  return `${t.displayName}/${t.videoBitrate}kbps/${t.videoWidth}x${t.videoHeight}`;
}

function outputTemplate(view: View, t: LiveTemplateRec): OutputTemplate {
  return {
    id: t.id,
    templateId: null,
    isDefault: null,
    displayName: t.displayName,
    name: templateName(t),
    transcodeType: t.transcodeType,
    type: String(t.type),
    videoWidth: t.videoWidth,
    videoHeight: t.videoHeight,
    videoBitrate: t.videoBitrate,
    audioBitrate: t.audioBitrate,
    frameRate: t.frameRate,
    userId: view.userId,
    createTime: t.createTime,
    updateTime: t.updateTime,
  };
}

export function liveTemplate(view: View, t: LiveTemplateRec): LiveTemplate {
  const obj = {
    rc: t.advanced.rc,
    refFrame: t.advanced.refFrame,
    gopSize: t.advanced.gopSize,
    bframe: t.advanced.bframe,
    interlace: t.advanced.interlace,
    gopType: t.advanced.gopType,
    smartBorder: t.advanced.smartBorder,
  };
  return {
    ...outputTemplate(view, t),
    advancedArguments: JSON.stringify(obj),
    // Values were checked against the allowed sets when stored; nulls mark unset keys.
    advancedArgumentsObj: obj as LiveTemplate['advancedArgumentsObj'],
    videoCodec: t.videoCodec,
  };
}

export function liveLogo(view: View, l: LiveLogoRec): LiveLogo {
  return {
    id: l.id,
    name: l.name,
    uri: l.uri,
    httpUrl: addr.logoHttpUrl(view.origin, l.uri),
    width: l.width,
    height: l.height,
    offsetWidth: l.offsetWidth,
    offsetHeight: l.offsetHeight,
    opacity: l.opacity,
    resize: l.resize,
    userId: view.userId,
  };
}

export function category(view: View, c: CategoryRec): ChannelCategory {
  return { id: c.id, name: c.name, userId: view.userId, createTime: c.createTime, updateTime: c.updateTime };
}

/** The stored template of an output, or a placeholder if it vanished (templates cannot be deleted). */
function templateOf(view: View, id: string): LiveTemplateRec {
  return (
    view.store.get('liveTemplates', id) ?? {
      id,
      displayName: 'unknown',
      type: 1,
      transcodeType: 0,
      videoWidth: 0,
      videoHeight: 0,
      videoBitrate: 0,
      audioBitrate: 0,
      frameRate: 0,
      videoCodec: 'h264',
      advanced: {
        rc: null,
        refFrame: null,
        gopSize: null,
        bframe: null,
        interlace: null,
        gopType: null,
        smartBorder: null,
      },
      createTime: 0,
      updateTime: null,
    }
  );
}

function groupChildUrl(view: View, ch: ChannelRec, g: OutputGroupRec, n: number): string {
  return g.protocolType === 1
    ? addr.hlsChildUrl(view.origin, ch.id, g.id, n)
    : addr.rtmpChildUrl(view.origin, ch.stream, g.id, n);
}

export function groupPlayUrl(view: View, ch: ChannelRec, g: OutputGroupRec): string {
  return g.protocolType === 1
    ? addr.hlsGroupUrl(view.origin, ch.id, g.id)
    : addr.rtmpGroupUrl(view.origin, ch.stream, g.id);
}

function outputGroup(view: View, ch: ChannelRec, g: OutputGroupRec): OutputGroup {
  const logo = g.logoId ? view.store.get('liveLogos', g.logoId) : undefined;
  const liveOutputs: LiveOutput[] = g.outputs.map((o, i) => {
    const t = templateOf(view, o.templateId);
    return {
      id: o.id,
      publicOutputUrl: groupChildUrl(view, ch, g, i + 1),
      videoWidth: t.videoWidth,
      videoHeight: t.videoHeight,
      videoBitrate: t.videoBitrate,
      audioBitrate: t.audioBitrate,
      protocolType: g.protocolType,
      userId: view.userId,
      channelId: ch.id,
      liveOutputGroupId: g.id,
      liveTemplateId: o.templateId,
      createTime: o.createTime,
      updateTime: o.updateTime,
      isDefault: o.isDefault,
    };
  });
  return {
    id: g.id,
    name: null,
    protocolType: g.protocolType,
    channelId: ch.id,
    taskId: g.taskId,
    isLiveEncrypt: g.isLiveEncrypt,
    customerId: g.customerId,
    contentId: g.contentId,
    createTime: g.createTime,
    updateTime: g.updateTime,
    liveLogoId: g.logoId,
    logoId: g.logoId,
    liveLogo: logo ? liveLogo(view, logo) : null,
    rtmpThirdPartyOutputUrl: g.rtmpThirdPartyOutputUrl,
    isRecord: g.isRecord,
    recordTaskId: g.recordTaskId,
    recordStartTime: g.recordStartTime,
    needToMp4: g.needToMp4,
    isTimeShift: g.isTimeShift,
    timeShiftDuration: g.timeShiftDuration,
    timeShiftTaskId: g.timeShiftTaskId,
    rotation: g.rotation,
    outputTemplateList: g.outputs.map((o) => outputTemplate(view, templateOf(view, o.templateId))),
    liveOutputs,
  };
}

export function channel(view: View, ch: ChannelRec): Channel {
  return {
    id: ch.id,
    name: ch.name,
    description: ch.description,
    authCode: ch.authCode,
    type: ch.type,
    typeName: ch.typeName,
    signalType: ch.signalType,
    stream: ch.stream,
    pullStream: ch.pullStream,
    pullTaskId: ch.pullTaskId,
    status: ch.status,
    streamStatus: ch.streamStatus,
    userId: view.userId,
    streamWidth: ch.streamWidth,
    streamHeight: ch.streamHeight,
    streamBitrate: ch.streamBitrate,
    streamAudioBitrate: ch.streamAudioBitrate,
    streamFrameRate: ch.streamFrameRate,
    createTime: ch.createTime,
    updateTime: ch.updateTime,
    startTime: ch.startTime,
    endTime: ch.endTime,
    autoEndTime: ch.autoEndTime,
    // "" while no picture is served (not live, simulated live, before the first frame), as for a video's cover.
    thumbnailUrl: view.liveThumbnail?.(ch.id) ? addr.channelThumbnailUrl(view.origin, ch.id) : '',
    pushUrl: addr.pushUrl(view.origin, ch.stream, ch.authCode),
    publicPlayUrl: addr.rtmpPlayUrl(view.origin, ch.stream),
    publicFlvPlayUrl: addr.flvPlayUrl(view.origin, ch.stream),
    liveType: ch.liveType as Channel['liveType'],
    deviceId: null,
    fillInfo: null,
    outputGroupList: ch.groups.map((g) => outputGroup(view, ch, g)),
  };
}

export function playUrls(view: View, ch: ChannelRec): ChannelPlayUrl[] {
  return ch.groups.map((g) => ({
    channelId: ch.id,
    channelGroupId: g.id,
    channelGroupType: g.protocolType,
    playUrl: groupPlayUrl(view, ch, g),
    playUrlList: g.outputs.map((o, i) => {
      const t = templateOf(view, o.templateId);
      return {
        url: groupChildUrl(view, ch, g, i + 1),
        width: t.videoWidth,
        height: t.videoHeight,
        videoBitrate: t.videoBitrate,
        audioBitrate: t.audioBitrate,
        defaultVideo: o.isDefault,
      };
    }),
  }));
}

export function logoGroup(view: View, g: LogoGroupRec): LogoGroup {
  return {
    id: g.id,
    name: g.name,
    logos: g.logos.map((l) => ({ ...l })),
    userId: view.userId,
    createTime: g.createTime,
    updateTime: g.updateTime,
  };
}

/** A templateGroupList item; `userId` is "0" for a built-in group (it belongs to no account). */
export function templateGroupSummary(
  g: TemplateGroupRec,
  defaultGroupId: number | null,
  userId: number,
): TemplateGroupSummary {
  return {
    id: g.id,
    // Text, as in the platform's published example of templateGroupList (the other records carry a number).
    userId: String(userId),
    name: g.name,
    type: g.type,
    defaultGroup: g.id === defaultGroupId,
    trailor: g.trailor,
    trailorDuration: g.trailorDuration,
    logoGroupId: g.logoGroupId,
    // Beside the fields facts section 4 names: what templateGroup accepts, so a group can be opened as a file.
    transcodeTemplates: g.templates.map((t) => ({ ...t })),
  };
}

function transcodedStream(view: View, s: StreamRec): TranscodedStream {
  return {
    name: s.name,
    hlsUrl: addr.fileUrl(view.origin, s.hlsPath),
    mp4Url: addr.fileUrl(view.origin, s.mp4Path),
    flvUrl: addr.fileUrl(view.origin, s.flvPath),
    tsUrl: addr.fileUrl(view.origin, s.tsPath),
    hlsSize: s.hlsSize,
    mp4Size: s.mp4Size,
    flvSize: s.flvSize,
    tsSize: s.tsSize,
    videoWidth: s.videoWidth,
    videoHeight: s.videoHeight,
    videoBitrate: s.videoBitrate,
    audioBitrate: s.audioBitrate,
    defaultVideo: s.defaultVideo,
    taskId: s.taskId,
    status: s.status,
    idx: s.idx,
    type: s.type,
    hlsEncryptType: s.hlsEncryptType,
    mp4EncryptType: s.mp4EncryptType,
    flvEncryptType: s.flvEncryptType,
    tsEncryptType: s.tsEncryptType,
    contentId: s.contentId,
    customId: s.customId,
    aesKey: s.aesKey,
  };
}

/** `2026-01-31 12:00:00` (UTC), the upload date text. */
export function dateText(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

export function video(view: View, v: VideoRec): Video {
  const base = view.origin.http;
  const children: Video['subPlayrateList'] = [];
  // A video without pictures (simulated media, not media, a failed or unfinished upload) lists "" rather than
  // an address that answers 404: the interface types both as strings, and clients skip an empty one.
  const picture = (name: string): string => (v.covers ? `${base}/vod/${v.id}/${name}` : '');
  return {
    id: v.id,
    parentId: v.parentId,
    playrate: v.playrate,
    fileName: v.fileName,
    thumbnail: picture('thumbnail.jpg'),
    cover: picture('cover.jpg'),
    title: v.title,
    width: v.width,
    height: v.height,
    bitrate: v.bitrate,
    audioBitrate: v.audioBitrate,
    duration: v.duration,
    playNum: v.playNum,
    size: v.size,
    userId: view.userId,
    categoryId: v.categoryId,
    category: view.store.get('videoCategories', v.categoryId)?.name ?? null,
    status: v.status,
    date: dateText(v.uploadTime),
    uploadTime: v.uploadTime,
    tag: v.tag,
    description: v.description,
    contentId: v.contentId,
    customId: v.customId,
    sourceContentId: v.sourceContentId,
    sourceCustomId: v.sourceCustomId,
    transcodedVideoList: v.streams.map((s) => transcodedStream(view, s)),
    subPlayrateList: children,
    playCode: {
      previewUrl: `${base}/vod/${v.id}/preview`,
      flashUrl: `${base}/vod/${v.id}/player.swf`,
      htmlEmbedCode: `<iframe src="${base}/vod/${v.id}/preview" width="640" height="360" frameborder="0" allowfullscreen></iframe>`,
    },
    type: v.type,
    uri: v.uri,
    fastEditor: v.fastEditor,
    videoType: v.videoType,
    audio: null,
    audioStatus: null,
    audioTaskId: null,
    subtitle: null,
    subVideoType: null,
    shareStatus: null,
    shareToUserId: null,
    shareCategoryId: null,
    logoGroupId: v.logoGroupId,
  };
}

type Format = 'hls' | 'mp4' | 'flv' | 'ts';

function playbackList(view: View, streams: StreamRec[], format: Format): PlaybackStreams | null {
  const list: PlaybackStream[] = [];
  for (const s of streams) {
    const path = s[`${format}Path`];
    if (path === null) continue;
    list.push({
      url: `${view.origin.http}${path}`,
      desc: s.type === 1 ? `${s.name} (preview)` : s.name,
      width: s.videoWidth,
      height: s.videoHeight,
      size: s[`${format}Size`],
      encryptType: s[`${format}EncryptType`],
      contentId: s.contentId,
      customId: s.customId,
      aesKey: format === 'hls' ? s.aesKey : null,
      defaultVideo: s.defaultVideo,
    });
  }
  return list.length === 0 ? null : { dynamic: null, list };
}

export function playback(view: View, id: string, v: VideoRec | undefined): VideoPlayback {
  if (!v) return { id, videoType: null, cdns: null, comments: null };
  const cdn: CdnInfo = {
    desc: 'local',
    defaultCdn: 1,
    hls: playbackList(view, v.streams, 'hls'),
    mp4: playbackList(view, v.streams, 'mp4'),
    flv: playbackList(view, v.streams, 'flv'),
    ts: playbackList(view, v.streams, 'ts'),
    audio: null,
    rtmp: null,
    thumbnail: null,
    thumbnailInterval: null,
  };
  return { id: v.id, videoType: v.videoType, cdns: [cdn], comments: [] };
}

/**
 * Per store: serialised channels and videos, as UTF-8 bytes. Channels up to 64 MiB: a walk through every page of
 * 10,000 channels (about 6 KB each with their groups) then stays served from ready JSON; videos up to 32 MiB
 * (about 1.3 KB each, so a walk of 20,000 of 100,000 videos).
 */
export const CHANNEL_CACHE_BYTES = 64 * 1024 * 1024;
export const VIDEO_CACHE_BYTES = 32 * 1024 * 1024;
interface AnswerCaches {
  channels: AnswerCache<ChannelRec>;
  videos: AnswerCache<VideoRec>;
}

/** The store's answer caches (a member of the store: AccountStore.derived). */
const ANSWERS = Symbol('answer caches');

/** The answer caches of a store (the tests read their bounds); made with these bounds on first use. */
export function cachesOf(
  store: AccountStore,
  bounds = { channels: CHANNEL_CACHE_BYTES, videos: VIDEO_CACHE_BYTES },
): AnswerCaches {
  return store.derived(ANSWERS, () => ({
    channels: new AnswerCache<ChannelRec>(bounds.channels),
    videos: new AnswerCache<VideoRec>(bounds.videos),
  }));
}

/**
 * A page of channels as `channel` answers each, from ready JSON where the channel is unchanged. The
 * key names all that `channel` reads besides the record (and the extra whether its thumbnail is served): keep
 * them in step when that changes.
 */
export function channelList(view: View, channels: readonly ChannelRec[]): JsonList {
  const { store } = view;
  const key = `${view.origin.http} ${view.origin.host} ${view.userId} ${store.version('liveTemplates')} ${store.version('liveLogos')}`;
  const caches = cachesOf(store);
  const { liveThumbnail } = view;
  const shown = channels.map((ch) => liveThumbnail?.(ch.id) === true);
  const fragments = channels.map((ch, i) =>
    caches.channels.bytes(ch, key, shown[i] ? 'thumbnail' : '', () => channel(view, ch)),
  );
  // A thumbnail comes and goes with live media, not with a write: a kept answer asks again (readAnswers.ts).
  const stillSame = liveThumbnail && (() => channels.every((ch, i) => liveThumbnail(ch.id) === shown[i]));
  return new JsonList(fragments, stillSame);
}

/**
 * The key of what a video's answer reads besides the record: made once per origin (origins are made once per host
 * name) and user id, so that the cache compares one string with itself rather than a new one per request.
 */
const videoKeys = new WeakMap<Origin, Map<number, string>>();

function videoKey(view: View): string {
  let byUser = videoKeys.get(view.origin);
  if (!byUser) {
    byUser = new Map();
    videoKeys.set(view.origin, byUser);
  }
  let key = byUser.get(view.userId);
  if (key === undefined) {
    key = `${view.origin.http} ${view.origin.host} ${view.userId}`;
    byUser.set(view.userId, key);
  }
  return key;
}

/** A page of videos as `video` answers each (see channelList); a video also reads its category's name. */
export function videoList(view: View, videos: readonly VideoRec[]): JsonList {
  const caches = cachesOf(view.store);
  const key = videoKey(view);
  return new JsonList(
    videos.map((v) =>
      caches.videos.bytes(v, key, view.store.get('videoCategories', v.categoryId)?.name ?? '', () => video(view, v)),
    ),
  );
}
