/**
 * The local platform: a Node http server implementing the platform's signed REST interface at
 * `/rest`, with durable per-account data under `dataDir`. Used by the extension (inside the
 * extension host), by `npm run platform` / `npm start`, and by every test of the project.
 */
import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Codes } from '../api/errorCodes';
import { ACTIONS, type ActionName } from '../api/types';
import { openAccount, type PlatformAccount } from './accounts';
import { makeOrigin, type Origin } from './addresses';
import { authenticate, DEFAULT_TIMESTAMP_WINDOW_MS } from './auth';
import type { Account, ActionOutcome } from './context';
import { seedDemo } from './demo';
import { PlatformFault } from './faults';
import { Fields } from './fields';
import { handlerFor } from './handlers';
import { BodyTooLarge, DEFAULT_MAX_BODY_BYTES, parseRequest, readBody } from './request';
import type { MediaMode } from '../media/tools';
import { seedDemoMedia } from './media/demoMedia';
import { MediaEngine, type MediaOptions } from './media/engine';
import { MediaTranscoder } from './media/jobs';
import { mediaRouter } from './media/router';

export type { PlatformAccount } from './accounts';
export { DEFAULT_TIMESTAMP_WINDOW_MS } from './auth';
export { DEFAULT_MAX_BODY_BYTES } from './request';

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
  /** Largest accepted request body (default 1 MiB); larger ones get 10913. */
  maxBodyBytes?: number;
  /** Real media with ffmpeg (src/localPlatform/README.md "Media"); absent: the simulated clock. */
  media?: MediaOptions;
  /** Called once per answered request (no parameters, no secrets): for logs. */
  onRequest?: (entry: { action: string; code: number; durationMs: number }) => void;
}

export interface LocalPlatform {
  /** `http://127.0.0.1:PORT` */
  readonly baseUrl: string;
  /** `http://127.0.0.1:PORT/rest` */
  readonly restUrl: string;
  readonly port: number;
  /** Which media mode runs: real (ffmpeg's version and path) or simulated (and why). */
  readonly mediaMode: MediaMode;
  /** One line saying the media mode, for banners. */
  readonly mediaDescription: string;
  close(): Promise<void>;
}

interface Envelope {
  code: number;
  message: string;
  result: unknown;
  success: boolean;
  count?: number;
}

function send(res: ServerResponse, status: number, envelope: Envelope, close = false): void {
  if (res.headersSent) return;
  const body = JSON.stringify(envelope);
  res.writeHead(status, {
    'Content-Type': 'application/json;charset=UTF-8',
    'Content-Length': Buffer.byteLength(body),
    ...(close ? { Connection: 'close' } : {}),
  });
  res.end(body);
}

function failure(fault: PlatformFault): Envelope {
  return { code: fault.code, message: fault.message, result: null, success: false };
}

/** Largest request line plus headers (Node's default is 16 KiB). */
export const MAX_HEADER_BYTES = 256 * 1024;

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);

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
}

