/**
 * What the callbacks keep per account, beside its store in `DATA/accounts/<hash>/callbacks/` (folder 0700, files
 * 0600): `secret`, the signing secret (made once, kept across restarts, never logged, never in the delivery log),
 * `faults.json`, the receiver faults set (with what is left of `fail`), and `deliveries.jsonl`, the delivery log: one JSON record per attempt, the newest LOG_KEEP kept in memory; the
 * file is rewritten with those once it holds twice as many lines, so it stays bounded.
 */
import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DIR_MODE, FILE_MODE, restrictFolder } from '../store/permissions';
import type { DeliveryRecord } from './events';

export const LOG_KEEP = 500;

/** The account's signing secret: the stored one, or a new one stored now. */
export async function loadSecret(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true, mode: DIR_MODE });
  // mkdir leaves an existing folder's mode alone: one an older copy left readable is the owner's again.
  await restrictFolder(dir);
  const file = join(dir, 'secret');
  try {
    const text = (await readFile(file, 'utf8')).trim();
    if (/^[0-9a-f]{64}$/.test(text)) return text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(32).toString('hex');
  await writeFile(`${file}.tmp`, secret, { mode: FILE_MODE });
  await rename(`${file}.tmp`, file);
  return secret;
}

/** The receiver faults kept from the last run (unchecked: callbacks.ts checks them as it would a request). */
export async function loadFaults(dir: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(join(dir, 'faults.json'), 'utf8')) as unknown;
  } catch (error) {
    // None set yet, or a torn file: no faults.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

export async function saveFaults(dir: string, faults: unknown): Promise<void> {
  const file = join(dir, 'faults.json');
  await writeFile(`${file}.tmp`, JSON.stringify(faults), { mode: FILE_MODE });
  await rename(`${file}.tmp`, file);
}

/** The bounded, persisted log of delivery attempts. */
export class DeliveryLog {
  private lines = 0;
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: string,
    private records: DeliveryRecord[],
    private readonly keep: number,
    private readonly onError: (error: unknown) => void,
  ) {
    this.lines = records.length;
  }

  static async open(dir: string, onError: (error: unknown) => void, keep = LOG_KEEP): Promise<DeliveryLog> {
    await mkdir(dir, { recursive: true, mode: DIR_MODE });
    await restrictFolder(dir);
    const file = join(dir, 'deliveries.jsonl');
    let text = '';
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const records: DeliveryRecord[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        records.push(JSON.parse(line) as DeliveryRecord);
      } catch {
        // A torn last line (a crash mid-write) or damage: that record is left out.
      }
    }
    const log = new DeliveryLog(file, records.slice(-keep), keep, onError);
    log.lines = records.length;
    return log;
  }

  /** Newest first. */
  list(): DeliveryRecord[] {
    return [...this.records].reverse();
  }

  get(id: string): DeliveryRecord | undefined {
    return this.records.find((r) => r.id === id);
  }

  add(record: DeliveryRecord): void {
    this.records.push(record);
    if (this.records.length > this.keep) this.records.splice(0, this.records.length - this.keep);
    this.lines++;
    const rewrite = this.lines > 2 * this.keep;
    const kept = rewrite ? [...this.records] : undefined;
    if (rewrite) this.lines = kept!.length;
    this.writing = this.writing
      .then(async () => {
        if (kept) {
          const tmp = `${this.file}.tmp`;
          await writeFile(tmp, kept.map((r) => JSON.stringify(r) + '\n').join(''), { mode: FILE_MODE });
          await rename(tmp, this.file);
        } else {
          await appendFile(this.file, JSON.stringify(record) + '\n', { mode: FILE_MODE });
        }
      })
      .catch(this.onError);
  }

  /** Resolves when every record added so far is on disk. */
  flushed(): Promise<void> {
    return this.writing;
  }
}
