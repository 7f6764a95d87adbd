/** Action name -> handler: every operation of rest-interface section 4 and facts section 4. */
import { Codes } from '../api/errorCodes';
import type { ActionName } from '../api/types';
import { liveChannelTypeCreate, liveChannelTypeList } from './actions/categories';
import { liveGetChannelsByPage } from './actions/channelList';
import {
  liveCreateChannel,
  liveDelete,
  liveGetChannelById,
  liveGetChannelsPlayUrl,
  liveStartChannel,
  liveStopChannel,
  liveUpdate,
} from './actions/channels';
import { liveLogoCreate, liveLogoList } from './actions/liveLogos';
import { liveGetTemplates, liveTemplateCreate, liveTemplateUpdate } from './actions/liveTemplates';
import { deleteLogoGroup, getLogoGroupList, logoGroup } from './actions/logoGroups';
import { deleteTemplateGroup, templateGroup, templateGroupList } from './actions/templateGroups';
import { secondTranscodeV2 } from './actions/transcode';
import { deleteVideo, getTranscodedVideos, getVideoInfo, queryVideo } from './actions/videos';
import type { ActionHandler } from './context';
import { PlatformFault } from './faults';
import { issueToken } from './media/tokens';

export const HANDLERS: Readonly<Record<ActionName, ActionHandler>> = {
  liveCreateChannel,
  liveUpdate,
  liveGetChannelsByPage,
  liveGetChannelById,
  liveStartChannel,
  liveStopChannel,
  liveDelete,
  liveGetChannelsPlayUrl,
  liveChannelTypeList,
  liveChannelTypeCreate,
  liveTemplateUpdate,
  liveTemplateCreate,
  liveGetTemplates,
  liveLogoCreate,
  liveLogoList,
  logoGroup,
  getLogoGroupList,
  templateGroup,
  templateGroupList,
  deleteTemplateGroup,
  deleteLogoGroup,
  secondTranscodeV2,
  queryVideo,
  getTranscodedVideos,
  getVideoInfo,
  deleteVideo,
  // Facts section 6: the token for uploads.
  getToken: (ctx) => ({ result: issueToken(ctx.account, ctx.now) }),
};

export function handlerFor(action: string): ActionHandler | undefined {
  return Object.prototype.hasOwnProperty.call(HANDLERS, action) ? HANDLERS[action as ActionName] : undefined;
}

/** The dispatch step: the handler of a request's action, or the interface's refusal of an unknown one. */
export function dispatch(action: string): ActionHandler {
  const handler = handlerFor(action);
  if (!handler) {
    throw new PlatformFault(Codes.apiNotExists, `action ${action.slice(0, 100)} is not an operation of this platform`);
  }
  return handler;
}
