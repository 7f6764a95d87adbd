/**
 * The data folder holds channel auth codes and push addresses: it and everything in it are the
 * owner's only (0700 folders, 0600 files), also when an older version left them readable by all.
 * On systems without POSIX modes (Windows) the calls change nothing.
 */
import { chmod, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

function ignoreGone(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}

/** Sets `dir` to 0700 and the files directly in it to 0600. */
export async function restrictFolder(dir: string): Promise<void> {
  await chmod(dir, DIR_MODE);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    // A file gone meanwhile (a temporary one) needs nothing.
    if (entry.isFile()) await chmod(join(dir, entry.name), FILE_MODE).catch(ignoreGone);
  }
}
