/**
 * The RTMP ingest and egress of the local platform: one TCP port (1935 where free, else a free one)
 * serving node-media-server's RTMP sessions. Every publish goes through `authorize` first: a refused
 * one is logged and its connection closed before it reaches the broadcast, so it never takes the
 * stream name. Plays are open, as on the service.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { nmsCore, type NmsSession } from './nms';

/** The application name of every stream: `rtmp://HOST:PORT/live/<stream>`. */
export const RTMP_APP = 'live';
export const DEFAULT_RTMP_PORT = 1935;

export interface PublishInfo {
  stream: string;
  query: Record<string, string>;
  ip: string;
}

export interface RtmpServerEvents {
  /** Answers whether this publish may start; a text is the reason it may not (logged). */
  authorize(publish: PublishInfo): true | string;
  /** A publish started (after `authorize` allowed it). */
  published(stream: string, session: NmsSession): void;
  /** A publisher's connection closed. */
  unpublished(stream: string, session: NmsSession): void;
  log(line: string): void;
}

function firstValues(query: NmsSession['streamQuery']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query ?? {})) {
    if (typeof v === 'string') out[k] = v;
    else if (Array.isArray(v) && typeof v[0] === 'string') out[k] = v[0];
  }
  return out;
}

export class RtmpServer {
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;
  port = 0;

  private constructor(private readonly events: RtmpServerEvents) {
    const core = nmsCore((line) => events.log(`rtmp: ${line}`));
    this.server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.setNoDelay(true);
      const session = core.newRtmpSession(socket);
      session.run();
      const push = session.rtmp.onPushCallback;
      session.rtmp.onPushCallback = () => {
        const info = { stream: session.streamName, query: firstValues(session.streamQuery), ip: session.ip };
        const verdict = session.streamApp === RTMP_APP ? events.authorize(info) : `application must be ${RTMP_APP}`;
        if (verdict !== true) {
          events.log(`rtmp: publish of ${session.streamPath.slice(0, 80)} from ${session.ip} refused: ${verdict}`);
          socket.destroy();
          return;
        }
        push();
        if (!session.isPublisher) return;
        // The library keeps a closed publisher's stream 30 s for it to resume; here a gone source is
        // reported at once and a reconnect is a new publish.
        session.broadcast.publishGraceMs = 0;
        socket.once('close', () => events.unpublished(info.stream, session));
        events.published(info.stream, session);
      };
    });
  }

  /** Listens on `preferred` (a busy port is an error) or, when `preferred` is undefined, 1935 or a free port. */
  static async start(host: string, preferred: number | undefined, events: RtmpServerEvents): Promise<RtmpServer> {
    const server = new RtmpServer(events);
    const tries = preferred !== undefined ? [preferred] : [DEFAULT_RTMP_PORT, 0];
    for (const [i, port] of tries.entries()) {
      try {
        await new Promise<void>((resolve, reject) => {
          server.server.once('error', reject);
          server.server.listen(port, host, () => {
            server.server.off('error', reject);
            resolve();
          });
        });
        const address = server.server.address();
        server.port = typeof address === 'object' && address ? address.port : port;
        return server;
      } catch (error) {
        if (i === tries.length - 1) throw error;
      }
    }
    throw new Error('unreachable');
  }

  /** HTTP-FLV play of a stream (the platform's HTTP port, `/live/<stream>.flv`). */
  playFlv(req: IncomingMessage, res: ServerResponse, stream: string): void {
    const core = nmsCore((line) => this.events.log(`flv: ${line}`));
    res.writeHead(200, {
      'Content-Type': 'video/x-flv',
      'Cache-Control': 'no-cache',
      'Access-Control-Allow-Origin': '*',
    });
    core.newFlvSession(req, res, RTMP_APP, stream).run();
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
