/**
 * The non-/rest routes of the local platform: media files (routes.ts) and uploads (upload.ts).
 * server.ts puts them in its route table, after the Host and Origin checks of every request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Codes } from '../../api/errorCodes';
import { accountDir } from '../accounts';
import type { Account } from '../actions/context';
import type { FaultHook } from '../faults/board';
import type { Served } from '../faults/match';
import type { MediaEngine } from './engine';
import { isMediaPath, serveMedia } from './routes';
import type { Origin } from '../http/addresses';
import { handleUpload, UPLOAD_PATH } from './upload';

export interface MediaRoutes {
  isUploadPath(path: string): boolean;
  isMediaPath(path: string): boolean;
  /** Answers an upload; resolves to the result code it was answered with (for the log). */
  upload(req: IncomingMessage, res: ServerResponse, origin: Origin): Promise<number>;
  /** Answers a media file request (GET, HEAD, OPTIONS); resolves to the code for the log. */
  serve(req: IncomingMessage, res: ServerResponse, path: string): Promise<number>;
}

/**
 * What a stream fault needs to know of an on-demand HLS answer (`/vod/<videoId>/[<job>/]<base>.m3u8`,
 * `<base>-segNNN.ts`, `<base>.key`: media/jobs.ts): the account and video, which file, its rendition and segment number.
 */
function servedOf(accounts: Iterable<Account>, path: string): { owner: Account; served: Served } | undefined {
  const m =
    /^\/vod\/([0-9a-f]{32})\/((?:[A-Za-z0-9_-]{1,64}\/)?[A-Za-z0-9_.-]+?)(?:-seg(\d{1,6}))?\.(m3u8|ts|key)$/.exec(path);
  if (!m) return undefined;
  for (const owner of accounts) {
    const video = owner.store.get('videos', m[1]);
    if (!video) continue;
    const withHls = video.streams.filter((s) => s.hlsPath);
    const at = withHls.findIndex((s) => s.hlsPath?.endsWith(`/${m[2]}.m3u8`));
    const s = withHls[at];
    const variant = s && {
      index: at + 1,
      width: s.videoWidth,
      height: s.videoHeight,
      videoBitrate: s.videoBitrate,
      name: s.name,
    };
    const file = m[4] === 'm3u8' ? 'playlist' : m[4] === 'key' ? 'key' : 'segment';
    if (file === 'segment' && m[3] === undefined) return undefined;
    const n = m[3] === undefined ? undefined : Number(m[3]);
    const item = { kind: 'video' as const, id: video.id, name: video.title };
    return { owner, served: { item, file, path, variant, sequence: n, segmentIndex: n } };
  }
  return undefined;
}

export function mediaRoutes(
  engine: MediaEngine,
  dataDir: string,
  accounts: Map<string, Account>,
  faults?: FaultHook,
): MediaRoutes {
  const ctx = {
    get accounts() {
      return [...accounts.values()].map((account) => ({ account, dir: accountDir(dataDir, account.accessKey) }));
    },
  };
  return {
    isUploadPath: (path) => path === UPLOAD_PATH || path === `${UPLOAD_PATH}/`,
    isMediaPath,
    upload: (req, res, origin) => handleUpload(engine, ctx.accounts, req, res, origin),
    async serve(req, res, path) {
      // Stream faults (src/localPlatform/faults/) see an HLS answer first when a profile names its video.
      const hit = faults && servedOf(accounts.values(), path);
      if (faults && hit) {
        await faults.serve(req, res, hit.owner.store, hit.served, (out) => serveMedia(ctx, req, out, path));
        return res.statusCode < 400 ? Codes.success : Codes.apiNotExists;
      }
      await serveMedia(ctx, req, res, path);
      // Files answer with HTTP statuses (404, 416), not envelopes.
      return res.statusCode < 400 ? Codes.success : Codes.apiNotExists;
    },
  };
}
