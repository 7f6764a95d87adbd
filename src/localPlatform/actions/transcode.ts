/**
 * secondTranscodeV2 (rest-interface 4.3): a built-in or account template group, ad-hoc templates
 * (which win over a group id), or the account's default group. The interface says twice that the
 * top-level code is only success or exception, with the outcomes per video in `result`: an unknown video
 * (videoNotExists), templates that cannot be used (transcodeTemplateNotCorrect,
 * templateGroupNotExist, noUserTranscodeTemplate, logoGroupNotExists) and a video in the wrong
 * state are each a video's own outcome. Only a request that cannot be read at all (no `videoIds`,
 * no `replace`) is refused as a whole, with the local parameter codes.
 */
import { OPERATIONS } from '../../api/operations';
import { Codes, knownCode } from '../../api/errorCodes';
import type { SecondTranscodeResult } from '../../api/types';
import { VideoStatuses } from '../../api/types';
import type { ActionHandler } from './context';
import { PlatformFault } from '../http/faults';
import { Fields } from './fields';
import { newId } from '../store/ids';
import { metaOf } from '../store/meta';
import type { JobRec, JobTemplate, TemplateGroupRec } from '../store/records';
import { Tx, type AccountStore } from '../store/store';
import { checkLogoGroup, readGroupId } from './logoGroups';
import { findTemplateGroup } from './templateGroups';
import { checkRenditionWork } from './workLimits';

const TEMPLATE_CODES = { missing: Codes.transcodeTemplateNotCorrect, invalid: Codes.transcodeTemplateNotCorrect };
const MAX_TEMPLATES = 20;
const SPECS = OPERATIONS.secondTranscodeV2.params;

export interface Plan {
  templates: JobTemplate[];
  trailor: boolean;
  trailorDuration: number;
  logoGroupId: number | null;
  videoType: 0 | 1 | null;
}

function readAdHocTemplate(t: Fields, store: AccountStore): { template: JobTemplate; logoGroupId: number | null } {
  const hls = t.bool('hls', true);
  const mp4 = t.bool('mp4', true);
  const flv = t.bool('flv', true);
  const ts = t.bool('ts', false) ?? false;
  if (!hls && !mp4 && !flv && !ts) throw t.invalid('hls', 'or mp4, flv or ts must be true (no format to produce)');
  const hlsEncryptType = (t.int('hlsEncryptType', false, { oneOf: [0, 6, 7] }) ?? 0) as 0 | 6 | 7;
  const template: JobTemplate = {
    name: t.str('name', true, 100).trim(),
    videoWidth: t.int('videoWidth', true, { min: 16, max: 7680 }),
    videoHeight: t.int('videoHeight', true, { min: 16, max: 4320 }),
    videoBitrate: t.int('videoBitrate', true, { min: 1, max: 100_000 }),
    audioBitrate: t.int('audioBitrate', true, { min: 1000, max: 1_024_000 }),
    hls,
    mp4,
    flv,
    ts,
    hlsEncryptType,
    mp4EncryptType: (t.int('mp4EncryptType', false, { oneOf: [0, 7] }) ?? 0) as 0 | 7,
    flvEncryptType: (t.int('flvEncryptType', false, { oneOf: [0, 7] }) ?? 0) as 0 | 7,
    tsEncryptType: (t.int('tsEncryptType', false, { oneOf: [0, 7] }) ?? 0) as 0 | 7,
    defaultVideo: (t.int('defaultVideo', false, { oneOf: [0, 1] }) ?? 0) as 0 | 1,
  };
  const logoGroupId = checkLogoGroup(store, t.int('logoGroupId', false, { min: 0 }), t.path('logoGroupId'));
  return { template, logoGroupId };
}

/** `transcodeTemplates`: an array of items, or `{logoGroupId, templates: [...]}`. */
function readAdHoc(p: Fields, store: AccountStore): Plan {
  const f = new Fields({ transcodeTemplates: p.raw('transcodeTemplates') }, '', TEMPLATE_CODES);
  const value = f.jsonValue('transcodeTemplates', true);
  let list: unknown[];
  let groupLogo: number | null = null;
  let listField: Fields;
  if (Array.isArray(value)) {
    list = value;
    listField = new Fields({ transcodeTemplates: list }, '', TEMPLATE_CODES);
  } else if (value !== null && typeof value === 'object') {
    const o = new Fields(value as Record<string, unknown>, 'transcodeTemplates', TEMPLATE_CODES);
    groupLogo = checkLogoGroup(store, o.int('logoGroupId', false, { min: 0 }), 'transcodeTemplates.logoGroupId');
    list = o.array('templates', true);
    listField = new Fields({ templates: list }, 'transcodeTemplates', TEMPLATE_CODES);
  } else {
    throw f.invalid('transcodeTemplates', 'must be a JSON array of templates or an object {logoGroupId, templates}');
  }
  const name = Array.isArray(value) ? 'transcodeTemplates' : 'templates';
  if (list.length === 0) throw listField.invalid(name, 'must hold at least one template');
  if (list.length > MAX_TEMPLATES) throw listField.invalid(name, `must hold at most ${MAX_TEMPLATES} templates`);
  const read = list.map((item, i) => readAdHocTemplate(listField.item(name, i, item), store));
  const templates = read.map((r) => r.template);
  checkRenditionWork('transcodeTemplates', templates);
  const defaults = templates.filter((t) => t.defaultVideo === 1).length;
  if (defaults > 1)
    throw listField.invalid(name, `must have at most one template with defaultVideo 1 (found ${defaults})`);
  if (defaults === 0) templates[0] = { ...templates[0], defaultVideo: 1 };
  return {
    templates,
    trailor: p.param(SPECS, 'trailor') ?? false,
    trailorDuration: p.param(SPECS, 'trailorDuration') ?? 0,
    logoGroupId: groupLogo ?? read.find((r) => r.logoGroupId !== null)?.logoGroupId ?? null,
    videoType: (p.param(SPECS, 'videoType') ?? null) as 0 | 1 | null,
  };
}

