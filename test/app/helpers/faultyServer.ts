import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A misbehaving loopback server in front of the local platform: requests for the actions in
 * `hang` are held open and never answered; `failNext` answers the next n requests with HTTP 502;
 * everything else is forwarded (the signature does not cover the host, so it stays valid), unchanged unless
 * `rewrite` is set: then an answer's body for the actions it names is the text it returns (as a real platform
 * may answer differently from the local one).
 */
export interface FaultyServer {
  readonly baseUrl: string;
  readonly hang: Set<string>;
  failNext: number;
  /** Actions seen, in order. */
  readonly seen: string[];
  /** Rewrites the upstream answer's text for an action; undefined forwards it unchanged. */
  rewrite?: (action: string, text: string) => string | undefined;
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
  const hooks: Pick<FaultyServer, 'rewrite'> = {};
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
      const headers = { ...req.headers, host: upstream.host };
      if (hooks.rewrite) delete headers['accept-encoding'];
      const forward = request(upstream, { method: req.method, headers }, (answer) => {
        if (!hooks.rewrite) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const rewrite = hooks.rewrite;
        const parts: Buffer[] = [];
        answer.on('data', (part: Buffer) => parts.push(part));
        answer.on('end', () => {
          const upstreamText = Buffer.concat(parts).toString('utf8');
          const text = rewrite(action, upstreamText) ?? upstreamText;
          res.writeHead(answer.statusCode ?? 502, {
            'content-type': answer.headers['content-type'] ?? 'application/json',
            'content-length': Buffer.byteLength(text),
          });
          res.end(text);
        });
      });
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
    get rewrite() {
      return hooks.rewrite;
    },
    set rewrite(value) {
      hooks.rewrite = value;
    },
    async close() {
      for (const res of held) res.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
