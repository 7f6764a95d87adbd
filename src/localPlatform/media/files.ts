/**
 * Where an account's media lives below its data folder, and the one way a request path is turned
 * into a file: every segment checked against a short allow-list of characters, the result resolved
 * and kept inside the account's media folder, symbolic links refused.
 *
 *   <account>/media/<videoId>/source            the uploaded or generated source
 *   <account>/media/<videoId>/cover.jpg         cover and thumbnail (served)
 *   <account>/media/<videoId>/<task>/<files>    one transcoding run's renditions (served)
 *   <account>/media/logos/<uri>                 logo images (served as /logo/<uri>)
 *   <account>/media/work/<jobId>/               a run in progress (never served)
 */
import { statSync } from 'node:fs';
import { lstat, mkdir, realpath } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { Tx, type AccountStore } from '../store/store';

export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

export function mediaRoot(accountDir: string): string {
  return join(accountDir, 'media');
}

export function videoDir(accountDir: string, videoId: string): string {
  return join(mediaRoot(accountDir), videoId);
}

export function sourceFile(accountDir: string, videoId: string): string {
  return join(videoDir(accountDir, videoId), 'source');
}

export function workDir(accountDir: string, jobId: string): string {
  return join(mediaRoot(accountDir), 'work', jobId);
}

export function logoFile(accountDir: string, uri: string): string | undefined {
  const segments = uri.replace(/^\/+/, '').split('/');
  return safeSegments(segments) ? join(mediaRoot(accountDir), 'logos', ...segments) : undefined;
}

export async function makeDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: DIR_MODE });
}

/** A name a stored file can have: letters, digits, `.`, `_`, `-`; never starting with a dot. */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

function safeSegments(segments: string[]): boolean {
  return segments.length > 0 && segments.length <= 4 && segments.every((s) => SEGMENT.test(s) && !s.includes('..'));
}

/**
 * The file a served path names below `root`, or undefined when the path is not one the platform
 * could have written (a `..`, an encoded separator, a hidden file, a symbolic link, anything that
 * resolves outside `root`).
 */
export async function servedFile(root: string, segments: string[]): Promise<string | undefined> {
  if (!safeSegments(segments)) return undefined;
  const file = resolve(root, ...segments);
  if (!file.startsWith(resolve(root) + sep)) return undefined;
  try {
    const info = await lstat(file);
    if (!info.isFile()) return undefined;
    const real = await realpath(file);
    const realRoot = await realpath(root);
    return real.startsWith(realRoot + sep) ? real : undefined;
  } catch {
    return undefined;
  }
}

/** A regular file is at `file`. */
export function exists(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** cover.jpg and thumbnail.jpg of a video are written (not empty): what its record's `covers` says. */
export function coversOnDisk(accountDir: string, videoId: string): boolean {
  return ['cover.jpg', 'thumbnail.jpg'].every((name) => {
    try {
      const info = statSync(join(videoDir(accountDir, videoId), name));
      return info.isFile() && info.size > 0;
    } catch {
      return false;
    }
  });
}

/**
 * Videos stored by versions without the `covers` flag get it from the disk, once (AccountStore.open stores
 * the result): pictures were captured whenever real media ran, so only the files can tell.
 */
export function withCoverFlags(store: AccountStore, accountDir: string): Tx | undefined {
  const tx = new Tx();
  for (const video of store.values('videos')) {
    if (typeof (video as { covers?: unknown }).covers === 'boolean') continue;
    tx.put('videos', { ...video, covers: coversOnDisk(accountDir, video.id) });
  }
  return tx.mutations.length > 0 ? tx : undefined;
}