/** A group's items, one per format, merged into one rendition per profile. */
export function fromGroup(group: TemplateGroupRec): Plan {
  const byProfile = new Map<string, JobTemplate>();
  for (const item of group.templates) {
    const key = `${item.name}|${item.videoWidth}|${item.videoHeight}|${item.videoBitrate}|${item.audioBitrate}`;
    const t: JobTemplate = byProfile.get(key) ?? {
      name: item.name,
      videoWidth: item.videoWidth,
      videoHeight: item.videoHeight,
      videoBitrate: item.videoBitrate,
      audioBitrate: item.audioBitrate,
      hls: false,
      mp4: false,
      flv: false,
      ts: false,
      hlsEncryptType: 0,
      mp4EncryptType: 0,
      flvEncryptType: 0,
      tsEncryptType: 0,
      defaultVideo: 0,
    };
    const vendor = item.encryptType === 7 ? 7 : 0;
    if (item.format === 0) Object.assign(t, { hls: true, hlsEncryptType: item.encryptType });
    if (item.format === 1) Object.assign(t, { mp4: true, mp4EncryptType: vendor });
    if (item.format === 2) Object.assign(t, { flv: true, flvEncryptType: vendor });
    if (item.format === 3) Object.assign(t, { ts: true, tsEncryptType: vendor });
    if (item.defaultVideo === 1) t.defaultVideo = 1;
    t.advancedArguments ??= item.advancedArguments;
    byProfile.set(key, t);
  }
  return {
    templates: [...byProfile.values()],
    trailor: group.trailor,
    trailorDuration: group.trailorDuration,
    logoGroupId: group.logoGroupId,
    videoType: null,
  };
}

function planFor(p: Fields, store: AccountStore): Plan {
  if (p.has('transcodeTemplates')) return readAdHoc(p, store);
  const groupId = readGroupId(p, 'transcodeTemplateGroupId');
  if (groupId !== undefined) {
    const group = findTemplateGroup(store, groupId);
    if (!group) {
      throw new PlatformFault(
        Codes.templateGroupNotExist,
        `transcodeTemplateGroupId ${groupId} is not a template group of this account`,
      );
    }
    return fromGroup(group);
  }
  const defaultId = metaOf(store).defaultTemplateGroupId;
  const group = defaultId === null ? undefined : findTemplateGroup(store, defaultId);
  if (!group) {
    throw new PlatformFault(
      Codes.noUserTranscodeTemplate,
      'the account has no default template group; give transcodeTemplateGroupId or transcodeTemplates',
    );
  }
  return fromGroup(group);
}

function outcome(id: string, code: number, detail?: string): SecondTranscodeResult {
  const message = code === 0 ? 'success' : (knownCode(code)?.message ?? 'exception');
  return { id, code, message: detail ? `${message}: ${detail}` : message };
}

/** The templates to use, or the refusal every listed video gets when there are none usable. */
function tryPlan(p: Fields, store: AccountStore): Plan | PlatformFault {
  try {
    return planFor(p, store);
  } catch (error) {
    if (error instanceof PlatformFault) return error;
    throw error;
  }
}

export const secondTranscodeV2: ActionHandler = async (ctx) => {
  const p = ctx.params;
  const { store, transcoder } = ctx.account;
  const videoIds = p.param(SPECS, 'videoIds');
  const replace = p.param(SPECS, 'replace');
  const plan = tryPlan(p, store);
  const tx = new Tx();
  const results = videoIds.map((id): SecondTranscodeResult => {
    const video = store.get('videos', id);
    if (!video) return outcome(id, Codes.videoNotExists, 'not a video of this account');
    if (plan instanceof PlatformFault) return outcome(id, plan.code, plan.detail);
    if (video.status === VideoStatuses.waiting)
      return outcome(id, Codes.videoInWaitingList, 'the video is already queued for transcoding');
    if (video.status === VideoStatuses.transcoding || video.status === VideoStatuses.secondTranscoding)
      return outcome(id, Codes.transcodeRunning, 'the video is being transcoded');
    if (video.status === VideoStatuses.uploadFailed || video.status === VideoStatuses.unknownFileType) {
      return outcome(id, Codes.createTranscodeTaskFailed, `the video has no usable source (status ${video.status})`);
    }
    const job: JobRec = {
      id: newId(),
      videoId: id,
      replace,
      ...plan,
      ...transcoder.plan(ctx.now),
      createTime: ctx.now,
    };
    tx.put('jobs', job).put('videos', { ...video, status: VideoStatuses.waiting });
    return outcome(id, Codes.success);
  });
  await store.commit(tx);
  transcoder.reschedule();
  return { result: results };
};

/** This module's operations by action name, collected in ../handlers.ts. */
export const handlers = { secondTranscodeV2 };
