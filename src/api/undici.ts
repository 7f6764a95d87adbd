/**
 * The parts of undici the client uses, loaded from undici's own sub-modules.
 *
 * Why not `import ... from 'undici'`: the package root loads `lib/global.js`, which installs a fresh
 * Agent as the process-wide dispatcher (`Symbol.for('undici.globalDispatcher.1')`) when none is set.
 * Inside VS Code's extension host that would replace the dispatcher its `fetch` uses. The sub-modules
 * below never load `lib/global.js` (test/api/globalDispatcher.test.ts proves it, bundled too).
 * The types still come from the package root: `import type` is erased, so it loads nothing.
 */
import type { Dispatcher, Pool as PoolType, ProxyAgent as ProxyAgentType } from 'undici';

export type { Dispatcher };

export const Pool = require('undici/lib/dispatcher/pool') as typeof PoolType;
export const ProxyAgent = require('undici/lib/dispatcher/proxy-agent') as typeof ProxyAgentType;

/**
 * `Dispatcher.prototype.request` is only attached by the package root, so call the request API
 * function directly with the dispatcher as `this`.
 */
const requestApi = require('undici/lib/api/api-request') as (
  this: Dispatcher,
  options: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;
/** Likewise `Dispatcher.prototype.connect`, which a ProxyAgent calls to open a CONNECT tunnel. */
const connectApi = require('undici/lib/api/api-connect') as (
  this: Dispatcher,
  options: Dispatcher.ConnectOptions,
) => Promise<Dispatcher.ConnectData>;
const { ConnectTimeoutError } = require('undici/lib/core/errors') as {
  ConnectTimeoutError: new (message: string) => Error;
};

export function request(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return requestApi.call(dispatcher, options);
}

/**
 * A ProxyAgent whose connection to the proxy can open CONNECT tunnels (https:// platforms).
 * Its default client to the proxy is a Pool without `connect` (see above), so every https call
 * through a proxy failed with "connect is not a function". The method is added to that one Pool
 * instance, never to undici's shared prototype.
 *
 * Opening the tunnel is part of connecting: the proxy's answer to CONNECT must come within
 * `tunnelTimeoutMs` (else undici's default of 300 s applied, far beyond every configured
 * timeout), and running out of it is reported as the connect timeout it is.
 */
export function proxyAgent(options: ProxyAgentType.Options, tunnelTimeoutMs: number): ProxyAgentType {
  return new ProxyAgent({
    ...options,
    clientFactory: (origin: URL, clientOptions: object) => {
      const pool = new Pool(origin, { ...clientOptions, headersTimeout: tunnelTimeoutMs }) as PoolType & {
        connect: (this: Dispatcher, o: Dispatcher.ConnectOptions) => Promise<Dispatcher.ConnectData>;
      };
      pool.connect = async function tunnel(
        this: Dispatcher,
        o: Dispatcher.ConnectOptions,
      ): Promise<Dispatcher.ConnectData> {
        try {
          return await connectApi.call(this, o);
        } catch (error) {
          if ((error as { code?: unknown } | null)?.code === 'UND_ERR_HEADERS_TIMEOUT') {
            throw new ConnectTimeoutError(`the proxy did not open the tunnel within ${tunnelTimeoutMs} ms`);
          }
          throw error;
        }
      };
      return pool;
    },
  });
}
