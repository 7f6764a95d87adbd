/**
 * The forward proxy a pull relay's ffmpeg reads http(s) and rtmps through (`http_proxy`): the one place where
 * a relay's host names are resolved. Each request (`GET http://host/...`) and each tunnel (`CONNECT host:443`,
 * for https and rtmps: TLS stays end to end, so the server's name and certificate are ffmpeg's to check) is
 * resolved here, every address checked against the platform's address policy (pullSource.ts), and the
 * connection made to the address checked: no second look-up, so a name whose answer changes after the check
 * reaches nothing new. ffmpeg follows a redirect with a new request, which comes through here and is checked in
 * turn, as are the playlists and segments of an HLS source. A refusal is answered 403 and logged with its reason.
 *
 * Written on node:http and node:net rather than taken from npm: the proxies there (`proxy`, `http-proxy`)
 * connect by host name themselves, and the point here is to connect only to the address that was checked.
 * Bounded: 127.0.0.1 only, at most MAX_CONNECTIONS client connections, IDLE_MS without a byte closes a
 * connection, and headers must arrive within HEADERS_MS.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, isIP, type LookupFunction, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { checkedAddresses, type AddressPolicy } from './pullSource';

const MAX_CONNECTIONS = 16;
const IDLE_MS = 30_000;
const HEADERS_MS = 10_000;

/** Headers of one hop only: not passed on (RFC 9110 section 7.6.1), nor the proxy's own. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export class SourceProxy {
  private readonly sockets = new Set<Duplex>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /** Starts a proxy on 127.0.0.1 (a free port); `log` is told every refusal (`refused <host>: <why>`). */
  static async start(policy: AddressPolicy, log: (line: string) => void): Promise<SourceProxy> {
    const server = createServer({ headersTimeout: HEADERS_MS, requestTimeout: 0 });
    server.maxConnections = MAX_CONNECTIONS;
    const port = await new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : 0);
      });
    });
    const proxy = new SourceProxy(server, `http://127.0.0.1:${port}`);
    server.on('connection', (socket: Socket) => proxy.track(socket));
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void proxy.forward(req, res, policy, log));
    server.on(
      'connect',
      (req: IncomingMessage, socket: Duplex, head: Buffer) => void proxy.tunnel(req, socket, head, policy, log),
    );
    return proxy;
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    (socket as Socket).setTimeout?.(IDLE_MS, () => socket.destroy());
  }

  /** A plain http request, `GET http://host[:port]/path` (absolute form). */
  private async forward(req: IncomingMessage, res: ServerResponse, policy: AddressPolicy, log: (line: string) => void) {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      return refuse(res, 400, 'the proxy reads absolute http:// addresses only');
    }
    if (target.protocol !== 'http:') return refuse(res, 400, 'the proxy reads absolute http:// addresses only');
    const port = Number(target.port || 80);
    const checked = await checkedAddresses(target.hostname, port, policy);
    if ('problem' in checked) {
      // The path without its query (which may carry a token).
      log(`refused http://${target.host}${target.pathname}, which ${checked.problem}`);
      return refuse(res, 403, `the platform refused ${target.host}, which ${checked.problem}`);
    }
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !HOP_HEADERS.has(name)) headers[name] = value;
    }
    headers.host = target.host;
    const upstream = request({
      // The connection is made to a checked address (createConnection), Host keeps the name.
      createConnection: () => connectChecked(target.hostname.replace(/^\[|\]$/g, ''), port, checked.addresses),
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers,
      setHost: false,
      timeout: IDLE_MS,
    });
    upstream.on('timeout', () => upstream.destroy(new Error('no answer')));
    upstream.on('error', (error) => {
      if (!res.headersSent) refuse(res, 502, `${target.host}: ${error.message}`);
      else res.destroy();
    });
    upstream.on('response', (answer) => {
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined && !HOP_HEADERS.has(name)) out[name] = value;
      }
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  }

  /** `CONNECT host:port`: a tunnel for TLS (https, rtmps) to the checked address. */
  private async tunnel(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    policy: AddressPolicy,
    log: (line: string) => void,
  ) {
    socket.on('error', () => socket.destroy());
    const m = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(req.url ?? '');
    if (!m) return socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    const [host, port] = [m[1].replace(/^\[|\]$/g, ''), Number(m[2])];
    const checked = await checkedAddresses(host, port, policy);
    if ('problem' in checked) {
      log(`refused ${m[1]}:${port}, which ${checked.problem}`);
      return socket.end(`HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    }
    const upstream = connectChecked(host, port, checked.addresses);
    this.track(upstream);
    upstream.on('error', () => {
      socket.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      upstream.destroy();
    });
    upstream.on('connect', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    socket.on('close', () => upstream.destroy());
    upstream.on('close', () => socket.destroy());
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * A `lookup` that answers the addresses already checked: the connection goes to one of them (the next one when
 * one fails, as a name's addresses are tried), never to a second answer of the resolver.
 */
function connectChecked(host: string, port: number, addresses: string[]): Socket {
  const all = addresses.map((address) => ({ address, family: isIP(address) }));
  const lookup = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all) callback(null, all);
    else callback(null, all[0].address, all[0].family);
  }) as unknown as LookupFunction;
  return connect({ host, port, lookup, autoSelectFamily: true });
}

function refuse(res: ServerResponse, status: number, why: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
  res.end(`${why}\n`);
}