export async function startLocalPlatform(options: LocalPlatformOptions): Promise<LocalPlatform> {
  checkOptions(options);
  const host = options.host ?? '127.0.0.1';
  const windowMs = options.timestampWindowMs ?? DEFAULT_TIMESTAMP_WINDOW_MS;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const clockSpeed = options.clockSpeed ?? 1;
  const logError = (error: unknown): void => {
    console.error(`local platform: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  };

  await mkdir(options.dataDir, { recursive: true });
  const engine = await MediaEngine.start(options.media);
  const tools = engine.tools;
  const makeQueue = tools
    ? (store: Account['store'], dir: string) => new MediaTranscoder(store, dir, engine, tools, logError)
    : undefined;
  const accounts = new Map<string, Account>();
  const demoStop = new AbortController();
  const takenUserIds = new Set<number>();
  try {
    for (const config of options.accounts) {
      const { account, fresh } = await openAccount(
        options.dataDir,
        config,
        takenUserIds,
        clockSpeed,
        logError,
        undefined,
        makeQueue,
      );
      accounts.set(config.accessKey, account);
      if (fresh && options.demo) await seedDemo(account.store, Date.now());
      if (options.demo && tools) seedDemoMedia(account, options.dataDir, tools, logError, demoStop.signal);
      account.transcoder.reschedule();
    }
  } catch (error) {
    await closeAccounts(accounts);
    throw error;
  }

  let port = 0;
  const originFor = (req: IncomingMessage): Origin => {
    if (!WILDCARD_HOSTS.has(host)) return makeOrigin(host, port);
    // Bound to every interface: answer with the address the client used, if it is a plain host.
    const hostHeader = req.headers.host ?? '';
    const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::\d+)?$/.exec(hostHeader);
    return makeOrigin(m ? m[1].replace(/^\[|\]$/g, '') : '127.0.0.1', port);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    let action = '-';
    let code: number = Codes.exception;
    try {
      // An absolute-form request line (through a proxy) is routed by its path.
      let url: URL;
      try {
        // An origin-form target is read as a path even when it starts with `//` (a base address
        // given with a trailing slash: `http://host:port/` + `/rest`), never as a host name.
        const target = req.url ?? '/';
        url = target.startsWith('/') ? new URL(`http://local.invalid${target}`) : new URL(target);
      } catch {
        url = new URL('http://local.invalid/unreadable');
      }
      // Repeated slashes are one, as web servers in front of the real service treat them.
      const path = url.pathname.replace(/\/{2,}/g, '/');
      if (await media.handle(req, res, path)) {
        action = path.startsWith('/multipart/') ? 'upload' : 'media';
        code = Codes.success;
        return;
      }
      if (path !== '/rest' && path !== '/rest/') {
        code = Codes.apiNotExists;
        req.resume();
        send(
          res,
          404,
          failure(new PlatformFault(Codes.apiNotExists, `only /rest is served (got ${path.slice(0, 100)})`)),
        );
        return;
      }
      if (req.method !== 'GET' && req.method !== 'POST') {
        code = Codes.parameterInvalid;
        req.resume();
        res.setHeader('Allow', 'GET, POST');
        send(
          res,
          405,
          failure(new PlatformFault(Codes.parameterInvalid, `method must be GET or POST (got ${req.method ?? '?'})`)),
        );
        return;
      }
      const queryAction = url.searchParams.get('action') ?? '';
      const jsonAction = (ACTIONS as Record<string, { jsonBody?: boolean }>)[queryAction]?.jsonBody === true;
      const body = await readBody(req, maxBody);
      const parsed = parseRequest(url, req.headers['content-type'], body, jsonAction);
      action = parsed.params.action ?? '-';
      const now = Date.now();
      const account = authenticate(parsed.params, accounts, windowMs, now);
      const handler = handlerFor(parsed.params.action);
      if (!handler)
        throw new PlatformFault(
          Codes.apiNotExists,
          `action ${parsed.params.action.slice(0, 100)} is not an operation of this platform`,
        );
      const jsonBody = ACTIONS[parsed.params.action as ActionName] as { jsonBody?: boolean };
      const outcome: ActionOutcome = await handler({
        params: new Fields(parsed.params),
        body: jsonBody.jsonBody ? parsed.json : undefined,
        account,
        view: { store: account.store, userId: account.userId, origin: originFor(req) },
        now,
      });
      // Never answer with data that is not yet on disk.
      await account.store.durable();
      code = Codes.success;
      const envelope: Envelope = { code: 0, message: 'success', result: outcome.result, success: true };
      if (outcome.count !== undefined) envelope.count = outcome.count;
      send(res, 200, envelope);
    } catch (error) {
      if (error instanceof PlatformFault) {
        code = error.code;
        send(res, 200, failure(error), error instanceof BodyTooLarge && error.unread);
      } else {
        code = Codes.exception;
        logError(error);
        send(res, 200, failure(new PlatformFault(Codes.exception)));
      }
    } finally {
      // The action name comes from the request: keep it to one short, printable word in logs.
      const logged = action.slice(0, 64).replace(/[^\w-]/g, '?') || '-';
      options.onRequest?.({ action: logged, code, durationMs: performance.now() - started });
    }
  };

  const media = mediaRouter(engine, options.dataDir, accounts);
  // Requests being handled: close() lets them finish (their writes included) before closing the stores.
  const inflight = new Set<Promise<void>>();
  // GET operations carry everything in the query (up to 1000 ids in `ids`), and clients in use put
  // POST parameters there too, JSON text included: room for a long request line.
  const server = createServer(
    { keepAliveTimeout: 5_000, requestTimeout: 60_000, headersTimeout: 30_000, maxHeaderSize: MAX_HEADER_BYTES },
    (req, res) => {
      const done = handle(req, res);
      inflight.add(done);
      void done.finally(() => inflight.delete(done));
    },
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    if (error.code === 'HPE_HEADER_OVERFLOW') {
      // Refused like an oversized body: the envelope, so the client reads why.
      const body = JSON.stringify(
        failure(
          new PlatformFault(
            Codes.bodyTooLarge,
            `the request line and headers are larger than the limit of ${MAX_HEADER_BYTES} bytes`,
          ),
        ),
      );
      socket.end(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json;charset=UTF-8\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      return;
    }
    // Not HTTP this server can read (often a query with raw spaces or non-ASCII bytes): an HTTP
    // error, with the envelope saying why.
    const hint =
      error.code === 'HPE_INVALID_URL' || error.code === 'HPE_INVALID_CONSTANT'
        ? '; percent-encode spaces and non-ASCII characters in the address'
        : '';
    const body = JSON.stringify(
      failure(
        new PlatformFault(
          Codes.parameterInvalid,
          `the HTTP request cannot be read (${String(error.code ?? 'parse error').slice(0, 40)})${hint}`,
        ),
      ),
    );
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json;charset=UTF-8\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
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
    await closeAccounts(accounts);
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
    close(): Promise<void> {
      closing ??= (async () => {
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
