/**
 * One process (and one platform in it) per account folder: two writers appending to one journal
 * would interleave. The lock is a `lock` file holding the owner's pid (and, where the system shows
 * it, the owner's start time); a lock left by a process that no longer runs (after kill -9) is
 * taken over, also when its pid has since been reused by another process (pids wrap around).
 *
 * Only an exclusive create (`wx`) makes a process the owner, so two processes can never both
 * create the lock. Removing a stale lock is the racy step (two processes may both find it stale):
 * it is done only while holding `lock.takeover` (itself taken by exclusive create), after reading
 * the lock again and finding the same dead owner. The loser of a race then finds the winner's lock
 * and is refused.
 */
import { readFileSync } from 'node:fs';
import { open, readFile, rm, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { FILE_MODE } from './permissions';

const heldHere = new Set<string>();

/** How long a start waits for another process's takeover of a stale lock to finish. */
const TAKEOVER_WAIT_MS = 3000;

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

/** Creates `file` holding this process's id; false when it exists already. */
async function createExclusive(file: string): Promise<boolean> {
  try {
    const fh = await open(file, 'wx', FILE_MODE);
    try {
      await fh.writeFile(lockText());
    } finally {
      await fh.close();
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

const readText = (file: string): Promise<string | undefined> => readFile(file, 'utf8').catch(() => undefined);

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Removes the lock if it still holds `stale` (a dead owner), under the takeover lock. Returns false
 * when another process is taking over right now (the caller looks again shortly).
 */
async function removeStale(file: string, stale: string): Promise<boolean> {
  const guard = `${file}.takeover`;
  if (!(await createExclusive(guard))) {
    const taker = await readText(guard);
    // A takeover left by a process that died during it: clear it and look again.
    if (taker !== undefined && taker !== '' && !ownerAlive(taker).alive) await rm(guard, { force: true });
    return false;
  }
  try {
    if ((await readText(file)) === stale) await unlink(file).catch(() => undefined);
    return true;
  } finally {
    await rm(guard, { force: true });
  }
}

/** Takes the folder's lock; resolves with the function that releases it. */
export async function lockDir(dir: string): Promise<() => Promise<void>> {
  const key = resolve(dir);
  if (heldHere.has(key)) throw new Error(`the data folder ${dir} is already open in this process`);
  const file = join(dir, 'lock');
  const deadline = Date.now() + TAKEOVER_WAIT_MS;
  for (;;) {
    if (await createExclusive(file)) break;
    const text = await readText(file);
    if (text === undefined) continue; // removed meanwhile: try to create it again
    const owner = ownerAlive(text);
    // An empty lock is one being written right now (create, then write): its owner is alive.
    if (owner.alive || (text === '' && Date.now() < deadline)) {
      if (text === '') {
        await sleep(10);
        continue;
      }
      throw new Error(`the data folder ${dir} is in use by another local platform (process ${owner.pid})`);
    }
    if (!(await removeStale(file, text))) {
      if (Date.now() > deadline) throw new Error(`the data folder ${dir}: its stale lock could not be taken over`);
      await sleep(10);
    }
  }
  heldHere.add(key);
  return async () => {
    heldHere.delete(key);
    await rm(file, { force: true });
  };
}
