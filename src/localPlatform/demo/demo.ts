/**
 * Demo data for a new account (`--demo`, `demo: true`): categories, live templates, live logos,
 * channels in every state (live, stopped, new; push and pull; HLS and RTMP groups with recording,
 * time shift, encryption and a logo), videos in every status 0-7 (renditions where done), logo
 * groups and template groups with a default one. Names and ids are deterministic (ids are hashes
 * of the account's user id and the names), so tests and screenshots can rely on them, and each account of a
 * platform has a demo of its own: live media names a channel by its id and stream name (the RTMP push path,
 * `DATA/live/<id>/`) and a video's media by its id, platform-wide.
 */
import { templateGroupItem } from '../actions/builtinGroups';
import { ChannelStatuses, VideoStatuses } from '../../api/types';
import { stableId } from '../store/ids';
import type {
  CategoryRec,
  ChannelRec,
  JobTemplate,
  LiveLogoRec,
  LiveTemplateRec,
  LogoGroupRec,
  OutputGroupRec,
  TemplateGroupRec,
  VideoRec,
} from '../store/records';
import { newChannelRecord, newOutputGroupRecord, newVideoRecord } from '../store/records';
import { metaOf } from '../store/meta';
import { Tx, type AccountStore } from '../store/store';
import { renditionsFor } from '../transcoder';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const DEMO_NAMES = {
  categories: ['News', 'Sports', 'Events'],
  liveTemplates: ['1080p', '720p', '480p'],
  liveLogos: ['Station bug', 'Watermark'],
  channels: {
    live: 'Newsroom 24/7',
    stopped: 'Stadium feed',
    fresh: 'Town hall',
    vr: 'Concert VR',
    pattern: 'Test pattern',
  },
  templateGroups: { standard: 'Standard HLS + MP4', mobile: 'Mobile HLS', vr: 'VR 4K' },
  logoGroups: ['Corner logo', 'Intro and outro'],
  videoCategories: ['Tutorials', 'Highlights', 'Archive'],
} as const;

/** The id of a demo object of one account, by its kind and name. */
type DemoIds = (kind: string, name: string) => string;

/** The demo ids of the account with this user id (unique in a platform). */
function demoIds(userId: number): DemoIds {
  return (kind, name) => stableId(`demo:${userId}:${kind}:${name}`);
}

/** The ids of demo data seeded before they named the account: the same in every account. */
const sharedIds: DemoIds = (kind, name) => stableId(`demo:${kind}:${name}`);

function liveTemplate(id: DemoIds, name: string, w: number, h: number, kbps: number, at: number): LiveTemplateRec {
  return {
    id: id('liveTemplate', name),
    displayName: name,
    type: 1,
    transcodeType: 0,
    videoWidth: w,
    videoHeight: h,
    videoBitrate: kbps,
    audioBitrate: 128,
    frameRate: 25,
    videoCodec: 'h264',
    advanced: { rc: 'vbr', refFrame: 3, gopSize: 50, bframe: 3, interlace: -1, gopType: 0, smartBorder: 0 },
    createTime: at,
    updateTime: null,
  };
}

function group(
  id: DemoIds,
  channel: string,
  name: string,
  at: number,
  protocolType: 1 | 2,
  templates: string[],
  extra: Partial<OutputGroupRec> = {},
): OutputGroupRec {
  const groupId = id('group', `${channel}/${name}`);
  return newOutputGroupRecord({
    id: groupId,
    protocolType,
    createTime: at,
    outputs: templates.map((t, i) => ({
      id: id('output', `${groupId}/${t}`),
      templateId: id('liveTemplate', t),
      isDefault: i === 0 ? '1' : '0',
      createTime: at,
      updateTime: null,
    })),
    ...extra,
  });
}

function channel(id: DemoIds, name: string, at: number, fields: Partial<ChannelRec>): ChannelRec {
  return newChannelRecord({ id: id('channel', name), name, createTime: at, ...fields });
}

function jobTemplate(
  name: string,
  w: number,
  h: number,
  kbps: number,
  formats: { hls?: boolean; mp4?: boolean },
  isDefault: 0 | 1,
): JobTemplate {
  return {
    name,
    videoWidth: w,
    videoHeight: h,
    videoBitrate: kbps,
    audioBitrate: 128000,
    hls: formats.hls ?? false,
    mp4: formats.mp4 ?? false,
    flv: false,
    ts: false,
    hlsEncryptType: 0,
    mp4EncryptType: 0,
    flvEncryptType: 0,
    tsEncryptType: 0,
    defaultVideo: isDefault,
  };
}

