/**
 * The HTTP server of the local platform: every request passes the same pipeline, normalise (normalise.ts)
 * then its route (routes.ts), and a refusal or failure of any step is answered by `answerError` with the
 * envelope; requests in flight finish (their writes included) before the server closes.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Codes } from '../../api/errorCodes';
import { HttpFault, sendFault, sendOnSocket } from './answer';
import { PlatformFault } from './faults';
import { HostNames, normalise } from './normalise';
import { BodyTooLarge, ClientGone } from './request';
import type { Exchange, RouteEntry } from './routes';

/** Largest request line plus headers (Node's default is 16 KiB). */
export const MAX_HEADER_BYTES = 256 * 1024;

/** The methods of a read: media files answer them to pages of any origin. */
const READS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface HttpOptions {
  routes: readonly RouteEntry[];
  allowedHosts: ReadonlySet<string>;
  /** The words of the 404 envelope: what is served. */
  served: string;
  idleTimeoutMs?: number;
  logError: (error: unknown) => void;
  onRequest?: (entry: { action: string; code: number; durationMs: number }) => void;
}

export interface HttpServer {
  readonly port: number;
  /** Stops taking requests, lets those in flight finish (at most 5 s), then closes every connection. */
  close(): Promise<void>;
}

/** The answer to a refusal or failure of any step. */
function answerError(
  req: IncomingMessage,
  res: ServerResponse,
  error: unknown,
  exchange: Exchange,
  logError: (error: unknown) => void,
): void {
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
}

/**
 * One request through the pipeline, logged when someone listens. A route that answered at once (a kept list
 * answer) returns nothing: then no promise is made for the request; otherwise the returned promise settles
 * once it is answered.
 */
function handler(options: HttpOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> | void {
  // Made once per server, not per request.
  const hosts = new HostNames(options.allowedHosts);
  const routeFor = (path: string) => options.routes.find((r) => r.path(path));
  const readableByAnyOrigin = (path: string, method: string): boolean =>
    READS.has(method) && routeFor(path)?.anyOrigin === true;
  const log = (exchange: Exchange, started: number): void => {
    if (exchange.answered && options.onRequest) {
      // The action name comes from the request: keep it to one short, printable word in logs.
      const logged = exchange.action.slice(0, 64).replace(/[^\w-]/g, '?') || '-';
      options.onRequest({ action: logged, code: exchange.code, durationMs: performance.now() - started });
    }
  };
  return (req, res) => {
    // The clock is read only for a request log.
    const started = options.onRequest ? performance.now() : 0;
    const exchange: Exchange = { action: '-', code: Codes.exception, answered: true };
    let pending: Promise<void> | void = undefined;
    try {
      const incoming = normalise(req, hosts, readableByAnyOrigin);
      const route = routeFor(incoming.path);
      if (!route) {
        throw new HttpFault(
          404,
          Codes.apiNotExists,
          `only ${options.served} are served (got ${incoming.path.slice(0, 100)})`,
        );
      }
      pending = route.serve(req, res, incoming, exchange);
    } catch (error) {
      answerError(req, res, error, exchange, options.logError);
    }
    if (!pending) {
      log(exchange, started);
      return;
    }
    return pending.then(
      () => log(exchange, started),
      (error: unknown) => {
        answerError(req, res, error, exchange, options.logError);
        log(exchange, started);
      },
    );
  };
}

/** A request with a body to read (RFC 9112 6.3: one with neither Content-Length nor Transfer-Encoding has none). */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** Requests Node cannot read as HTTP: answered with the envelope on the socket, so the client reads why. */
function answerClientError(error: NodeJS.ErrnoException, socket: import('node:stream').Duplex): void {
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
}

/** Listens on host:port (0: a free port) and serves every request through the pipeline. */
export async function listen(host: string, port: number, options: HttpOptions): Promise<HttpServer> {
  const handle = handler(options);
  // Requests being handled: close() lets them finish (their writes included) before closing the stores. A count
  // and one waiter, not a promise chained per request.
  let inflight = 0;
  let drained: (() => void) | undefined;
  const finished = (): void => {
    if (--inflight === 0) drained?.();
  };
  // A connection silent this long is destroyed (no 'timeout' listener on the server: Node destroys the socket):
  // from its start until its first request, and during each request not answered at once (below). Between
  // requests Node's keep-alive limit holds. Not `server.timeout`, which Node arms again for every request.
  const idleMs = options.idleTimeoutMs ?? 60_000;
  // GET operations carry everything in the query (up to 1000 ids in `ids`), and clients in use put
  // POST parameters there too, JSON text included: room for a long request line.
  const server = createServer(
    // No whole-request limit (requestTimeout 0): uploads may be long. Slow headers, slow /rest bodies and silent
    // connections have limits of their own (headersTimeout, bodyTimeoutMs, idleMs above).
    { keepAliveTimeout: 5_000, requestTimeout: 0, headersTimeout: 30_000, maxHeaderSize: MAX_HEADER_BYTES },
    (req, res) => {
      inflight++;
      const handled = handle(req, res);
      // Still answering, writing or reading a body: silence from here on is limited. Answered at once with every
      // byte handed to the system and no body to read, nothing is left to wait for: no timer is set (and then
      // refreshed on each read and write).
      if (handled || req.socket.writableLength > 0 || hasBody(req)) req.socket.setTimeout(idleMs);
      if (handled) void handled.finally(finished);
      else finished();
    },
  );
  server.on('connection', (socket: Socket) => socket.setTimeout(idleMs));
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await Promise.race([
        new Promise<void>((resolve) => {
          drained = resolve;
          if (inflight === 0) resolve();
        }),
        new Promise((resolve) => setTimeout(resolve, 5_000).unref()),
      ]);
      server.closeAllConnections();
      await closed;
    },
  };
}
