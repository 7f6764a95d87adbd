/**
 * The browser player: `/player?src=<HLS address>` answers a page that plays the address with hls.js (live
 * included), and `/player/hls.js` the hls.js browser build from the installed npm package (no CDN). The
 * extension's Open Player in Browser opens this page (README "Inspecting and previewing").
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Codes } from '../../api/errorCodes';
import { hlsJsFile, playerPageHtml } from '../../inspector/html';
import { HttpFault } from './answer';
import type { Incoming } from './normalise';

export const PLAYER_PATH = '/player';
export const PLAYER_SCRIPT_PATH = '/player/hls.js';

let script: Promise<Buffer> | undefined;

/**
 * hls.js's browser build: scripts/build.mjs copies it into dist/, beside dist/localPlatform.js (npm run platform) and
 * one folder above dist/lazy/localPlatform.js (the platform the installed extension starts, which has no
 * node_modules); from the sources, the installed package.
 */
async function readScript(): Promise<Buffer> {
  for (const file of [join(__dirname, 'hls.min.js'), join(__dirname, '..', 'hls.min.js')]) {
    try {
      return await readFile(file);
    } catch {
      // not there: the next place
    }
  }
  return readFile(hlsJsFile());
}

function answer(res: ServerResponse, type: string, body: Buffer | string, head: boolean): void {
  res.writeHead(200, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  });
  res.end(head ? undefined : body);
}

export function isPlayerPath(path: string): boolean {
  return path === PLAYER_PATH || path === PLAYER_SCRIPT_PATH;
}

export async function servePlayer(_req: IncomingMessage, res: ServerResponse, incoming: Incoming): Promise<void> {
  if (incoming.method !== 'GET' && incoming.method !== 'HEAD') {
    throw new HttpFault(405, Codes.parameterInvalid, `method must be GET or HEAD (got ${incoming.method || '?'})`, {
      Allow: 'GET, HEAD',
    });
  }
  const head = incoming.method === 'HEAD';
  if (incoming.path === PLAYER_SCRIPT_PATH) {
    script ??= readScript();
    script.catch(() => (script = undefined));
    answer(res, 'text/javascript; charset=utf-8', await script, head);
    return;
  }
  const src = incoming.url.searchParams.get('src') ?? '';
  let page: string;
  try {
    page = playerPageHtml(src, { scriptPath: PLAYER_SCRIPT_PATH });
  } catch (error) {
    const why = error instanceof TypeError ? 'is not an address' : (error as Error).message;
    throw new HttpFault(
      400,
      Codes.parameterInvalid,
      `src: the stream to play ${why} (an http:// or https:// HLS address)`,
    );
  }
  answer(res, 'text/html; charset=utf-8', page, head);
}
