/**
 * A streaming multipart/form-data reader (RFC 7578 over RFC 2046 section 5.1.1) for the upload: each part is handed
 * on as it arrives, a file part's content in the pieces the socket gave, never held whole.
 *
 * Why not a library: busboy and @fastify/busboy find the boundary with streamsearch, a Boyer-Moore-Horspool search
 * in JavaScript, about 100 ms of CPU per 64 MiB on these machines: the gap between the upload and a bare server
 * storing the same bytes (issue 29). @mjackson/multipart-parser (now @remix-run/multipart-parser) keeps each part
 * whole in memory, which a 2 GiB upload cannot be. Here the search is `Buffer.indexOf` (native), and only the few
 * bytes at a chunk's end that may start a boundary split across two chunks are kept and looked at again.
 */

/** The body is not multipart as its boundary says (the reason, never the body's bytes). */
export class MultipartError extends Error {}

export interface PartInfo {
  /** `name=` of Content-Disposition; undefined when the part has none. */
  name: string | undefined;
  /** The file's name (`filename*=` before `filename=`, without any folder); undefined for a text field. */
  fileName: string | undefined;
  /** The part's header lines (UTF-8), for the charset of a text field. */
  headers: string;
}

/** Where a part's content goes. A promise from `write` holds the reading until it settles (back-pressure). */
export interface PartSink {
  write(chunk: Buffer): void | Promise<void>;
  end(): void;
}

/** A sink that drops what it is given: a part nobody keeps. */
export const DISCARD: PartSink = { write: () => undefined, end: () => undefined };

const CR = 0x0d;
const CRLF = Buffer.from('\r\n', 'latin1');
const BLANK_LINE = Buffer.from('\r\n\r\n', 'latin1');
/** Line breaks and transport padding (RFC 2046: LWSP after a boundary) read at most this far. */
const MAX_BOUNDARY_LINE = 1024;

type State = 'preamble' | 'boundaryLine' | 'headers' | 'content' | 'epilogue';

export class MultipartReader {
  /** `CRLF--boundary`: a boundary line begins with the line break that ends the content before it. */
  private readonly delimiter: Buffer;
  private state: State = 'preamble';
  /**
   * Bytes kept from earlier chunks: in the preamble and in content, the chunk's tail that may be the start of a
   * delimiter (it begins with CR, the delimiter's only CR); on a boundary line and in headers, the unread line.
   * The body's first boundary has no line break before it: the preamble starts as if one had been read.
   */
  private pending: Buffer = CRLF;
  private sink: PartSink | undefined;

  constructor(
    boundary: string,
    private readonly onPart: (part: PartInfo) => PartSink,
    private readonly maxHeaderBytes: number,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  }

  /** True once the closing boundary (`--boundary--`) was read. */
  get complete(): boolean {
    return this.state === 'epilogue';
  }

  /** Reads the next piece of the body; resolves when its content was taken by the parts' sinks. */
  async write(chunk: Buffer): Promise<void> {
    let buf = chunk;
    let pos = 0;
    if (this.state === 'content' || this.state === 'preamble') {
      const start = await this.joinPending(chunk);
      if (start === undefined) return;
      pos = start;
    } else if (this.pending.length > 0) {
      buf = Buffer.concat([this.pending, chunk]);
      this.pending = Buffer.alloc(0);
    }
    while (pos < buf.length) {
      if (this.state === 'epilogue') return;
      if (this.state === 'content' || this.state === 'preamble') pos = await this.readContent(buf, pos);
      else if (this.state === 'boundaryLine') pos = this.readBoundaryLine(buf, pos);
      else pos = this.readHeaders(buf, pos);
      if (pos < 0) return;
    }
  }

  /** The body ended: it must have ended with its closing boundary. */
  end(): void {
    if (this.state === 'epilogue') return;
    throw new MultipartError(
      this.state === 'content'
        ? 'the body ended inside a part, before its closing boundary'
        : 'the body ended before its closing boundary',
    );
  }

  /**
   * Content after a chunk's tail that could start a delimiter: either it does (the delimiter is read and the
   * offset in `chunk` after it returned), or the tail was content after all. Undefined when `chunk` is all kept.
   */
  private async joinPending(chunk: Buffer): Promise<number | undefined> {
    const kept = this.pending;
    if (kept.length === 0) return 0;
    const need = this.delimiter.length - kept.length;
    const seen = Math.min(need, chunk.length);
    if (chunk.compare(this.delimiter, kept.length, kept.length + seen, 0, seen) === 0) {
      if (seen < need) {
        this.pending = Buffer.concat([kept, chunk]);
        return undefined;
      }
      this.pending = Buffer.alloc(0);
      this.delimiterFound();
      return need;
    }
    this.pending = Buffer.alloc(0);
    await this.content(kept);
    return 0;
  }

