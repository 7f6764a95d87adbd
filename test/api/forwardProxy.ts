/**
 * A tiny forward HTTP proxy on 127.0.0.1 (free port) for proxy tests. It records every request it
 * receives and forwards absolute-form requests (`GET http://host:port/path HTTP/1.1`); anything
 * else (origin-form, CONNECT) is refused with 400/405 so a test notices, unless it is started with
 * `tunnel: true`, when CONNECT opens a plain TCP tunnel (for https:// platforms). Started with
 * `authorization`, it answers 407 to any request or CONNECT without exactly that Proxy-Authorization.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface ProxiedRequest {
  method: string;
  /** The request target as received: absolute-form for a forward proxy. */
  target: string;
  headers: IncomingHttpHeaders;
}

export class ForwardProxy {
  readonly seen: ProxiedRequest[] = [];
  /** Tunnelled sockets leave the HTTP server's books: closed by close() itself. */
  private readonly tunnels = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly port: number,
  ) {}

  /** `tls`: the proxy itself speaks HTTPS with this key and certificate (an https:// proxy). */
  static async start(
    options: { tunnel?: boolean; authorization?: string; tls?: { key: string; cert: string } } = {},
  ): Promise<ForwardProxy> {
    let instance: ForwardProxy | undefined;
    const refused = (headers: IncomingHttpHeaders): boolean =>
      options.authorization !== undefined && headers['proxy-authorization'] !== options.authorization;
    const forward = (req: IncomingMessage, res: ServerResponse): void => {
      const target = req.url ?? '';
      instance!.seen.push({ method: req.method ?? '', target, headers: req.headers });
      if (refused(req.headers)) {
        res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"', 'content-length': 0 }).end();
        return;
      }
      if (!/^https?:\/\//.test(target)) {
        res.writeHead(400).end('forward proxy: absolute-form request target expected');
        return;
      }
      const headers = { ...req.headers };
      delete headers['proxy-authorization'];
      delete headers['proxy-connection'];
      const upstream = httpRequest(target, { method: req.method, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.writeHead(502).end('forward proxy: upstream failed'));
      req.pipe(upstream);
    };
    const server: Server = options.tls ? createHttpsServer(options.tls, forward) : createServer(forward);
    server.on('connect', (req, socket: Socket, head: Buffer) => {
      instance!.seen.push({ method: 'CONNECT', target: req.url ?? '', headers: req.headers });
      if (refused(req.headers)) {
        socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n');
        return;
      }
      if (!options.tunnel) {
        socket.end('HTTP/1.1 405 Method Not Allowed\r\n\r\n');
        return;
      }
      instance!.tunnels.add(socket);
      socket.on('close', () => instance!.tunnels.delete(socket));
      const [host, port] = (req.url ?? '').split(':');
      const upstream = connect(Number(port), host!, () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
      upstream.on('close', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
      socket.on('close', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    instance = new ForwardProxy(server, `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`, port);
    return instance;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    for (const socket of this.tunnels) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
