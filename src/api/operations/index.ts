import type { HttpMethod } from '../contract';
/** Every operation of the platform, by action name: the one list the client and the local platform read. */
import { ChannelOperations } from './channels';
import { LiveResourceOperations } from './liveResources';
import { TranscodingOperations } from './transcoding';
import { VideoOperations } from './videos';

export const OPERATIONS = {
  ...ChannelOperations,
  ...LiveResourceOperations,
  ...TranscodingOperations,
  ...VideoOperations,
};

export type ActionName = keyof typeof OPERATIONS;

/** How each action travels: its method, and whether its input is a JSON body (facts section 2). */
export const ACTIONS = Object.fromEntries(
  Object.values(OPERATIONS).map((op) => [
    op.action,
    op.body ? { method: op.method, jsonBody: true } : { method: op.method },
  ]),
) as { readonly [A in ActionName]: { readonly method: HttpMethod; readonly jsonBody?: boolean } };
