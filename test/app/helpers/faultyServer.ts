import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A misbehaving loopback server in front of the local platform: requests for the actions in
 * `hang` are held open and never answered; `failNext` answers the next n requests with HTTP 502;
 * everything else is forwarded unchanged (the signature does not cover the host, so it stays valid).
 */
export interface FaultyServer {
  readonly baseUrl: string;
  readonly hang: Set<string>;
  failNext: number;
  /** Actions seen, in order. */
  readonly seen: string[];
  close(): Promise<void>;
}

function actionOf(req: IncomingMessage, body: Buffer): string {
  const url = new URL(req.url ?? '/', 'http://x');
  return url.searchParams.get('action') ?? new URLSearchParams(body.toString('utf8')).get('action') ?? '';
}

export async function startFaultyServer(target: string | undefined): Promise<FaultyServer> {
  const sockets = new Set<Socket>();
  const held: ServerResponse[] = [];
  const state: { failNext: number } = { failNext: 0 };
  const hang = new Set<string>();
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const action = actionOf(req, body);
      seen.push(action);
      if (!target || hang.has(action) || hang.has('*')) {
        held.push(res);
        return;
      }
      if (state.failNext > 0) {
        state.failNext--;
        res.writeHead(502, { 'Content-Type': 'text/plain' }).end('bad gateway');
        return;
      }
      const upstream = new URL(req.url ?? '/', target);
      const forward = request(
        upstream,
        { method: req.method, headers: { ...req.headers, host: upstream.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    hang,
    seen,
    get failNext() {
      return state.failNext;
    },
    set failNext(value: number) {
      state.failNext = value;
    },
    async close() {
      for (const res of held) res.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
