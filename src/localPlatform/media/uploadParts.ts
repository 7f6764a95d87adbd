/**
 * The parts of one upload as they arrive (media/upload.ts reads the body with http/multipartStream.ts): text fields
 * kept (64 KiB each, 50 at most), the token checked as soon as it is read, each `file` part written to the account's
 * `incoming/` folder once the token and the fields before it are known good (else drained and dropped, never
 * written), every bound refused by name.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { Codes } from '../../api/errorCodes';
import type { Account } from '../actions/context';
import { decodePart } from '../http/multipart';
import { DISCARD, type PartInfo, type PartSink } from '../http/multipartStream';
import { newId } from '../store/ids';
import { plainStorageProblem } from '../store/storageErrors';
import { checkToken } from './tokens';
import { FILE_MODE, mediaRoot } from './files';

const MAX_FIELD_BYTES = 64 * 1024;
const MAX_FIELDS = 50;
const MAX_FILES = 20;
const MAX_PARTS = 80;
/**
 * What a file's write stream may hold before the body waits for the disk. Node's default, 16 KiB, is less than one
 * socket read (64 KiB): every piece then waited for its own write; 1 MiB lets pieces gather into one `writev`
 * (measured: about 70 ms less CPU per 64 MiB).
 */
const WRITE_BUFFER_BYTES = 1024 * 1024;

export class UploadFault extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Received {
  fileName: string;
  temp: string;
  bytes: number;
  truncated: boolean;
}

/** A file part written to its temporary file as it arrives, within the upload limit. */
class FileSink implements PartSink {
  /** Settles when the file is written and closed, or destroyed; never rejects (a failure is kept in `failure`). */
  readonly written: Promise<void>;
  failure: Error | undefined;
  private readonly out: WriteStream;

  constructor(
    private readonly entry: Received,
    private readonly limit: number,
    private readonly overLimit: () => void,
  ) {
    this.out = createWriteStream(entry.temp, { mode: FILE_MODE, highWaterMark: WRITE_BUFFER_BYTES });
    this.out.on('error', (error) => (this.failure ??= error));
    this.written = finished(this.out).catch(() => undefined);
  }

  write(chunk: Buffer): Promise<void> | undefined {
    if (this.entry.truncated || this.failure) return undefined;
    if (this.entry.bytes + chunk.length > this.limit) {
      this.entry.truncated = true;
      this.overLimit();
      return undefined;
    }
    this.entry.bytes += chunk.length;
    if (this.out.write(chunk)) return undefined;
    // The disk is behind: the body waits (in the socket) until it caught up, or the file failed.
    return new Promise((resolve) => {
      const go = (): void => {
        this.out.off('drain', go).off('close', go);
        resolve();
      };
      this.out.on('drain', go).on('close', go);
    });
  }

  end(): void {
    this.out.end();
  }

  destroy(): void {
    this.out.destroy();
  }
}

/** Reads the fields into the upload's options; throws an UploadFault naming a field that breaks its rule. */
export type ReadOptions<T> = (fields: Map<string, string>, account: Account) => T;

export class UploadParts<T> {
  readonly fields = new Map<string, string>();
  readonly received: Received[] = [];
  account: Account | undefined;
  /** The account's data folder. */
  dir: string | undefined;
  /** The first refusal; the body is still read to its end, nothing more kept. */
  refused: UploadFault | undefined;
  private readonly files: FileSink[] = [];
  private readonly counts = { parts: 0, fields: 0, files: 0 };

  constructor(
    private readonly accounts: Array<{ account: Account; dir: string }>,
    private readonly maxUploadBytes: number,
    private readonly now: number,
    private readonly readOptions: ReadOptions<T>,
  ) {}

  refuse(fault: UploadFault): void {
    this.refused ??= fault;
  }

