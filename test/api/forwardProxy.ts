/**
 * A tiny forward HTTP proxy on 127.0.0.1 (free port) for proxy tests. It records every request it
 * receives and forwards absolute-form requests (`GET http://host:port/path HTTP/1.1`); anything
 * else (origin-form, CONNECT) is refused with 400/405 so a test notices.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  /** The request target as received: absolute-form for a forward proxy. */
  target: string;
  headers: IncomingHttpHeaders;
}

export class ForwardProxy {
  readonly seen: ProxiedRequest[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly port: number,
  ) {}

  static async start(): Promise<ForwardProxy> {
    let instance: ForwardProxy | undefined;
    const server = createServer((req, res) => {
      const target = req.url ?? '';
      instance!.seen.push({ method: req.method ?? '', target, headers: req.headers });
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
    });
    server.on('connect', (req, socket) => {
      instance!.seen.push({ method: 'CONNECT', target: req.url ?? '', headers: req.headers });
      socket.end('HTTP/1.1 405 Method Not Allowed\r\n\r\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    instance = new ForwardProxy(server, `http://127.0.0.1:${port}`, port);
    return instance;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
