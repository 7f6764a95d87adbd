/**
 * The platform's built-in transcoding template groups: present for every account, usable by id in
 * secondTranscodeV2, listed by templateGroupList, never modifiable (cannotModifyTemplateGroup). Ids 1-3; groups an
 * account creates get ids from 1001 up.
 */
import type { TemplateGroupItemRec, TemplateGroupRec } from '../store/records';

/** One template of a group, with the defaults the built-in and demo groups share (AAC 128 kbit/s, clear). */
export function templateGroupItem(
  name: string,
  w: number,
  h: number,
  kbps: number,
  format: 0 | 1 | 2 | 3,
  defaultVideo: 0 | 1,
): TemplateGroupItemRec {
  return {
    name,
    videoWidth: w,
    videoHeight: h,
    videoBitrate: kbps,
    audioBitrate: 128000,
    format,
    encryptType: 0,
    defaultVideo,
    advancedArguments: null,
  };
}

export const BUILTIN_TEMPLATE_GROUPS: readonly TemplateGroupRec[] = [
  {
    id: 1,
    name: 'Built-in adaptive HLS 1080p/720p/480p',
    type: 0,
    trailor: false,
    trailorDuration: 0,
    logoGroupId: null,
    templates: [
      templateGroupItem('1080p', 1920, 1080, 4500, 0, 0),
      templateGroupItem('720p', 1280, 720, 2500, 0, 1),
      templateGroupItem('480p', 854, 480, 1000, 0, 0),
    ],
    createTime: 0,
    updateTime: null,
  },
  {
    id: 2,
    name: 'Built-in MP4 download 720p/360p',
    type: 0,
    trailor: false,
    trailorDuration: 0,
    logoGroupId: null,
    templates: [templateGroupItem('720p', 1280, 720, 2500, 1, 1), templateGroupItem('360p', 640, 360, 600, 1, 0)],
    createTime: 0,
    updateTime: null,
  },
  {
    id: 3,
    name: 'Built-in VR 4K/1080p',
    type: 1,
    trailor: false,
    trailorDuration: 0,
    logoGroupId: null,
    templates: [templateGroupItem('4K', 3840, 2160, 15000, 0, 1), templateGroupItem('1080p', 1920, 1080, 6000, 0, 0)],
    createTime: 0,
    updateTime: null,
  },
];

export const FIRST_USER_TEMPLATE_GROUP_ID = 1001;

export function builtinTemplateGroup(id: number): TemplateGroupRec | undefined {
  return BUILTIN_TEMPLATE_GROUPS.find((g) => g.id === id);
}