  /** Content (or preamble) from `pos`: up to the next delimiter, or to the chunk's end less a possible start of one. */
  private async readContent(buf: Buffer, pos: number): Promise<number> {
    const at = buf.indexOf(this.delimiter, pos);
    if (at >= 0) {
      await this.content(buf.subarray(pos, at));
      this.delimiterFound();
      return at + this.delimiter.length;
    }
    const tail = this.partialDelimiterAt(buf, pos);
    await this.content(buf.subarray(pos, tail));
    if (tail < buf.length) this.pending = Buffer.from(buf.subarray(tail));
    return -1;
  }

  /** Where the chunk's last bytes begin a delimiter they do not finish (the chunk's length if they do not). */
  private partialDelimiterAt(buf: Buffer, pos: number): number {
    for (let at = buf.indexOf(CR, Math.max(pos, buf.length - this.delimiter.length + 1)); at >= 0;) {
      const length = buf.length - at;
      if (buf.compare(this.delimiter, 0, length, at) === 0) return at;
      at = buf.indexOf(CR, at + 1);
    }
    return buf.length;
  }

  private async content(piece: Buffer): Promise<void> {
    if (piece.length === 0 || !this.sink) return;
    const waiting = this.sink.write(piece);
    if (waiting) await waiting;
  }

  private delimiterFound(): void {
    this.sink?.end();
    this.sink = undefined;
    this.state = 'boundaryLine';
  }

  /** After `--boundary`: `--` closes the body; else optional padding (spaces, tabs) and a line break open a part. */
  private readBoundaryLine(buf: Buffer, pos: number): number {
    let at = pos;
    if (buf.length - at < 2) return this.keep(buf, pos, 'a boundary line');
    if (buf[at] === 0x2d && buf[at + 1] === 0x2d) {
      this.state = 'epilogue';
      return buf.length;
    }
    while (at < buf.length && (buf[at] === 0x20 || buf[at] === 0x09)) at++;
    if (buf.length - at < 2) return this.keep(buf, pos, 'a boundary line');
    if (buf[at] !== CR || buf[at + 1] !== 0x0a) {
      throw new MultipartError('a boundary line must end with a line break (or -- after the last part)');
    }
    this.state = 'headers';
    return at + 2;
  }

  /** A part's header lines up to the blank line after them (none at all: the blank line right away). */
  private readHeaders(buf: Buffer, pos: number): number {
    let end: number;
    let next: number;
    if (buf.length - pos >= 2 && buf[pos] === CR && buf[pos + 1] === 0x0a) {
      end = pos;
      next = pos + 2;
    } else {
      end = buf.indexOf(BLANK_LINE, pos);
      if (end < 0) return this.keep(buf, pos, "a part's header lines");
      next = end + 4;
    }
    if (end - pos > this.maxHeaderBytes) throw this.headersTooLong();
    const headers = buf.toString('utf8', pos, end);
    this.sink = this.onPart(readPartHeaders(headers));
    this.state = 'content';
    return next;
  }

  /** Keeps the unfinished line for the next chunk, within its bound. */
  private keep(buf: Buffer, pos: number, what: string): number {
    const bound = this.state === 'headers' ? this.maxHeaderBytes + 4 : MAX_BOUNDARY_LINE;
    if (buf.length - pos > bound) {
      throw this.state === 'headers' ? this.headersTooLong() : new MultipartError(`${what} is too long`);
    }
    this.pending = Buffer.from(buf.subarray(pos));
    return -1;
  }

  private headersTooLong(): MultipartError {
    return new MultipartError(`a part's header lines are longer than ${this.maxHeaderBytes} bytes`);
  }
}

/** Content-Disposition's name and file name from a part's header lines. */
export function readPartHeaders(headers: string): PartInfo {
  const line = /^content-disposition:[ \t]*([^\r\n]*)$/im.exec(headers)?.[1];
  if (line === undefined || !/^form-data\s*(;|$)/i.test(line)) return { name: undefined, fileName: undefined, headers };
  const params = dispositionParams(line);
  const extended = params.get('filename*');
  const plain = params.get('filename');
  const fileName = (extended !== undefined ? decodeExtended(extended) : undefined) ?? plain;
  return { name: params.get('name'), fileName: fileName === undefined ? undefined : baseName(fileName), headers };
}

/** `; key=value` parameters (value a token or a quoted string with `\` escapes), keys in lower case; first wins. */
function dispositionParams(line: string): Map<string, string> {
  const params = new Map<string, string>();
  const param = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/g;
  for (let m = param.exec(line); m; m = param.exec(line)) {
    const key = m[1]!.toLowerCase();
    const value = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3]!;
    if (!params.has(key)) params.set(key, value);
  }
  return params;
}

/** An RFC 8187 value, `charset'language'percent-encoded`; undefined when it cannot be read. */
function decodeExtended(value: string): string | undefined {
  const m = /^([\w!#$%&+^`{}~-]+)'[^']*'(.*)$/.exec(value);
  if (!m) return undefined;
  try {
    const bytes = Buffer.from(
      m[2]!.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    );
    return new TextDecoder(m[1]!, { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The file's own name: a browser may send a path (`C:\clips\a.mp4`); `.` and `..` name nothing. */
function baseName(path: string): string {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  return name === '.' || name === '..' ? '' : name;
}
