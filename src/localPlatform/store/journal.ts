/**
 * Durable storage of one account: an append-only journal plus a snapshot.
 *
 * - Each committed write is one line `<crc32 hex> {"s":seq,"m":[mutations]}` in the current journal
 *   file, written and fsync'd before the write is acknowledged. Concurrent commits share one fsync
 *   (group commit). A line torn by a crash is the last of its file, has no line end and was never
 *   acknowledged, so loading drops it. Any other line whose checksum does not match is damage:
 *   every intact record is kept, the file is copied aside (`<name>.damaged-<time>`), the loss is
 *   reported, and a snapshot is written at once so the damaged line is not read again. Lines
 *   without a checksum (journals written before checksums) load as before.
 * - A failed write (disk full, I/O error) is cut off the file again and the caller undoes its
 *   change in memory, so the journal and memory stay equal and later writes work once there is
 *   room.
 * - Compaction writes every record to `snapshot.jsonl.tmp`, fsyncs it and renames it over
 *   `snapshot.jsonl` (atomic), then deletes the journal files the snapshot covers. The journal is
 *   rotated to a new file at the instant the snapshot's records are captured, so nothing written
 *   after that instant lives in a file that gets deleted.
 * - Loading reads the snapshot (sequence S), then every journal file in order, applying lines with
 *   a sequence above S. Mutations are whole-record puts and deletes, so the result is exact.
 */
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { crc32 } from 'node:zlib';
import { lockDir } from './dirLock';
import { injectedFaults } from '../http/faults';
import { DIR_MODE, FILE_MODE, restrictFolder } from './permissions';
import type { CollectionName } from './records';

export interface Mutation {
  c: CollectionName;
  id: string;
  /** The whole record, or null to delete. */
  v: unknown;
}

export interface SnapshotCapture {
  seq: number;
  records: Array<[CollectionName, string, unknown]>;
}

const SNAPSHOT = 'snapshot.jsonl';
const JOURNAL_RE = /^journal\.(\d{10})\.log$/;

function journalName(gen: number): string {
  return `journal.${String(gen).padStart(10, '0')}.log`;
}

const CHECKSUMMED = /^[0-9a-f]{8} /;

