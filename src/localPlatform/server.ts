/**
 * The local platform: a Node http server implementing the platform's signed REST interface at
 * `/rest`, with durable per-account data under `dataDir`. Used by the extension (inside the
 * extension host), by `npm run platform` / `npm start`, and by every test of the project.
 *
 * A request goes through these steps, each its own module:
 *   1. normalise (normalise.ts): the path, the Host and Origin checks;
 *   2. route (the table `routes`): `/rest` is the REST interface, `/multipart/upload` the upload
 *      (media/upload.ts), `/vod/...` and `/logo/...` the media files (media/routes.ts), `/live/...` a live
 *      channel's files when real live media runs (live/router.ts) — media files readable by pages of any
 *      origin — and `/player` the browser player (player.ts); other paths get the 404 envelope (a new
 *      route is one more entry);
 * and for `/rest`:
 *   3. read the body (request.ts), 4. authenticate (auth.ts), 5. dispatch to the action's handler
 *      (handlers.ts), 6. answer with the envelope (answer.ts).
 */
import { constants } from 'node:fs';
import { access, chmod, mkdir, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Codes } from '../api/errorCodes';
import { ACTIONS } from '../api/types';
import { openAccount, type PlatformAccount } from './store/accounts';
import { makeOrigin, type Origin } from './http/addresses';
import { HttpFault, send, sendFault, sendOnSocket, success } from './http/answer';
import { authenticate, DEFAULT_TIMESTAMP_WINDOW_MS, ReplayGuard, type AuthOptions } from './http/auth';
import type { Account } from './actions/context';
import { seedDemo } from './demo/demo';
import { PlatformFault } from './http/faults';
import { Fields } from './actions/fields';
import { dispatch } from './http/dispatch';
import type { LiveMedia, LiveOptions } from './live/liveMedia';
import { serveLive } from './live/router';
import { findMediaTools, type MediaMode } from '../media/tools';
import { seedDemoMedia } from './media/demoMedia';
import { MediaEngine, type MediaOptions } from './media/engine';
import { MediaTranscoder } from './media/jobs';
import { mediaRoutes } from './media/router';
import { UPLOAD_PATH } from './media/upload';
import { allowedHostNames, normalise, WILDCARD_HOSTS, type Incoming } from './http/normalise';
import { DIR_MODE } from './store/permissions';
import { isPlayerPath, servePlayer } from './http/player';
import { BodyTooLarge, ClientGone, DEFAULT_MAX_BODY_BYTES, parseRequest, readBody } from './http/request';
import { startError } from './store/storageErrors';

export type { PlatformAccount } from './store/accounts';
export { DEFAULT_TIMESTAMP_WINDOW_MS } from './http/auth';
export { DEFAULT_MAX_BODY_BYTES } from './http/request';

export interface LocalPlatformOptions {
  dataDir: string;
  accounts: PlatformAccount[];
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Seed demo data for accounts that have no data yet. */
  demo?: boolean;
  /** Simulated clock multiplier for transcoding (default 1: a run takes about 10 s). */
  clockSpeed?: number;
  /** Allowed skew of a request's `timestamp` (default 15 minutes). */
  timestampWindowMs?: number;
  /** Largest accepted request body (default 1 MiB); larger ones get bodyTooLarge. */
  maxBodyBytes?: number;
  /** Time for a `/rest` request's whole body to arrive (default 60 s); a slower one gets HTTP 408. */
  bodyTimeoutMs?: number;
  /**
   * A connection that sends and receives nothing this long is closed (default 60 s). There is no limit on
   * a whole request, so a large upload on a slow line goes on as long as it keeps sending.
   */
  idleTimeoutMs?: number;
  /**
   * Host names served besides loopback and the bound address (a request naming another host, as a
   * web page reaching the platform through DNS rebinding does, is refused).
   */
  allowedHosts?: string[];
  /** Refuse a signed request seen before within the timestamp window (default off). */
  replayGuard?: boolean;
  /** Real media with ffmpeg (src/localPlatform/README.md "Media"); absent: the simulated clock. */
  media?: MediaOptions;
  /** Called once per answered request (no parameters, no secrets): for logs. */
  onRequest?: (entry: { action: string; code: number; durationMs: number }) => void;
  /** Real live media (RTMP ingest, ffmpeg outputs; live/liveMedia.ts) when ffmpeg is found; simulated otherwise. */
  live?: LiveOptions;
}

