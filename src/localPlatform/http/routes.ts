/**
 * The routes: `/rest` the REST interface, `/multipart/upload` the upload (media/upload.ts), `/vod/...` and
 * `/logo/...` the media files (media/routes.ts), `/live/...` a live channel's files when real live media runs
 * (live/router.ts), `/player` the browser player (player.ts), `/_local/health/channel` a channel's health (health.ts). Every route gets the same pipeline before it
 * (normalise) and after it (the answer to a refusal, the request log: server.ts). A new route is one more entry.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Codes } from '../../api/errorCodes';
import type { LiveMedia } from '../live/liveMedia';
import { serveLive } from '../live/router';
import type { MediaRoutes } from '../media/router';
import type { Origin } from './addresses';
import type { Incoming } from './normalise';
import { isPlayerPath, servePlayer } from './player';

/** What a request's log entry says: its action and the code it was answered with. */
export interface Exchange {
  action: string;
  code: number;
  /** False when nobody was answered (the client went away). */
  answered: boolean;
}

/** Nothing returned: answered at once (a kept answer, routes.ts's callers need not wait); else when it settles. */
export type Route = (
  req: IncomingMessage,
  res: ServerResponse,
  incoming: Incoming,
  exchange: Exchange,
) => Promise<void> | void;

/** `anyOrigin`: pages of every origin may read it (GET, HEAD, OPTIONS), as from a CDN. */
export interface RouteEntry {
  path: (path: string) => boolean;
  serve: Route;
  anyOrigin?: boolean;
}

/** `originOf`: the address builder's origin for the host name the client used (the same for /rest and uploads). */
export function routeTable(
  rest: Route,
  media: MediaRoutes,
  live: LiveMedia | undefined,
  originOf: (hostName: string | undefined) => Origin,
  /** Stream faults on live answers (faults/), and the routes of other rooms (the faults' admin route). */
  liveFaults?: Parameters<typeof serveLive>[4],
  extra: RouteEntry[] = [],
): RouteEntry[] {
  return [
    { path: (path) => path === '/rest' || path === '/rest/', serve: rest },
    // The upload (facts section 6) on the same origin as /rest, and the media files the platform lists.
    {
      path: media.isUploadPath,
      serve: async (req, res, incoming, exchange) => {
        exchange.action = 'upload';
        exchange.code = await media.upload(req, res, originOf(incoming.hostName));
      },
    },
    {
      path: media.isMediaPath,
      anyOrigin: true,
      serve: async (req, res, incoming, exchange) => {
        exchange.action = 'media';
        exchange.code = await media.serve(req, res, incoming.path);
      },
    },
    // Real live media: HLS, HTTP-FLV and thumbnails (live/router.ts); simulated media has no files.
    {
      path: (path) => live !== undefined && path.startsWith('/live/'),
      anyOrigin: true,
      serve: async (req, res, incoming, exchange) => {
        exchange.action = 'live-file';
        if (live) await serveLive(live, req, res, incoming.path, liveFaults);
        exchange.code = Codes.success;
      },
    },
    // The browser player of Open Player in Browser (player.ts).
    { path: isPlayerPath, serve: servePlayer },
    ...extra,
  ];
}
