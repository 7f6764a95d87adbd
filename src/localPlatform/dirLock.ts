/**
 * One process (and one platform in it) per account folder: two writers appending to one journal
 * would interleave. The lock is a `lock` file holding the owner's pid; a lock left by a process
 * that no longer runs (after kill -9) is taken over.
 */
import { open, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const heldHere = new Set<string>();

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the folder's lock; resolves with the function that releases it. */
export async function lockDir(dir: string): Promise<() => Promise<void>> {
  const key = resolve(dir);
  if (heldHere.has(key)) throw new Error(`the data folder ${dir} is already open in this process`);
  const file = join(dir, 'lock');
  try {
    const fh = await open(file, 'wx');
    await fh.writeFile(String(process.pid));
    await fh.close();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const owner = Number((await readFile(file, 'utf8').catch(() => '')).trim());
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && running(owner)) {
      throw new Error(`the data folder ${dir} is in use by another local platform (process ${owner})`);
    }
    await writeFile(file, String(process.pid));
  }
  heldHere.add(key);
  return async () => {
    heldHere.delete(key);
    await rm(file, { force: true });
  };
}
