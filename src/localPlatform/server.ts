/**
 * The local platform: a Node http server implementing the platform's signed REST interface at
 * `/rest`, with durable per-account data under `dataDir`. Used by the extension (inside the
 * extension host), by `npm run platform` / `npm start`, and by every test of the project.
 *
 * `startLocalPlatform` composes the rooms: the accounts' stores (store/, platformAccounts.ts), media (media/)
 * and live media (live/), the HTTP pipeline (http/: server.ts normalise then routes.ts; `/rest` is rest.ts:
 * read the body, authenticate, dispatch to the action's handler in actions/, answer), and the demo (demo/).
 */
import { findMediaTools } from '../media/tools';
import { PlatformCallbacks } from './callbacks/callbacks';
import { callbacksAdminRoute, isCallbacksAdminPath } from './callbacks/route';
import { makeOrigin, type Origin } from './http/addresses';
import { DEFAULT_TIMESTAMP_WINDOW_MS, ReplayGuard } from './http/auth';
import { faultsAdminRoute } from './faults/admin';
import { FaultBoard } from './faults/board';
import { PlatformFault } from './http/faults';
import { allowedHostNames, WILDCARD_HOSTS } from './http/normalise';
import { DEFAULT_MAX_BODY_BYTES } from './http/request';
import { restRoute } from './http/rest';
import { HEALTH_PATH, healthRoute } from './http/health';
import { routeTable } from './http/routes';
import { listen, type HttpServer } from './http/server';
import type { LiveMedia } from './live/liveMedia';
import { MediaEngine } from './media/engine';
import { mediaRoutes } from './media/router';
import { UPLOAD_PATH } from './media/upload';
import { checkOptions, type LocalPlatform, type LocalPlatformOptions } from './options';
import { closeAccounts, openAccounts } from './platformAccounts';

export type { PlatformAccount } from './accounts';
export { DEFAULT_TIMESTAMP_WINDOW_MS } from './http/auth';
export { DEFAULT_MAX_BODY_BYTES } from './http/request';
export { MAX_HEADER_BYTES } from './http/server';
export type { LocalPlatform, LocalPlatformOptions } from './options';

/** A refusal (such as a full data folder met by the transcoding clock) is one readable line; a bug keeps its stack. */
function logError(error: unknown): void {
  const text =
    error instanceof PlatformFault
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
  console.error(`local platform: ${text}`);
}

/** Real live media when asked for and ffmpeg is found; otherwise why it is simulated. */
async function startLive(options: LocalPlatformOptions, host: string): Promise<{ live?: LiveMedia; reason?: string }> {
  if (!options.live) return {};
  const mode = await findMediaTools({ dir: options.live.ffmpegDir, npmFallback: options.live.npmFallback });
  if (mode.kind !== 'real') return { reason: mode.reason };
  // Loaded only when asked for: the extension's bundle leaves the RTMP server out (scripts/build.mjs).
  // (require, not import(): the tests run the sources as CommonJS through tsx.)
  const { LiveMedia } = require('./live/liveMedia') as typeof import('./live/liveMedia');
  const live = await LiveMedia.start(mode.tools, host, options.dataDir, options.live, (line) =>
    console.error(`local platform: ${line}`),
  );
  return { live };
}

/** The addresses answers are composed against, one per host name a client used (few: the allowed ones). */
function originsFor(
  host: string,
  port: () => number,
  live: LiveMedia | undefined,
): (name: string | undefined) => Origin {
  const origins = new Map<string, Origin>();
  return (hostName) => {
    // Bound to every interface: addresses in answers use the name the client used.
    const name = WILDCARD_HOSTS.has(host) ? (hostName ?? '127.0.0.1') : host;
    let origin = origins.get(name);
    if (!origin) origins.set(name, (origin = makeOrigin(name, port(), live?.rtmpPort)));
    return origin;
  };
}

