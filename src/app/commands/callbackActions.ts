import type * as InspectCommands from '../inspect/commands';

type Callbacks = typeof InspectCommands.callbacks;
let loaded: Callbacks | undefined;

/**
 * The Callbacks view's commands (src/app/callbacks/callbackCommands.ts), loaded on the first use of one of them with
 * the inspection part (dist/lazy/inspect.js, as inspectCommands.ts does): activation does not need them. The sources
 * (tests) load the module as it is.
 */
function callbacks(): Callbacks {
  return (loaded ??= (require('../inspect/commands') as typeof InspectCommands).callbacks);
}

export const listCallbacks: Callbacks['listCallbacks'] = (ctx) => callbacks().listCallbacks(ctx);
export const refreshCallbacks: Callbacks['refreshCallbacks'] = (ctx) => callbacks().refreshCallbacks(ctx);
export const openCallbackDelivery: Callbacks['openCallbackDelivery'] = (ctx, args) =>
  callbacks().openCallbackDelivery(ctx, args);
export const resendCallback: Callbacks['resendCallback'] = (ctx, args) => callbacks().resendCallback(ctx, args);
export const triggerCallback: Callbacks['triggerCallback'] = (ctx, args) => callbacks().triggerCallback(ctx, args);
export const setCallbackFaults: Callbacks['setCallbackFaults'] = (ctx) => callbacks().setCallbackFaults(ctx);
export const copyCallbackSecret: Callbacks['copyCallbackSecret'] = (ctx) => callbacks().copyCallbackSecret(ctx);
export const editCallbackUrls: Callbacks['editCallbackUrls'] = (ctx, title) => callbacks().editCallbackUrls(ctx, title);
