/**
 * The parts of node-media-server (pinned 4.4.3) this platform uses: its RTMP session and broadcast
 * core (handshake, publish/play, GOP cache) and its HTTP-FLV session. Its own listeners, store, web
 * console, relay and recorder are not used: the platform owns the sockets (so a busy port is an error
 * it reports rather than the library's `process.exit`), and nothing is written to its JSON store.
 * Its logger is a module-wide console logger that the library's constructor would set to debug: it is
 * kept at errors only, and its lines go to the platform's log.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** One FLV tag as the library parses it (core/avpacket.js): `codec_type` 8 audio, 9 video; `flags` see flv.js. */
export interface NmsPacket {
  codec_id: number;
  codec_type: number;
  flags: number;
  dts: number;
  size: number;
  data: Buffer;
}

export interface NmsSession {
  id: string;
  ip: string;
  streamApp: string;
  streamName: string;
  streamPath: string;
  streamQuery: Record<string, string | string[] | undefined>;
  isPublisher: boolean;
  videoWidth: number;
  videoHeight: number;
  videoFramerate: number;
  videoDatarate: number;
  audioDatarate: number;
  audioCodec: number;
  inBytes: number;
  socket: Socket;
  rtmp: { onPushCallback: () => void; onPlayCallback: () => void; onPacketCallback: (packet: NmsPacket) => void };
  broadcast: { publishGraceMs: number; subscribers: Map<string, NmsSession> };
  run(): void;
  close(): void;
}

interface NmsLogger {
  level: string;
  log(message: string, level?: string): void;
}

interface NmsContext {
  config: Record<string, unknown>;
  sessions: Map<string, unknown>;
}

export interface NmsCore {
  newRtmpSession(socket: Socket): NmsSession;
  newFlvSession(req: IncomingMessage, res: ServerResponse, app: string, name: string): NmsSession;
}

let core: NmsCore | undefined;
let logSink: ((line: string) => void) | undefined;

/** Loads the library once per process (its state is module-wide); `onLog` receives its error lines. */
export function nmsCore(onLog: (line: string) => void): NmsCore {
  logSink = onLog;
  if (core) return core;
  const logger = require('node-media-server/src/core/logger.js') as NmsLogger;
  const context = require('node-media-server/src/core/context.js') as NmsContext;
  const RtmpSession = require('node-media-server/src/session/rtmp_session.js') as new (s: Socket) => NmsSession;
  const FlvSession = require('node-media-server/src/session/flv_session.js') as new (
    req: unknown,
    res: ServerResponse,
  ) => NmsSession;
  logger.level = 'error';
  logger.log = (message: string, level = 'info') => {
    if (level === 'error') logSink?.(message);
  };
  // No auth, record, relay or notify sections: the platform checks publishes itself.
  context.config = {};
  core = {
    newRtmpSession(socket) {
      const session = new RtmpSession(socket);
      context.sessions.set(session.id, session);
      return session;
    },
    newFlvSession(req, res, app, name) {
      // The library expects an Express request; it reads these fields only.
      const session = new FlvSession(Object.assign(req, { params: { app, name }, query: {}, hostname: '' }), res);
      context.sessions.set(session.id, session);
      return session;
    },
  };
  return core;
}
