/** Action name -> handler: every operation of the contract (src/api/operations), each module's own list. */
import { Codes } from '../../api/errorCodes';
import type { ActionName } from '../../api/operations';
import { handlers as categories } from '../actions/categories';
import { handlers as channelList } from '../actions/channelList';
import { handlers as channels } from '../actions/channels';
import { handlers as liveLogos } from '../actions/liveLogos';
import { handlers as liveTemplates } from '../actions/liveTemplates';
import { handlers as logoGroups } from '../actions/logoGroups';
import { handlers as templateGroups } from '../actions/templateGroups';
import { handlers as transcode } from '../actions/transcode';
import { handlers as videos } from '../actions/videos';
import type { ActionHandler } from '../actions/context';
import { PlatformFault } from './faults';
import { issueToken } from '../media/tokens';

/** A missing or misspelt action fails the compiler: the keys must be exactly the contract's actions. */
export const HANDLERS: Readonly<Record<ActionName, ActionHandler>> = {
  ...channels,
  ...channelList,
  ...categories,
  ...liveTemplates,
  ...liveLogos,
  ...logoGroups,
  ...templateGroups,
  ...transcode,
  ...videos,
  // Facts section 6: the token for uploads.
  getToken: (ctx) => ({ result: issueToken(ctx.account, ctx.now) }),
} satisfies Record<ActionName, ActionHandler>;

/** The same, looked up per request: a Map of own entries only (no prototype names). */
const BY_ACTION: ReadonlyMap<string, ActionHandler> = new Map(Object.entries(HANDLERS));

export function handlerFor(action: string): ActionHandler | undefined {
  return BY_ACTION.get(action);
}

/** The dispatch step: the handler of a request's action, or the interface's refusal of an unknown one. */
export function dispatch(action: string): ActionHandler {
  const handler = handlerFor(action);
  if (!handler) {
    throw new PlatformFault(Codes.apiNotExists, `action ${action.slice(0, 100)} is not an operation of this platform`);
  }
  return handler;
}
