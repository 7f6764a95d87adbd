/**
 * System errors of the data folder in plain words: a full disk, a read-only folder, a folder this
 * user may not write. Used for the refusal of a write (the envelope) and for a start that fails.
 */
import { Codes } from '../../api/errorCodes';
import { PlatformFault } from '../http/faults';

const PLAIN: Readonly<Record<string, string>> = {
  ENOSPC: 'is full (ENOSPC): free some space on its disk',
  EDQUOT: 'is over its disk quota (EDQUOT): free some space',
  EROFS: 'is on a read-only file system (EROFS)',
  EACCES: 'is not writable by this user (EACCES): check its permissions',
  EPERM: 'is not writable by this user (EPERM): check its permissions',
};

/** "is full (ENOSPC) ..." for a known storage error code, undefined for anything else. */
export function plainStorageProblem(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined ? PLAIN[code] : undefined;
}

/** A failed write as the refusal a client reads: nothing was changed. */
export function storageFault(error: unknown): Error {
  if (error instanceof PlatformFault) return error;
  const problem = plainStorageProblem(error);
  if (problem === undefined) return error instanceof Error ? error : new Error(String(error));
  return new PlatformFault(
    Codes.storageUnavailable,
    `the change was not saved because the local platform's data folder ${problem}; nothing was changed, and reads still work`,
  );
}

/** A start that failed on the data folder, said plainly with the folder's name; other errors unchanged. */
export function startError(error: unknown, dataDir: string): Error {
  const problem = plainStorageProblem(error);
  if (problem === undefined) return error instanceof Error ? error : new Error(String(error));
  return new Error(`the data folder ${dataDir} ${problem}`);
}