export interface LocalPlatform {
  /** `http://127.0.0.1:PORT` */
  readonly baseUrl: string;
  /** `http://127.0.0.1:PORT/rest` */
  readonly restUrl: string;
  readonly port: number;
  /** `rtmp://HOST:PORT/live` when real live media runs. */
  readonly rtmpUrl?: string;
  /** Why live media is simulated, when `live` was asked for and ffmpeg is missing. */
  readonly liveSimulatedReason?: string;
  /** Which media mode runs: real (ffmpeg's version and path) or simulated (and why). */
  readonly mediaMode: MediaMode;
  /** One line saying the media mode, for banners. */
  readonly mediaDescription: string;
  close(): Promise<void>;
}

/** Largest request line plus headers (Node's default is 16 KiB). */
export const MAX_HEADER_BYTES = 256 * 1024;

function checkOptions(options: LocalPlatformOptions): void {
  if (!options.dataDir) throw new Error('dataDir is required');
  if (!Array.isArray(options.accounts) || options.accounts.length === 0)
    throw new Error('at least one account is required');
  const keys = new Set<string>();
  for (const [i, a] of options.accounts.entries()) {
    if (!a.accessKey || !a.secretKey) throw new Error(`accounts[${i}] needs an access key and a secret key`);
    if (keys.has(a.accessKey)) throw new Error(`accounts[${i}]: access key given twice`);
    keys.add(a.accessKey);
    if (a.userId !== undefined && (!Number.isSafeInteger(a.userId) || a.userId <= 0)) {
      throw new Error(`accounts[${i}].userId must be a positive integer`);
    }
  }
  if (options.clockSpeed !== undefined && !(options.clockSpeed > 0 && Number.isFinite(options.clockSpeed))) {
    throw new Error('clockSpeed must be a positive number');
  }
  if (options.port !== undefined && !(Number.isInteger(options.port) && options.port >= 0 && options.port <= 65535)) {
    throw new Error('port must be an integer from 0 to 65535');
  }
  for (const name of options.allowedHosts ?? []) {
    if (typeof name !== 'string' || !/^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:.]+|[A-Za-z0-9._-]+)$/.test(name)) {
      throw new Error(`allowedHosts: ${JSON.stringify(name)} is not a host name or address`);
    }
  }
}

/** The methods of a read: media files answer them to pages of any origin. */
const READS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What a request's log entry says: its action and the code it was answered with. */
interface Exchange {
  action: string;
  code: number;
  /** False when nobody was answered (the client went away). */
  answered: boolean;
}

type Route = (req: IncomingMessage, res: ServerResponse, incoming: Incoming, exchange: Exchange) => Promise<void>;

/** liveCreateChannel and liveUpdate carry their definition as a JSON body (facts section 2). */
function takesJsonBody(action: string): boolean {
  return (ACTIONS as Record<string, { jsonBody?: boolean } | undefined>)[action]?.jsonBody === true;
}

const NO_BODY = Buffer.alloc(0);

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

/**
 * Opens every account's store (creating the data folder, owner-only), seeding demo data if asked;
 * with real media, each account's transcoding queue runs ffmpeg and the demo videos get their media
 * in the background (stopped by `demoStop`); with real live media, channel operations reach it
 * through the account.
 */