interface DemoVideo {
  title: string;
  status: VideoRec['status'];
  category: number;
  tag: string | null;
  minutes: number;
  daysAgo: number;
  videoType?: 0 | 1;
  parent?: string;
  renditions?: JobTemplate[];
}

const STANDARD = [
  jobTemplate('1080p', 1920, 1080, 4500, { hls: true, mp4: true }, 0),
  jobTemplate('720p', 1280, 720, 2500, { hls: true, mp4: true }, 1),
];

const DEMO_VIDEOS: DemoVideo[] = [
  {
    title: 'Welcome tour',
    status: VideoStatuses.completed,
    category: 1,
    tag: 'intro,tour',
    minutes: 3,
    daysAgo: 30,
    renditions: STANDARD,
  },
  {
    title: 'Match highlights',
    status: VideoStatuses.completed,
    category: 2,
    tag: 'football,goals',
    minutes: 8,
    daysAgo: 12,
    renditions: STANDARD,
  },
  { title: 'Raw upload', status: VideoStatuses.uploadFinished, category: 3, tag: null, minutes: 15, daysAgo: 1 },
  { title: 'Keynote', status: VideoStatuses.transcoding, category: 1, tag: 'conference', minutes: 45, daysAgo: 2 },
  { title: 'Broken encode', status: VideoStatuses.failed, category: 3, tag: 'retry', minutes: 5, daysAgo: 4 },
  { title: 'Interrupted upload', status: VideoStatuses.uploadFailed, category: 3, tag: null, minutes: 0, daysAgo: 5 },
  {
    title: 'Meeting notes',
    status: VideoStatuses.unknownFileType,
    category: 3,
    tag: 'document',
    minutes: 0,
    daysAgo: 6,
  },
  {
    title: 'Product demo',
    status: VideoStatuses.secondTranscoding,
    category: 1,
    tag: 'product,demo',
    minutes: 12,
    daysAgo: 3,
  },
  { title: 'Queued interview', status: VideoStatuses.waiting, category: 2, tag: 'interview', minutes: 20, daysAgo: 0 },
  {
    title: 'VR walkthrough',
    status: VideoStatuses.completed,
    category: 1,
    tag: 'vr,tour',
    minutes: 6,
    daysAgo: 9,
    videoType: 1,
    renditions: [jobTemplate('4K', 3840, 2160, 15000, { hls: true }, 1)],
  },
  {
    title: 'Welcome tour',
    status: VideoStatuses.completed,
    category: 1,
    tag: 'intro,tour',
    minutes: 3,
    daysAgo: 20,
    parent: 'Welcome tour',
    renditions: [jobTemplate('480p', 854, 480, 900, { mp4: true }, 1)],
  },
];

/** The demo video's id: a hash of the account, its title and place in the list. */
function demoVideoId(id: DemoIds, d: DemoVideo, i: number): string {
  return id('video', `${d.title}#${i}`);
}

/**
 * The profiles a demo video is transcoded into, when the demo gives it some (its renditions when done):
 * with real media the demo lists it as transcoding (status 1, no renditions) until they are made
 * (media/demoMedia.ts), so no listed address answers 404.
 */
export function demoProfilesOf(videoId: string, userId: number): JobTemplate[] | undefined {
  for (const id of [demoIds(userId), sharedIds]) {
    for (const [i, d] of DEMO_VIDEOS.entries()) if (demoVideoId(id, d, i) === videoId) return d.renditions;
  }
  return undefined;
}

export interface SeedOptions {
  /** ffmpeg makes the demo videos' media: done videos are listed as transcoding until their renditions exist. */
  realMedia?: boolean;
}