/** A record line: its CRC-32 (8 hex digits), a space, the JSON text. */
export function encodeLine(json: string): string {
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}`;
}

/** The JSON value of a line, or undefined when the line is damaged (checksum or JSON wrong). */
export function decodeLine(line: string): unknown {
  let json = line;
  if (!line.startsWith('{')) {
    const m = /^([0-9a-f]{8}) (.*)$/s.exec(line);
    if (!m || crc32(m[2]).toString(16).padStart(8, '0') !== m[1]) return undefined;
    json = m[2];
  }
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

/** A stored file in which some records could not be read. */
export interface Damage {
  file: string;
  /** Where the damaged file was copied to before the intact records were rewritten. */
  keptAs: string;
  /** 1-based line numbers of the records left out. */
  lines: number[];
}

interface Waiter {
  line: string;
  resolve: () => void;
  reject: (error: Error) => void;
  /** Takes the write's change back out of memory (after a failed write). */
  undo: () => void;
}

export interface LoadResult {
  journal: Journal;
  seq: number;
  /** True when the directory held no data at all (a new account). */
  fresh: boolean;
  /** Files with damaged records (the store then writes a snapshot at once). */
  damage: Damage[];
}

export class Journal {
  private queue: Waiter[] = [];
  private batchScheduled = false;
  /** Every file operation (batch write, rotation) runs on this chain, one at a time. */
  private io: Promise<void> = Promise.resolve();
  private broken: Error | undefined;
  private snapshotting: Promise<void> | undefined;
  private bytes = 0;
  /** Length of the current journal file up to its last whole, durable line. */
  private fileBytes = 0;
  private closed = false;

  private constructor(
    private readonly dir: string,
    private fh: FileHandle,
    private gen: number,
    private readonly unlock: () => Promise<void>,
  ) {}

  /** Loads the account directory (creating it), feeding every stored mutation to `apply` in order. */
  static async open(dir: string, apply: (mutation: Mutation) => void): Promise<LoadResult> {
    await mkdir(dir, { recursive: true, mode: DIR_MODE });
    const unlock = await lockDir(dir);
    try {
      // Channel auth codes are stored here: the folder and its files are the owner's only.
      await restrictFolder(dir);
      return await Journal.load(dir, apply, unlock);
    } catch (error) {
      await unlock();
      throw error;
    }
  }

  private static async load(
    dir: string,
    apply: (mutation: Mutation) => void,
    unlock: () => Promise<void>,
  ): Promise<LoadResult> {
    await rm(join(dir, `${SNAPSHOT}.tmp`), { force: true });
    const names = await readdir(dir);
    let seq = 0;
    let fresh = true;
    const damage: Damage[] = [];
    if (names.includes(SNAPSHOT)) {
      const read = await readSnapshot(join(dir, SNAPSHOT), apply);
      seq = read.seq;
      if (read.damaged.length > 0) damage.push(await keepAside(join(dir, SNAPSHOT), read.damaged));
      fresh = false;
    }
    const snapshotSeq = seq;
    const journals = names
      .map((name) => JOURNAL_RE.exec(name))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ name: m[0], gen: Number(m[1]) }))
      .sort((a, b) => a.gen - b.gen);
    let journalBytes = 0;
    for (const file of journals) {
      const size = (await stat(join(dir, file.name))).size;
      journalBytes += size;
      if (size > 0) fresh = false;
      // Every file is replayed against the snapshot's sequence; sequences only grow across files.
      const replayed = await replayJournal(join(dir, file.name), snapshotSeq, apply);
      seq = Math.max(seq, replayed.seq);
      if (replayed.damaged.length > 0) damage.push(await keepAside(join(dir, file.name), replayed.damaged));
    }
    const gen = (journals.at(-1)?.gen ?? 0) + 1;
    const fh = await open(join(dir, journalName(gen)), 'a', FILE_MODE);
    await syncDir(dir);
    const journal = new Journal(dir, fh, gen, unlock);
    journal.bytes = journalBytes;
    return { journal, seq, fresh, damage };
  }

  /** Bytes written to journal files since the last snapshot (drives compaction). */
  get journalBytes(): number {
    return this.bytes;
  }

  get compacting(): boolean {
    return this.snapshotting !== undefined;
  }

  /**
   * Appends one committed write; resolves once it is on disk. When the write fails, `undo` is called
   * (newest write first, for this one and every write queued after it) before the promise rejects.
   */
  append(seq: number, mutations: Mutation[], undo: () => void): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`the store in ${this.dir} is closed`));
    if (this.broken) return Promise.reject(this.broken);
    const line = `${encodeLine(JSON.stringify({ s: seq, m: mutations }))}\n`;
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ line, resolve, reject, undo });
      if (!this.batchScheduled) {
        this.batchScheduled = true;
        this.io = this.io.then(() => this.writeBatch());
      }
    });
  }

  /** Resolves when everything appended so far is on disk. */
  async flushed(): Promise<void> {
    await this.io;
    if (this.broken) throw this.broken;
  }

  private async writeBatch(): Promise<void> {
    this.batchScheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    const buffer = Buffer.from(batch.map((w) => w.line).join(''), 'utf8');
    try {
      if (this.broken) throw this.broken;
      const injected = injectedFaults.journalWrite?.(this.dir);
      if (injected) {
        // As a full disk does: part of the batch reaches the file, then the write fails.
        await writeAll(this.fh, buffer.subarray(0, buffer.length >> 1));
        throw injected;
      }
      await writeAll(this.fh, buffer);
      await this.fh.datasync();
      this.bytes += buffer.length;
      this.fileBytes += buffer.length;
      for (const waiter of batch) waiter.resolve();
    } catch (caught) {
      const error = caught instanceof Error ? caught : new Error(String(caught));
      // Writes queued meanwhile were applied in memory on top of this batch: they fail with it.
      const failed = [...batch, ...this.queue];
      this.queue = [];
      try {
        // Cut the partial batch off, so the file ends with the last acknowledged line again.
        await this.fh.truncate(this.fileBytes);
        await this.fh.datasync();
      } catch {
        // The file's tail is unknown: refuse further writes rather than guess.
        this.broken ??= error;
      }
      for (let i = failed.length - 1; i >= 0; i--) failed[i].undo();
      for (const waiter of failed) waiter.reject(error);
    }
  }

  /**
   * Writes a snapshot. `capture` runs at the rotation instant on the file chain, so the records it
   * returns include exactly the writes in the files about to be replaced (and possibly later ones,
   * which replay skips by sequence).
   */
  snapshot(capture: () => SnapshotCapture): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.snapshotting) return this.snapshotting;
    const run = async (): Promise<void> => {
      let captured: SnapshotCapture | undefined;
      let keepFrom = 0;
      const rotation = this.io.then(async () => {
        captured = capture();
        const next = this.gen + 1;
        const fh = await open(join(this.dir, journalName(next)), 'a', FILE_MODE);
        await syncDir(this.dir);
        const old = this.fh;
        this.fh = fh;
        this.gen = next;
        keepFrom = next;
        this.bytes = 0;
        this.fileBytes = 0;
        await old.close();
      });
      this.io = rotation.catch(() => undefined);
      await rotation;
      if (!captured) return;
      await writeSnapshot(this.dir, captured);
      for (const name of await readdir(this.dir)) {
        const m = JOURNAL_RE.exec(name);
        if (m && Number(m[1]) < keepFrom) await rm(join(this.dir, name), { force: true });
      }
    };
    this.snapshotting = run().finally(() => {
      this.snapshotting = undefined;
    });
    return this.snapshotting;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.snapshotting) await this.snapshotting.catch(() => undefined);
    await this.io;
    await this.fh.close();
    await this.unlock();
  }
}

/** Writes the whole buffer (a single write call may write only part of it). */
async function writeAll(fh: FileHandle, buffer: Buffer): Promise<void> {
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesWritten } = await fh.write(buffer, offset, buffer.length - offset);
    offset += bytesWritten;
  }
}

async function writeSnapshot(dir: string, captured: SnapshotCapture): Promise<void> {
  const tmp = join(dir, `${SNAPSHOT}.tmp`);
  try {
    await writeSnapshotFile(tmp, captured);
  } catch (error) {
    // A snapshot that did not fit must not keep the space it took.
    await rm(tmp, { force: true }).catch(() => undefined);
    throw error;
  }
  await rename(tmp, join(dir, SNAPSHOT));
  await syncDir(dir);
}

async function writeSnapshotFile(tmp: string, captured: SnapshotCapture): Promise<void> {
  const fh = await open(tmp, 'w', FILE_MODE);
  try {
    const chunks: string[] = [
      `${encodeLine(JSON.stringify({ snapshot: 1, seq: captured.seq, count: captured.records.length }))}\n`,
    ];
    let pending = chunks[0].length;
    const flush = async (): Promise<void> => {
      if (chunks.length === 0) return;
      await writeAll(fh, Buffer.from(chunks.join(''), 'utf8'));
      chunks.length = 0;
      pending = 0;
    };
    for (const [c, id, v] of captured.records) {
      const line = `${encodeLine(JSON.stringify({ c, id, v }))}\n`;
      chunks.push(line);
      pending += line.length;
      if (pending > 1 << 20) await flush();
    }
    chunks.push(`${encodeLine(JSON.stringify({ end: captured.records.length }))}\n`);
    await flush();
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Copies a damaged file aside (it is replaced by the next snapshot) and says where. */
async function keepAside(file: string, lines: number[]): Promise<Damage> {
  const keptAs = `${file}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  await copyFile(file, keptAs);
  return { file, keptAs, lines };
}