async function openAccounts(
  options: LocalPlatformOptions,
  engine: MediaEngine,
  demoStop: AbortSignal,
  logError: (error: unknown) => void,
  live: LiveMedia | undefined,
) {
  const tools = engine.tools;
  const makeQueue = tools
    ? (store: Account['store'], dir: string) => new MediaTranscoder(store, dir, engine, tools, logError)
    : undefined;
  const accounts = new Map<string, Account>();
  const takenUserIds = new Set<number>();
  try {
    // An existing folder that cannot be written is said so (a recursive mkdir reports ENOENT there).
    if (await exists(options.dataDir)) await access(options.dataDir, constants.W_OK);
    await mkdir(join(options.dataDir, 'accounts'), { recursive: true, mode: DIR_MODE });
    // Channel auth codes live here: the folder is the owner's only, also one made by an older version.
    await chmod(options.dataDir, DIR_MODE);
    await chmod(join(options.dataDir, 'accounts'), DIR_MODE);
    for (const config of options.accounts) {
      const opened = await openAccount(
        options.dataDir,
        config,
        takenUserIds,
        options.clockSpeed ?? 1,
        logError,
        undefined,
        makeQueue,
      );
      const { fresh } = opened;
      // With real live media, channel operations reach it through the account (actions/channels.ts).
      const account: Account = live ? { ...opened.account, live: live.hooksFor(opened.account) } : opened.account;
      accounts.set(config.accessKey, account);
      if (fresh && options.demo) await seedDemo(account.store, Date.now(), { realMedia: tools !== undefined });
      if (options.demo && tools) seedDemoMedia(account, options.dataDir, tools, logError, demoStop, engine.watchdog);
      account.transcoder.reschedule();
      await live?.resume(account);
    }
  } catch (error) {
    await live?.close();
    await closeAccounts(accounts);
    throw startError(error, options.dataDir);
  }
  return accounts;
}

/**
 * A `/rest` body that has not arrived in time is answered with HTTP 408 and the connection closed (the rest of
 * it is not read). Bodies there are small: a slow one is a stuck or hostile client.
 */