/** Seeds the demo data in one durable commit. */
export async function seedDemo(store: AccountStore, now: number, options: SeedOptions = {}): Promise<void> {
  const tx = new Tx();
  const at = now - 60 * DAY;
  const meta = metaOf(store);
  const id = demoIds(meta.userId);

  const categories: CategoryRec[] = DEMO_NAMES.categories.map((name, i) => ({
    id: id('category', name),
    name,
    createTime: at + i,
    updateTime: null,
  }));
  for (const c of categories) tx.put('categories', c);

  const templates = [
    liveTemplate(id, '1080p', 1920, 1080, 4000, at),
    liveTemplate(id, '720p', 1280, 720, 2000, at + 1),
    liveTemplate(id, '480p', 854, 480, 800, at + 2),
  ];
  for (const t of templates) tx.put('liveTemplates', t);

  const logos: LiveLogoRec[] = [
    {
      id: id('liveLogo', 'Station bug'),
      name: 'Station bug',
      uri: 'logos/station-bug.png',
      width: 200,
      height: 80,
      offsetWidth: 40,
      offsetHeight: 30,
      opacity: 80,
      resize: 100,
      createTime: at,
    },
    {
      id: id('liveLogo', 'Watermark'),
      name: 'Watermark',
      uri: 'logos/watermark.png',
      width: 320,
      height: 120,
      offsetWidth: 1560,
      offsetHeight: 920,
      opacity: 40,
      resize: 50,
      createTime: at + 1,
    },
  ];
  for (const l of logos) tx.put('liveLogos', l);

  const { live, stopped, fresh, vr } = DEMO_NAMES.channels;
  const startedAt = now - 2 * HOUR;
  tx.put(
    'channels',
    channel(id, live, at + 10, {
      type: categories[0].id,
      typeName: 'News',
      description: 'Round-the-clock news: HLS with recording and a 2-hour time shift, plus an RTMP relay.',
      status: ChannelStatuses.live,
      streamStatus: 1,
      startTime: startedAt,
      updateTime: startedAt,
      streamWidth: 1920,
      streamHeight: 1080,
      streamBitrate: 4000,
      streamAudioBitrate: 128,
      streamFrameRate: 25,
      groups: [
        group(id, live, 'hls', at + 10, 1, ['1080p', '720p', '480p'], {
          taskId: id('task', `${live}/hls`),
          isRecord: '1',
          recordTaskId: id('recordTask', live),
          recordStartTime: startedAt,
          needToMp4: '1',
          isTimeShift: '1',
          timeShiftDuration: '2',
          timeShiftTaskId: id('timeShiftTask', live),
          logoId: logos[0].id,
        }),
        group(id, live, 'rtmp', at + 10, 2, ['720p'], { taskId: id('task', `${live}/rtmp`) }),
      ],
    }),
  );
  tx.put(
    'channels',
    channel(id, stopped, at + 20, {
      type: categories[1].id,
      typeName: 'Sports',
      description: 'Pulled from the stadium encoder; encrypted HLS.',
      signalType: '2',
      pullStream: 'rtmp://203.0.113.10/live/stadium',
      pullTaskId: id('pullTask', stopped),
      status: ChannelStatuses.ready,
      streamStatus: 1,
      startTime: now - 3 * DAY,
      endTime: now - 3 * DAY + 3 * HOUR,
      updateTime: now - 3 * DAY + 3 * HOUR,
      streamWidth: 1280,
      streamHeight: 720,
      streamBitrate: 2000,
      streamAudioBitrate: 128,
      streamFrameRate: 25,
      groups: [
        group(id, stopped, 'hls', at + 20, 1, ['720p', '480p'], {
          taskId: '',
          isLiveEncrypt: '1',
          customerId: 'demo-customer',
          contentId: id('content', stopped),
          timeShiftTaskId: '',
          rotation: '0',
        }),
      ],
    }),
  );
  tx.put(
    'channels',
    channel(id, fresh, at + 30, {
      type: categories[2].id,
      typeName: 'Events',
      description: 'Not started yet: an RTMP group with the watermark, rotated 90 degrees.',
      groups: [group(id, fresh, 'rtmp', at + 30, 2, ['720p', '480p'], { logoId: logos[1].id, rotation: '90' })],
    }),
  );
  tx.put('channels', channel(id, vr, at + 40, { liveType: 2, groups: [group(id, vr, 'hls', at + 40, 1, ['1080p'])] }));
  // Pulls the built-in test pattern (live/pullSource.ts): with real media it plays from the first start.
  const { pattern } = DEMO_NAMES.channels;
  tx.put(
    'channels',
    channel(id, pattern, at + 50, {
      description:
        'The built-in test pattern (pullStream testsrc://), live from the first start: play its HLS address.',
      signalType: '2',
      pullStream: 'testsrc://854x480',
      pullTaskId: id('pullTask', pattern),
      status: ChannelStatuses.live,
      streamStatus: 1,
      startTime: now,
      updateTime: now,
      streamWidth: 854,
      streamHeight: 480,
      streamBitrate: 800,
      streamAudioBitrate: 96,
      streamFrameRate: 25,
      groups: [group(id, pattern, 'hls', at + 50, 1, ['480p'], { taskId: id('task', `${pattern}/hls`) })],
    }),
  );

  const videoCategories = DEMO_NAMES.videoCategories.map((name, i) => ({ id: meta.nextVideoCategoryId + i, name }));
  for (const c of videoCategories) tx.put('videoCategories', c);
  const idsByTitle = new Map<string, string>();
  for (const [i, d] of DEMO_VIDEOS.entries()) {
    const videoId = demoVideoId(id, d, i);
    // Real media: a done video is transcoding (1) until media/demoMedia.ts has made its renditions.
    const pending = options.realMedia === true && d.status === VideoStatuses.completed;
    const status = pending ? VideoStatuses.transcoding : d.status;
    if (!d.parent) idsByTitle.set(d.title, videoId);
    const duration = d.minutes * 60_000 + 17_000;
    const uploadTime = now - d.daysAgo * DAY - i * 60_000;
    const v = newVideoRecord({
      id: videoId,
      parentId: d.parent ? (idsByTitle.get(d.parent) ?? null) : null,
      fileName: `${d.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.${d.status === VideoStatuses.unknownFileType ? 'docx' : 'mp4'}`,
      title: d.title,
      width: d.videoType === 1 ? 3840 : 1920,
      height: d.videoType === 1 ? 2160 : 1080,
      bitrate: 6000,
      audioBitrate: 192,
      duration: d.status === VideoStatuses.uploadFailed || d.status === VideoStatuses.unknownFileType ? 0 : duration,
      playNum: status === VideoStatuses.completed ? 100 + i * 37 : 0,
      size: Math.round(((duration / 1000) * 6192) / 8),
      categoryId: videoCategories[d.category - 1].id,
      status,
      uploadTime,
      tag: d.tag,
      streams:
        d.renditions && !pending
          ? renditionsFor(id('task', `${d.title}#${i}`), d.renditions, 0, videoId, duration)
          : [],
      uri: `/source/${videoId}/${d.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.mp4`,
      videoType: d.videoType ?? 0,
    });
    tx.put('videos', v);
  }

  const logoGroups: LogoGroupRec[] = [
    {
      id: meta.nextLogoGroupId,
      name: 'Corner logo',
      logos: [
        {
          uri: 'logos/corner.png',
          width: 160,
          height: 60,
          leftPos: 88,
          topPos: 4,
          opacity: 90,
          resize: 100,
          start: 0,
          end: 100,
        },
      ],
      createTime: at,
      updateTime: null,
    },
    {
      id: meta.nextLogoGroupId + 1,
      name: 'Intro and outro',
      logos: [
        {
          uri: 'logos/intro.png',
          width: 640,
          height: 360,
          leftPos: 25,
          topPos: 25,
          opacity: 100,
          resize: 50,
          start: 0,
          end: 5,
        },
        {
          uri: 'logos/outro.png',
          width: 640,
          height: 360,
          leftPos: 25,
          topPos: 25,
          opacity: 100,
          resize: 50,
          start: 95,
          end: 100,
        },
      ],
      createTime: at + 1,
      updateTime: null,
    },
  ];
  for (const g of logoGroups) tx.put('logoGroups', g);

  const firstGroup = meta.nextTemplateGroupId;
  const templateGroups: TemplateGroupRec[] = [
    {
      id: firstGroup,
      name: DEMO_NAMES.templateGroups.standard,
      type: 0,
      trailor: false,
      trailorDuration: 0,
      logoGroupId: logoGroups[0].id,
      templates: [
        templateGroupItem('1080p', 1920, 1080, 4500, 0, 0),
        templateGroupItem('720p', 1280, 720, 2500, 0, 1),
        templateGroupItem('720p', 1280, 720, 2500, 1, 0),
      ],
      createTime: at,
      updateTime: null,
    },
    {
      id: firstGroup + 1,
      name: DEMO_NAMES.templateGroups.mobile,
      type: 0,
      trailor: true,
      trailorDuration: 30,
      logoGroupId: null,
      templates: [templateGroupItem('480p', 854, 480, 900, 0, 1), templateGroupItem('360p', 640, 360, 500, 0, 0)],
      createTime: at + 1,
      updateTime: null,
    },
    {
      id: firstGroup + 2,
      name: DEMO_NAMES.templateGroups.vr,
      type: 1,
      trailor: false,
      trailorDuration: 0,
      logoGroupId: null,
      templates: [templateGroupItem('4K', 3840, 2160, 15000, 0, 1)],
      createTime: at + 2,
      updateTime: null,
    },
  ];
  for (const g of templateGroups) tx.put('templateGroups', g);

  tx.put('meta', {
    ...meta,
    nextLogoGroupId: meta.nextLogoGroupId + logoGroups.length,
    nextTemplateGroupId: firstGroup + templateGroups.length,
    nextVideoCategoryId: meta.nextVideoCategoryId + videoCategories.length,
    defaultTemplateGroupId: firstGroup,
  });
  await store.commit(tx);
}
