/**
 * A tiny platform stand-in for client tests: an HTTP server on 127.0.0.1 (free port) that records
 * every request (method, path, query, body, headers, arrival time) and answers whatever the test
 * sets in `respond` — a proper envelope, or misbehaviour (garbage, cut-off bodies, resets, silence).
 */
import { createHmac } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { stringToSign } from '../../src/api/signing';

export interface Captured {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Raw query string (after "?"). */
  rawQuery: string;
  /** Decoded query parameters. */
  query: Record<string, string>;
  /** Names in the order they appeared (to spot duplicates). */
  queryNames: string[];
  body: string;
  headers: IncomingHttpHeaders;
  /** performance.now() at arrival. */
  at: number;
}

export type Responder = (request: Captured, res: ServerResponse, req: IncomingMessage) => void;

export interface Envelope {
  code: number;
  message: string;
  success: boolean;
  result: unknown;
  count?: number;
}

export function ok(result: unknown, extra: Partial<Envelope> = {}): Envelope {
  return { code: 0, message: 'success', success: true, result, ...extra };
}

export function sendJson(res: ServerResponse, value: unknown, status = 200): void {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json;charset=UTF-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

export class CaptureServer {
  readonly requests: Captured[] = [];
  /** What to answer; the default is a success envelope with `result: null`. */
  respond: Responder = (_request, res) => sendJson(res, ok(null));

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(respond?: Responder): Promise<CaptureServer> {
    let instance: CaptureServer | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const target = req.url ?? '/';
        const q = target.indexOf('?');
        const rawQuery = q === -1 ? '' : target.slice(q + 1);
        const search = new URLSearchParams(rawQuery);
        const captured: Captured = {
          method: req.method ?? '',
          path: q === -1 ? target : target.slice(0, q),
          rawQuery,
          query: Object.fromEntries(search),
          queryNames: [...search.keys()],
          body: Buffer.concat(chunks).toString('utf8'),
          headers: req.headers,
          at: performance.now(),
        };
        instance!.requests.push(captured);
        instance!.respond(captured, res, req);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    instance = new CaptureServer(server, `http://127.0.0.1:${port}`);
    if (respond) instance.respond = respond;
    return instance;
  }

  get last(): Captured {
    const last = this.requests.at(-1);
    if (!last) throw new Error('the server received no request');
    return last;
  }

  async close(): Promise<void> {
    // Drop stalled connections (timeout tests) so close() does not wait for them.
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Recomputes the signature of a captured query independently and returns [expected, actual]. */
export function signatureOf(request: Captured, secretKey: string): { expected: string; actual: string | undefined } {
  const { signature, ...signed } = request.query;
  // createHmac, not the client's own signParams: an independent computation of the same HMAC.
  const expected = createHmac('sha256', secretKey).update(stringToSign(signed, secretKey), 'utf8').digest('hex');
  return { expected, actual: signature };
}