  /** Where a part goes: a field kept, a file written, anything else (or over a bound) dropped. */
  part(part: PartInfo): PartSink {
    if (++this.counts.parts > MAX_PARTS) return this.over(`at most ${MAX_PARTS} parts per upload`);
    if (part.name === undefined) return DISCARD;
    if (part.fileName === undefined) {
      if (++this.counts.fields > MAX_FIELDS) return this.over(`at most ${MAX_FIELDS} fields per upload`);
      return this.field(part.name, part.headers);
    }
    if (++this.counts.files > MAX_FILES) return this.over(`at most ${MAX_FILES} files per upload`);
    // Nothing of a file is kept before the token and the fields before it are known good: a file
    // part sent first is drained and dropped, never written.
    if (part.name === 'file' && !this.refused) this.admitFiles();
    return part.name === 'file' && !this.refused ? this.file(part.fileName) : DISCARD;
  }

  /** The account of the token, once the token field was read (a wrong or expired token is refused). */
  findAccount(): void {
    if (this.account || this.refused) return;
    const token = this.fields.get('token');
    if (token === undefined) return;
    const check = checkToken(
      token,
      this.accounts.map((a) => a.account),
      this.now,
    );
    if ('problem' in check) return this.refuse(new UploadFault(Codes.getAccessTokenFailed, check.problem));
    this.account = check.account;
    this.dir = this.accounts.find((a) => a.account === check.account)?.dir;
  }

  /** Ends the files of a body that stopped mid-file (their bytes are removed by the caller). */
  destroyFiles(): void {
    for (const sink of this.files) sink.destroy();
  }

  /** Settles when every file is written and closed (or destroyed). */
  async written(): Promise<void> {
    await Promise.all(this.files.map((sink) => sink.written));
  }

  /** After a complete body: the options, or undefined with `refused` saying why. */
  complete(): T | undefined {
    const failed = this.files.find((sink) => sink.failure)?.failure;
    if (failed) {
      const problem = plainStorageProblem(failed) ?? 'could not be written';
      this.refuse(new UploadFault(Codes.storageUnavailable, `the upload was not stored: the data folder ${problem}`));
    }
    if (!this.account) this.refuse(new UploadFault(Codes.parameterMissing, 'token is missing (ask getToken for one)'));
    if (this.received.length === 0) this.refuse(new UploadFault(Codes.parameterMissing, 'file is missing'));
    return this.refused ? undefined : this.options();
  }

  private options(): T | undefined {
    try {
      return this.readOptions(this.fields, this.account!);
    } catch (error) {
      if (!(error instanceof UploadFault)) throw error;
      this.refuse(error);
      return undefined;
    }
  }

  private over(rule: string): PartSink {
    this.refuse(new UploadFault(Codes.parameterInvalid, rule));
    return DISCARD;
  }

  /** The token must be given and good, and the fields so far readable, before the first file part. */
  private admitFiles(): void {
    this.findAccount();
    if (this.refused) return;
    if (!this.account) {
      return this.refuse(
        new UploadFault(
          Codes.parameterMissing,
          'token is missing before the first file part (send the token field first)',
        ),
      );
    }
    this.options();
  }

  private field(name: string, headers: string): PartSink {
    const kept: Buffer[] = [];
    let bytes = 0;
    return {
      write: (chunk) => {
        bytes += chunk.length;
        if (bytes <= MAX_FIELD_BYTES) kept.push(chunk);
        else
          this.refuse(
            new UploadFault(Codes.parameterInvalid, `${name.slice(0, 40)} is longer than ${MAX_FIELD_BYTES} bytes`),
          );
      },
      end: () => {
        this.fields.set(name, decodePart(Buffer.concat(kept), headers));
        if (name === 'token') this.findAccount();
      },
    };
  }

  private file(fileName: string | undefined): PartSink {
    // Written below the data folder (not /tmp): the same disk, so moving it into place is a rename.
    const entry: Received = {
      fileName: (fileName || 'upload').slice(0, 255),
      temp: join(mediaRoot(this.dir ?? this.accounts[0].dir), 'incoming', newId()),
      bytes: 0,
      truncated: false,
    };
    this.received.push(entry);
    const sink = new FileSink(entry, this.maxUploadBytes, () =>
      this.refuse(
        new UploadFault(Codes.bodyTooLarge, `file is larger than the upload limit of ${this.maxUploadBytes} bytes`),
      ),
    );
    this.files.push(sink);
    return sink;
  }
}
