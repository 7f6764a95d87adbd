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

/**
 * Bounds of the RTMP port: a connection must publish or play within `handshakeMs` (handshake,
 * connect, createStream, publish/play) and is closed after `idleMs` without a byte either way;
 * at most `perAddress` connections from one address and `total` in all (one more is closed at once).
 * The platform's own processes (relays, ladders, RTMP group outputs) connect from the loopback
 * address and count too: a few per started channel.
 */
export const RTMP_LIMITS = { handshakeMs: 10_000, idleMs: 30_000, perAddress: 64, total: 512 };

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
  private readonly perAddress = new Map<string, number>();
  private readonly server: Server;
  port = 0;

  private constructor(private readonly events: RtmpServerEvents) {
    const core = nmsCore((line) => events.log(`rtmp: ${line}`));
    this.server = createServer((socket) => {
      if (!this.admit(socket)) return;
      socket.setNoDelay(true);
      const session = core.newRtmpSession(socket);
      session.run();
      // Until it publishes or plays, a connection has `handshakeMs`; then `idleMs` of silence closes it.
      const handshake = setTimeout(() => socket.destroy(), RTMP_LIMITS.handshakeMs);
      handshake.unref();
      socket.once('close', () => clearTimeout(handshake));
      socket.setTimeout(RTMP_LIMITS.idleMs, () => socket.destroy());
      const play = session.rtmp.onPlayCallback;
      session.rtmp.onPlayCallback = () => {
        clearTimeout(handshake);
        play();
      };
      const push = session.rtmp.onPushCallback;
      session.rtmp.onPushCallback = () => {
        clearTimeout(handshake);
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

  /** Counts a new connection, or closes it when its address or the server has as many as allowed. */
  private admit(socket: Socket): boolean {
    const address = socket.remoteAddress ?? '';
    const fromAddress = this.perAddress.get(address) ?? 0;
    if (this.sockets.size >= RTMP_LIMITS.total || fromAddress >= RTMP_LIMITS.perAddress) {
      socket.destroy();
      return false;
    }
    this.sockets.add(socket);
    this.perAddress.set(address, fromAddress + 1);
    socket.on('error', () => undefined);
    socket.once('close', () => {
      this.sockets.delete(socket);
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left > 0) this.perAddress.set(address, left);
      else this.perAddress.delete(address);
    });
    return true;
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
