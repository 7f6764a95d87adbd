/**
 * The non-/rest requests of the local platform: media files (routes.ts) and uploads (upload.ts).
 * server.ts offers every request here first; what is not ours goes on to `/rest`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { accountDir } from '../accounts';
import type { Account } from '../context';
import type { MediaEngine } from './engine';
import { isMediaPath, serveMedia } from './routes';
import { handleUpload, UPLOAD_PATH } from './upload';

export interface MediaRouter {
  /** Answers the request and returns true when the path is a media or upload path. */
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean>;
}

export function mediaRouter(engine: MediaEngine, dataDir: string, accounts: Map<string, Account>): MediaRouter {
  const ctx = {
    get accounts() {
      return [...accounts.values()].map((account) => ({ account, dir: accountDir(dataDir, account.accessKey) }));
    },
  };
  return {
    async handle(req, res, path) {
      if (isMediaPath(path)) {
        await serveMedia(ctx, req, res, path);
        return true;
      }
      if (path === UPLOAD_PATH || path === `${UPLOAD_PATH}/`) {
        await handleUpload(engine, ctx.accounts, req, res);
        return true;
      }
      return false;
    },
  };
}
