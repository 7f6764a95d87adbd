/**
 * The parts of undici the client uses, loaded from undici's own sub-modules.
 *
 * Why not `import ... from 'undici'`: the package root loads `lib/global.js`, which installs a fresh
 * Agent as the process-wide dispatcher (`Symbol.for('undici.globalDispatcher.1')`) when none is set.
 * Inside VS Code's extension host that would replace the dispatcher its `fetch` uses. The sub-modules
 * below never load `lib/global.js` (test/api/globalDispatcher.test.ts proves it, bundled too).
 * The types still come from the package root: `import type` is erased, so it loads nothing.
 */
import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';

export type { Dispatcher };

export const Pool = require('undici/lib/dispatcher/pool') as typeof Undici.Pool;
export const ProxyAgent = require('undici/lib/dispatcher/proxy-agent') as typeof Undici.ProxyAgent;
export const errors = require('undici/lib/core/errors') as typeof Undici.errors;

/** `Dispatcher.prototype.request` and `.connect` are only attached by the package root: call the API functions. */
const requestApi = require('undici/lib/api/api-request') as (
  this: Dispatcher,
  options: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;
const connectApi = require('undici/lib/api/api-connect') as (
  this: Dispatcher,
  options: Omit<Dispatcher.ConnectOptions, 'origin'>,
) => Promise<Dispatcher.ConnectData>;

export function request(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return requestApi.call(dispatcher, options);
}

/** Opens a CONNECT tunnel through the pool (to the proxy). */
export function openTunnel(
  pool: InstanceType<typeof Pool>,
  options: Omit<Dispatcher.ConnectOptions, 'origin'>,
): Promise<Dispatcher.ConnectData> {
  return connectApi.call(pool, options);
}