async function readSnapshot(
  file: string,
  apply: (mutation: Mutation) => void,
): Promise<{ seq: number; damaged: number[] }> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let header: { seq: number; count: number } | undefined;
  let count = 0;
  let ended = false;
  let lineNo = 0;
  const damaged: number[] = [];
  for await (const line of lines) {
    lineNo++;
    if (line === '') continue;
    const value = decodeLine(line) as Record<string, unknown> | undefined;
    if (value === undefined || value === null || typeof value !== 'object') {
      // The header says which journal lines the snapshot covers: without it nothing can be trusted.
      if (!header) throw new Error(`${file}: the snapshot's first line is damaged`);
      damaged.push(lineNo);
      continue;
    }
    if (!header) {
      if (value.snapshot !== 1 || typeof value.seq !== 'number')
        throw new Error(`${file}: not a snapshot of this platform`);
      header = { seq: value.seq, count: Number(value.count) };
    } else if ('end' in value) {
      ended = true;
    } else {
      apply({ c: value.c as CollectionName, id: String(value.id), v: value.v });
      count++;
    }
  }
  if (!header || !ended || count + damaged.length !== header.count) {
    throw new Error(`${file}: snapshot is incomplete`);
  }
  return { seq: header.seq, damaged };
}

/**
 * Applies lines above `after`. A torn last line (no line end: a crash mid-write, never
 * acknowledged) is dropped; other damaged lines are left out and listed.
 */
async function replayJournal(
  file: string,
  after: number,
  apply: (mutation: Mutation) => void,
): Promise<{ seq: number; damaged: number[] }> {
  // A journal file stays below the compaction size (16 MiB by default): read whole, so a torn
  // last line (no line end) is told from a damaged whole one.
  const lines = (await readFile(file, 'utf8')).split('\n');
  const tornTail = lines.pop() ?? '';
  let seq = after;
  const damaged: number[] = [];
  // In a file written with checksums, a line without one is damage too (its start was lost).
  const checksummed = lines.some((line) => CHECKSUMMED.test(line));
  const take = (line: string): boolean => {
    if (checksummed && !CHECKSUMMED.test(line)) return false;
    const entry = decodeLine(line.replace(/\r$/, '')) as { s?: unknown; m?: unknown } | undefined;
    if (!entry || typeof entry.s !== 'number' || !Array.isArray(entry.m)) return false;
    if (entry.s <= after) return true;
    for (const mutation of entry.m as Mutation[]) apply(mutation);
    seq = Math.max(seq, entry.s);
    return true;
  };
  for (const [i, line] of lines.entries()) {
    if (line !== '' && !take(line)) damaged.push(i + 1);
  }
  // A whole last line without its line end is still a record (written by an older version, or cut
  // just before the line end): kept when it reads back intact.
  if (tornTail !== '') take(tornTail);
  return { seq, damaged };
}

/** Makes a file creation or rename durable; not possible (and not needed) on Windows. */
async function syncDir(dir: string): Promise<void> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(dir, 'r');
    await fh.sync();
  } catch {
    // Directory fsync is unsupported on some platforms.
  } finally {
    await fh?.close().catch(() => undefined);
  }
}
