/**
 * One process (and one platform in it) per account folder: two writers appending to one journal
 * would interleave. The lock is a `lock` file holding the owner's pid (and, where the system shows
 * it, the owner's start time); a lock left by a process that no longer runs (after kill -9) is
 * taken over, also when its pid has since been reused by another process (pids wrap around).
 */
import { readFileSync } from 'node:fs';
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

/** The start time of a process (clock ticks since boot) where /proc shows it; undefined elsewhere. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses); field 22 is the start time.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = fields[19];
    return start && /^\d+$/.test(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

function lockText(): string {
  const start = processStartTime(process.pid);
  return start ? `${process.pid} ${start}` : String(process.pid);
}

/** True when the lock's owner is a process that still runs (the same one, not a later one with its pid). */
function ownerAlive(text: string): { pid: number; alive: boolean } {
  const [pidText, start] = text.trim().split(/\s+/);
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || !running(pid)) return { pid, alive: false };
  if (start !== undefined) {
    const now = processStartTime(pid);
    if (now !== undefined && now !== start) return { pid, alive: false };
  }
  return { pid, alive: true };
}

/** Takes the folder's lock; resolves with the function that releases it. */
export async function lockDir(dir: string): Promise<() => Promise<void>> {
  const key = resolve(dir);
  if (heldHere.has(key)) throw new Error(`the data folder ${dir} is already open in this process`);
  const file = join(dir, 'lock');
  try {
    const fh = await open(file, 'wx');
    await fh.writeFile(lockText());
    await fh.close();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const owner = ownerAlive(await readFile(file, 'utf8').catch(() => ''));
    if (owner.alive)
      throw new Error(`the data folder ${dir} is in use by another local platform (process ${owner.pid})`);
    await writeFile(file, lockText());
  }
  heldHere.add(key);
  return async () => {
    heldHere.delete(key);
    await rm(file, { force: true });
  };
}