async function withBodyDeadline<T>(reading: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new HttpFault(408, Codes.exception, `the request body did not arrive within ${ms / 1000} s`, {
            Connection: 'close',
          }),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([reading, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export async function startLocalPlatform(options: LocalPlatformOptions): Promise<LocalPlatform> {
  checkOptions(options);
  const host = options.host ?? '127.0.0.1';
  const windowMs = options.timestampWindowMs ?? DEFAULT_TIMESTAMP_WINDOW_MS;
  const auth: AuthOptions = { windowMs, replayGuard: options.replayGuard ? new ReplayGuard(windowMs) : undefined };
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 60_000;
  const allowedHosts = allowedHostNames(host, options.allowedHosts);
  const logError = (error: unknown): void => {
    // A refusal (such as a full data folder met by the transcoding clock) is one readable line; a
    // bug keeps its stack.
    const text =
      error instanceof PlatformFault
        ? error.message
        : error instanceof Error
          ? (error.stack ?? error.message)
          : String(error);
    console.error(`local platform: ${text}`);
  };
  let live: LiveMedia | undefined;
  let liveSimulatedReason: string | undefined;
  if (options.live) {
    const mode = await findMediaTools({ dir: options.live.ffmpegDir, npmFallback: options.live.npmFallback });
    if (mode.kind === 'real') {
      // Loaded only when asked for: the extension's bundle leaves the RTMP server out (scripts/build.mjs).
      // (require, not import(): the tests run the sources as CommonJS through tsx.)
      const { LiveMedia } = require('./live/liveMedia') as typeof import('./live/liveMedia');
      live = await LiveMedia.start(mode.tools, host, options.dataDir, options.live, (line) =>
        console.error(`local platform: ${line}`),
      );
    } else liveSimulatedReason = mode.reason;
  }
  const engine = await MediaEngine.start(options.media);
  const demoStop = new AbortController();
  // A start that fails stops the demo media and the live media it began.
  const accounts = await openAccounts(options, engine, demoStop.signal, logError, live).catch(
    async (error: unknown) => {
      demoStop.abort();
      await live?.close();
      engine.close();
      throw error;
    },
  );
  let port = 0;
  // The addresses answers are composed against, made once per host name a client used (the port is fixed once
  // listening; the allowed host names are few, so the map stays small).
  const origins = new Map<string, Origin>();
  const originFor = (name: string): Origin => {
    let origin = origins.get(name);
    if (!origin) {
      origin = makeOrigin(name, port, live?.rtmpPort);
      origins.set(name, origin);
    }
    return origin;
  };

  /** The `/rest` route: read the body, authenticate, dispatch, answer. */
  const serveRest: Route = async (req, res, incoming, exchange) => {
    if (incoming.method !== 'GET' && incoming.method !== 'POST') {
      throw new HttpFault(405, Codes.parameterInvalid, `method must be GET or POST (got ${incoming.method || '?'})`, {
        Allow: 'GET, POST',
      });
    }
    // A request with neither Content-Length nor Transfer-Encoding has no body (RFC 9112 6.3): nothing to wait
    // for, so no deadline timer (Node drains such a request itself once answered).
    const bodiless = req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined;
    const jsonAction = !bodiless && takesJsonBody(incoming.url.searchParams.get('action') ?? '');
    const body = bodiless ? NO_BODY : await withBodyDeadline(readBody(req, maxBody), bodyTimeoutMs);
    const parsed = parseRequest(incoming.url, req.headers['content-type'], body, jsonAction);
    exchange.action = parsed.params.action ?? '-';
    const now = Date.now();
    const account = authenticate(parsed.params, accounts, auth, now);
    const handler = dispatch(parsed.params.action);
    // Bound to every interface: addresses in answers use the name the client used.
    const origin = originFor(WILDCARD_HOSTS.has(host) ? (incoming.hostName ?? '127.0.0.1') : host);
    const outcome = await handler({
      params: new Fields(parsed.params),
      body: takesJsonBody(parsed.params.action) ? parsed.json : undefined,
      account,
      view: { store: account.store, userId: account.userId, origin, liveThumbnail: account.live?.thumbnail },
      now,
    });
    // Never answer with data that is not yet on disk.
    await account.store.durable();
    exchange.code = Codes.success;
    send(res, 200, success(outcome));
  };

  /** The `/live/...` route: GET/HEAD of a live channel's files (live/router.ts answers). */
  const serveLiveFiles: Route = async (req, res, incoming, exchange) => {
    exchange.action = 'live-file';
    if (live) await serveLive(live, req, res, incoming.path);
    exchange.code = Codes.success;
  };

  const media = mediaRoutes(engine, options.dataDir, accounts);
  /** `anyOrigin`: pages of every origin may read it (GET, HEAD, OPTIONS), as from a CDN. */
  const routes: ReadonlyArray<{ path: (path: string) => boolean; serve: Route; anyOrigin?: boolean }> = [
    { path: (path) => path === '/rest' || path === '/rest/', serve: serveRest },
    // The upload (facts section 6) on the same origin as /rest, and the media files the platform lists.
    {
      path: media.isUploadPath,
      serve: async (req, res, incoming, exchange) => {
        exchange.action = 'upload';
        exchange.code = await media.upload(req, res);
      },
    },
    {
      path: media.isMediaPath,
      anyOrigin: true,
      serve: async (req, res, incoming, exchange) => {
        exchange.action = 'media';
        exchange.code = await media.serve(req, res, incoming.path);
      },
    },
    // Real live media: HLS, HTTP-FLV and thumbnails (live/router.ts); simulated media has no files.
    { path: (path) => live !== undefined && path.startsWith('/live/'), anyOrigin: true, serve: serveLiveFiles },
    // The browser player of Open Player in Browser (player.ts).
    { path: isPlayerPath, serve: servePlayer },
  ];

  // Made once per server, not per request.
  const routeFor = (path: string) => routes.find((r) => r.path(path));
  const readableByAnyOrigin = (path: string, method: string): boolean =>
    READS.has(method) && routeFor(path)?.anyOrigin === true;

  /** The answer to a refusal or failure of any step. */
  const answerError = (req: IncomingMessage, res: ServerResponse, error: unknown, exchange: Exchange): void => {
    if (error instanceof ClientGone) {
      // Nobody to answer: a plain note, not an internal error.
      exchange.answered = false;
      console.error(`local platform: note: ${error.message}`);
      return;
    }
    if (error instanceof PlatformFault) {
      exchange.code = error.code;
      // A refusal before the body was read: drain it so the connection stays usable.
      if (error instanceof HttpFault) req.resume();
      sendFault(res, error, error instanceof BodyTooLarge && error.unread);
      return;
    }
    exchange.code = Codes.exception;
    logError(error);
    sendFault(res, new PlatformFault(Codes.exception));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // The clock is read only for a request log.
    const started = options.onRequest ? performance.now() : 0;
    const exchange: Exchange = { action: '-', code: Codes.exception, answered: true };
    try {
      const incoming = normalise(req, allowedHosts, readableByAnyOrigin);
      const route = routeFor(incoming.path);
      if (!route) {
        throw new HttpFault(
          404,
          Codes.apiNotExists,
          `only /rest, ${UPLOAD_PATH} and the media files it lists are served (got ${incoming.path.slice(0, 100)})`,
        );
      }
      await route.serve(req, res, incoming, exchange);
    } catch (error) {
      answerError(req, res, error, exchange);
    } finally {
      if (exchange.answered && options.onRequest) {
        // The action name comes from the request: keep it to one short, printable word in logs.
        const logged = exchange.action.slice(0, 64).replace(/[^\w-]/g, '?') || '-';
        options.onRequest({ action: logged, code: exchange.code, durationMs: performance.now() - started });
      }
    }
  };

  // Requests being handled: close() lets them finish (their writes included) before closing the stores.
  const inflight = new Set<Promise<void>>();
  // GET operations carry everything in the query (up to 1000 ids in `ids`), and clients in use put
  // POST parameters there too, JSON text included: room for a long request line.
  const server = createServer(
    // No whole-request limit (requestTimeout 0): uploads may be long. Slow headers, slow /rest bodies and silent
    // connections have limits of their own (headersTimeout, bodyTimeoutMs, server.timeout below).
    { keepAliveTimeout: 5_000, requestTimeout: 0, headersTimeout: 30_000, maxHeaderSize: MAX_HEADER_BYTES },
    (req, res) => {
      const done = handle(req, res);
      inflight.add(done);
      void done.finally(() => inflight.delete(done));
    },
  );
  // Destroyed when silent this long (no 'timeout' listener on the server: Node destroys the socket).
  server.timeout = options.idleTimeoutMs ?? 60_000;
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    if (error.code === 'HPE_HEADER_OVERFLOW') {
      // Refused like an oversized body: the envelope, so the client reads why.
      sendOnSocket(
        socket,
        '200 OK',
        new PlatformFault(
          Codes.bodyTooLarge,
          `the request line and headers are larger than the limit of ${MAX_HEADER_BYTES} bytes`,
        ),
      );
      return;
    }
    // Not HTTP this server can read (often a query with raw spaces or non-ASCII bytes): an HTTP
    // error, with the envelope saying why.
    const hint =
      error.code === 'HPE_INVALID_URL' || error.code === 'HPE_INVALID_CONSTANT'
        ? '; percent-encode spaces and non-ASCII characters in the address'
        : '';
    sendOnSocket(
      socket,
      '400 Bad Request',
      new PlatformFault(
        Codes.parameterInvalid,
        `the HTTP request cannot be read (${String(error.code ?? 'parse error').slice(0, 40)})${hint}`,
      ),
    );
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await live?.close();
    demoStop.abort();
    await closeAccounts(accounts);
    engine.close();
    throw error;
  }
  port = (server.address() as AddressInfo).port;
  const baseUrl = makeOrigin(WILDCARD_HOSTS.has(host) ? '127.0.0.1' : host, port).http;

  let closing: Promise<void> | undefined;
  return {
    baseUrl,
    restUrl: `${baseUrl}/rest`,
    port,
    mediaMode: engine.mode,
    mediaDescription: engine.describe(),
    rtmpUrl: live
      ? `rtmp://${makeOrigin(WILDCARD_HOSTS.has(host) ? '127.0.0.1' : host, live.rtmpPort).host}:${live.rtmpPort}/live`
      : undefined,
    liveSimulatedReason,
    close(): Promise<void> {
      closing ??= (async () => {
        await live?.close();
        demoStop.abort();
        for (const account of accounts.values()) account.transcoder.close();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await Promise.race([
          Promise.allSettled([...inflight]),
          new Promise((resolve) => setTimeout(resolve, 5_000).unref()),
        ]);
        server.closeAllConnections();
        await closed;
        await closeAccounts(accounts);
        engine.close();
      })();
      return closing;
    },
  };
}

async function closeAccounts(accounts: Map<string, Account>): Promise<void> {
  for (const account of accounts.values()) {
    account.transcoder.close();
    await account.store.close().catch(() => undefined);
  }
}
