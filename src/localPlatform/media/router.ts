/**
 * The non-/rest routes of the local platform: media files (routes.ts) and uploads (upload.ts).
 * server.ts puts them in its route table, after the Host and Origin checks of every request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Codes } from '../../api/errorCodes';
import { accountDir } from '../accounts';
import type { Account } from '../actions/context';
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

export function mediaRoutes(engine: MediaEngine, dataDir: string, accounts: Map<string, Account>): MediaRoutes {
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
      await serveMedia(ctx, req, res, path);
      // Files answer with HTTP statuses (404, 416), not envelopes.
      return res.statusCode < 400 ? Codes.success : Codes.apiNotExists;
    },
  };
}