export async function startLocalPlatform(options: LocalPlatformOptions): Promise<LocalPlatform> {
  checkOptions(options);
  const host = options.host ?? '127.0.0.1';
  const windowMs = options.timestampWindowMs ?? DEFAULT_TIMESTAMP_WINDOW_MS;
  const { live, reason: liveSimulatedReason } = await startLive(options, host);
  const engine = await MediaEngine.start(options.media);
  const demoStop = new AbortController();
  const stopMedia = async (): Promise<void> => {
    await live?.close();
    demoStop.abort();
  };
  // A start that fails stops the demo media and the live media it began.
  const accounts = await openAccounts(options, engine, demoStop.signal, logError, live).catch(
    async (error: unknown) => {
      demoStop.abort();
      await live?.close();
      engine.close();
      throw error;
    },
  );
  let server: HttpServer | undefined;
  const originOf = originsFor(host, () => server?.port ?? 0, live);
  const auth = { windowMs, replayGuard: options.replayGuard ? new ReplayGuard(windowMs) : undefined };
  // Stream faults (faults/): a profile file read again when it changes, and rules injected per account.
  const faults = new FaultBoard(accounts, (line) => console.error(`local platform: ${line}`));
  const rest = restRoute({
    accounts,
    auth,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    bodyTimeoutMs: options.bodyTimeoutMs ?? 60_000,
    originOf,
  });
  let callbacks: PlatformCallbacks | undefined;
  const urlsOf = (accessKey: string) => options.accounts.find((a) => a.accessKey === accessKey)?.callbackUrls ?? [];
  try {
    callbacks = await PlatformCallbacks.open(
      options.dataDir,
      accounts,
      urlsOf,
      options.callbacks ?? {},
      () => originOf(undefined),
      logError,
    );
    if (options.faultsFile) await faults.watch(options.faultsFile);
    server = await listen(host, options.port ?? 0, {
      routes: routeTable(rest, mediaRoutes(engine, options.dataDir, accounts, faults), live, originOf, faults, [
        faultsAdminRoute(faults, accounts, auth),
        // The callbacks' admin route (callbacks/route.ts): loopback only, signed like /rest.
        { path: isCallbacksAdminPath, serve: callbacksAdminRoute(accounts, auth, () => callbacks) },
        // A started channel's health (http/health.ts): signed, loopback only, not an operation of the interface.
        { path: (path: string) => path === HEALTH_PATH, serve: healthRoute({ accounts, auth }) },
      ]),
      allowedHosts: allowedHostNames(host, options.allowedHosts),
      served: `/rest, ${UPLOAD_PATH} and the media files it lists`,
      idleTimeoutMs: options.idleTimeoutMs,
      logError,
      onRequest: options.onRequest,
    });
  } catch (error) {
    await callbacks?.close();
    faults.close();
    await stopMedia();
    await closeAccounts(accounts);
    engine.close();
    throw error;
  }
  const listening = server;
  const openedCallbacks = callbacks;
  const shown = WILDCARD_HOSTS.has(host) ? '127.0.0.1' : host;
  const baseUrl = makeOrigin(shown, listening.port).http;
  let closing: Promise<void> | undefined;
  return {
    baseUrl,
    restUrl: `${baseUrl}/rest`,
    port: listening.port,
    mediaMode: engine.mode,
    mediaDescription: engine.describe(),
    rtmpUrl: live ? `rtmp://${makeOrigin(shown, live.rtmpPort).host}:${live.rtmpPort}/live` : undefined,
    liveSimulatedReason,
    callbacks: openedCallbacks,
    close(): Promise<void> {
      closing ??= (async () => {
        faults.close();
        await stopMedia();
        for (const account of accounts.values()) account.transcoder.close();
        await listening.close();
        // After the last write: the statuses a stop writes are still sent (or dropped as the platform stops).
        await openedCallbacks.close();
        await closeAccounts(accounts);
        engine.close();
      })();
      return closing;
    },
  };
}
