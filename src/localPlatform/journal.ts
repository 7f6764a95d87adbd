/**
 * Durable storage of one account: an append-only journal plus a snapshot.
 *
 * - Each committed write is one JSON line `{"s":seq,"m":[mutations]}` in the current journal file,
 *   written and fsync'd before the write is acknowledged. Concurrent commits share one fsync
 *   (group commit). A line torn by a crash is the last of its file and was never acknowledged, so
 *   loading drops it.
 * - Compaction writes every record to `snapshot.jsonl.tmp`, fsyncs it and renames it over
 *   `snapshot.jsonl` (atomic), then deletes the journal files the snapshot covers. The journal is
 *   rotated to a new file at the instant the snapshot's records are captured, so nothing written
 *   after that instant lives in a file that gets deleted.
 * - Loading reads the snapshot (sequence S), then every journal file in order, applying lines with
 *   a sequence above S. Mutations are whole-record puts and deletes, so the result is exact.
 */
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { lockDir } from './dirLock';
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

interface Waiter {
  line: string;
  resolve: () => void;
  reject: (error: Error) => void;
}

export interface LoadResult {
  journal: Journal;
  seq: number;
  /** True when the directory held no data at all (a new account). */
  fresh: boolean;
}

export class Journal {
  private queue: Waiter[] = [];
  private batchScheduled = false;
  /** Every file operation (batch write, rotation) runs on this chain, one at a time. */
  private io: Promise<void> = Promise.resolve();
  private broken: Error | undefined;
  private snapshotting: Promise<void> | undefined;
  private bytes = 0;
  private closed = false;

  private constructor(
    private readonly dir: string,
    private fh: FileHandle,
    private gen: number,
    private readonly unlock: () => Promise<void>,
  ) {}

  /** Loads the account directory (creating it), feeding every stored mutation to `apply` in order. */
  static async open(dir: string, apply: (mutation: Mutation) => void): Promise<LoadResult> {
    await mkdir(dir, { recursive: true });
    const unlock = await lockDir(dir);
    try {
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
    if (names.includes(SNAPSHOT)) {
      seq = await readSnapshot(join(dir, SNAPSHOT), apply);
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
      seq = Math.max(seq, await replayJournal(join(dir, file.name), snapshotSeq, apply));
    }
    const gen = (journals.at(-1)?.gen ?? 0) + 1;
    const fh = await open(join(dir, journalName(gen)), 'a');
    await syncDir(dir);
    const journal = new Journal(dir, fh, gen, unlock);
    journal.bytes = journalBytes;
    return { journal, seq, fresh };
  }

  /** Bytes written to journal files since the last snapshot (drives compaction). */
  get journalBytes(): number {
    return this.bytes;
  }

  get compacting(): boolean {
    return this.snapshotting !== undefined;
  }

  /** Appends one committed write; resolves once it is on disk. */
  append(seq: number, mutations: Mutation[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`the store in ${this.dir} is closed`));
    if (this.broken) return Promise.reject(this.broken);
    const line = `${JSON.stringify({ s: seq, m: mutations })}\n`;
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ line, resolve, reject });
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
    try {
      if (this.broken) throw this.broken;
      const buffer = Buffer.from(batch.map((w) => w.line).join(''), 'utf8');
      await writeAll(this.fh, buffer);
      await this.fh.datasync();
      this.bytes += buffer.length;
      for (const waiter of batch) waiter.resolve();
    } catch (error) {
      // After a failed write the file's tail is unknown: refuse further writes rather than guess.
      this.broken = error instanceof Error ? error : new Error(String(error));
      for (const waiter of batch) waiter.reject(this.broken);
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
        const fh = await open(join(this.dir, journalName(next)), 'a');
        await syncDir(this.dir);
        const old = this.fh;
        this.fh = fh;
        this.gen = next;
        keepFrom = next;
        this.bytes = 0;
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
  const fh = await open(tmp, 'w');
  try {
    const chunks: string[] = [
      `${JSON.stringify({ snapshot: 1, seq: captured.seq, count: captured.records.length })}\n`,
    ];
    let pending = chunks[0].length;
    const flush = async (): Promise<void> => {
      if (chunks.length === 0) return;
      await writeAll(fh, Buffer.from(chunks.join(''), 'utf8'));
      chunks.length = 0;
      pending = 0;
    };
    for (const [c, id, v] of captured.records) {
      const line = `${JSON.stringify({ c, id, v })}\n`;
      chunks.push(line);
      pending += line.length;
      if (pending > 1 << 20) await flush();
    }
    chunks.push(`${JSON.stringify({ end: captured.records.length })}\n`);
    await flush();
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, join(dir, SNAPSHOT));
  await syncDir(dir);
}

async function readSnapshot(file: string, apply: (mutation: Mutation) => void): Promise<number> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let header: { seq: number; count: number } | undefined;
  let count = 0;
  let ended = false;
  for await (const line of lines) {
    if (line === '') continue;
    const value = JSON.parse(line) as Record<string, unknown>;
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
  if (!header || !ended || count !== header.count) throw new Error(`${file}: snapshot is incomplete`);
  return header.seq;
}

/** Applies lines above `after`; a torn last line (crash mid-write, never acknowledged) is dropped. */
async function replayJournal(file: string, after: number, apply: (mutation: Mutation) => void): Promise<number> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let seq = after;
  let torn: string | undefined;
  let lineNo = 0;
  for await (const line of lines) {
    lineNo++;
    if (torn !== undefined) throw new Error(`${file}: damaged line ${lineNo - 1} is not the last one`);
    if (line === '') continue;
    let entry: { s: number; m: Mutation[] };
    try {
      entry = JSON.parse(line) as { s: number; m: Mutation[] };
      if (typeof entry.s !== 'number' || !Array.isArray(entry.m)) throw new Error('shape');
    } catch {
      torn = line;
      continue;
    }
    if (entry.s <= after) continue;
    for (const mutation of entry.m) apply(mutation);
    seq = Math.max(seq, entry.s);
  }
  return seq;
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
