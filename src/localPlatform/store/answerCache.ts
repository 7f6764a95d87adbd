/**
 * List answers made of records already serialised. A stored record is never changed in place (a
 * write puts a new object), so a record object and a key naming everything else its answer reads
 * (the address it is reached at, the user id, versions of the collections it refers to) fix its JSON:
 * each record's JSON is made once, as UTF-8 bytes (a fragment), and a page is the envelope's edges around
 * its fragments: nothing of it is stringified or encoded again. The list reads keep a page's whole answer,
 * joined once (readAnswers.ts). Each cache is bounded in bytes.
 */

/** A JSON list of ready fragments (each `,` and a record's JSON, see AnswerCache): written as it is. */
export class JsonList {
  constructor(
    readonly fragments: readonly Buffer[],
    /**
     * Whether what the list read outside the store is still as it was (a channel's live thumbnail): a whole
     * answer kept for the list (readAnswers.ts) is served only while it says so. Undefined: nothing else read.
     */
    readonly stillSame?: () => boolean,
  ) {}

  /** The list's JSON text (for tests and anything else that wants it as text). */
  get text(): string {
    return `[${this.fragments.map((fragment) => fragment.toString('utf8', 1)).join(',')}]`;
  }

  /** Anything else that stringifies it gets the same JSON (slowly). */
  toJSON(): unknown {
    return JSON.parse(this.text) as unknown;
  }
}

/** The envelope heads and tails seen lately (a few: the success envelope with and without a count). */
const edges = new Map<string, [Buffer, Buffer]>();
const MAX_EDGES = 64;

/**
 * The edges of the success envelope (`{code:0, message:"success", result, success:true[, count]}`) by its count
 * (-1: none): found without stringifying the envelope per answer, which cost more than the lookup of the page.
 */
const successEdges = new Map<number, [Buffer, Buffer]>();

function isSuccess(envelope: Record<string, unknown>): boolean {
  const keys = Object.keys(envelope);
  return (
    keys[0] === 'code' &&
    keys[1] === 'message' &&
    keys[2] === 'result' &&
    keys[3] === 'success' &&
    (keys.length === 4 || (keys.length === 5 && keys[4] === 'count' && Number.isSafeInteger(envelope.count))) &&
    envelope.code === 0 &&
    envelope.message === 'success' &&
    envelope.success === true
  );
}

/** The envelope's head up to its list's `[` and its tail from `]`, made once per envelope without its list. */
function edgesOf(envelope: { result: unknown }): [Buffer, Buffer] {
  const fields = envelope as Record<string, unknown>;
  if (!isSuccess(fields)) return edgesOfAny(envelope);
  const count = fields.count === undefined ? -1 : (fields.count as number);
  let edge = successEdges.get(count);
  if (!edge) {
    edge = edgesOfAny(envelope);
    if (successEdges.size >= MAX_EDGES) successEdges.clear();
    successEdges.set(count, edge);
  }
  return edge;
}

function edgesOfAny(envelope: { result: unknown }): [Buffer, Buffer] {
  const whole = JSON.stringify({ ...envelope, result: [] });
  let edge = edges.get(whole);
  if (!edge) {
    // Keys and text values before it are JSON-escaped, so the first `"result":[]` is the field itself.
    const at = whole.indexOf('"result":[]') + '"result":['.length;
    edge = [Buffer.from(whole.slice(0, at)), Buffer.from(whole.slice(at))];
    if (edges.size >= MAX_EDGES) edges.clear();
    edges.set(whole, edge);
  }
  return edge;
}

/**
 * The envelope's JSON as the chunks to write, in order: with a JsonList result, the envelope's head up
 * to the list's `[`, its fragments as they are (the first without its comma) and the tail from `]`, so
 * that the answer is the bytes JSON.stringify would make.
 */
export function envelopeChunks(envelope: { result: unknown }): Buffer[] {
  const { result } = envelope;
  if (!(result instanceof JsonList)) return [Buffer.from(JSON.stringify(envelope))];
  const edge = edgesOf(envelope);
  const { fragments } = result;
  const chunks: Buffer[] = [edge[0]];
  for (let i = 0; i < fragments.length; i++) chunks.push(i === 0 ? fragments[0].subarray(1) : fragments[i]);
  chunks.push(edge[1]);
  return chunks;
}

/**
 * An answer's body and its headers, made once with the page: raw (name, value, ...), as `writeHead` takes them
 * and a bare server writes them, so no header object is read per request.
 */
export interface Answer {
  body: Buffer;
  headers: readonly string[];
}

const JSON_TYPE = 'application/json;charset=UTF-8';

function answerOf(body: Buffer): Answer {
  return { body, headers: ['Content-Type', JSON_TYPE, 'Content-Length', String(body.length)] };
}

/** The envelope's JSON in one buffer of its own, with its headers. */
export function joinedAnswer(envelope: { result: unknown }): Answer {
  if (!(envelope.result instanceof JsonList)) return answerOf(Buffer.from(JSON.stringify(envelope)));
  return answerOf(Buffer.concat(envelopeChunks(envelope)));
}

/** An answer written as its chunks, in order (the bytes of the joined one), with its headers. */
export interface ChunkedAnswer {
  chunks: readonly Buffer[];
  /** Their length together. */
  bytes: number;
  headers: readonly string[];
}

/** The envelope's chunks (envelopeChunks) with the headers of their joined bytes: nothing is copied. */
export function chunkedAnswer(chunks: readonly Buffer[]): ChunkedAnswer {
  let bytes = 0;
  for (const chunk of chunks) bytes += chunk.length;
  return { chunks, bytes, headers: ['Content-Type', JSON_TYPE, 'Content-Length', String(bytes)] };
}

/** An entry of a SweptCache: its size, and whether it was asked again since the last sweep. */
export interface Swept {
  readonly bytes: number;
  asked: boolean;
}

/**
 * Entries bounded in bytes, none over a quarter of the bound. A full cache takes nothing new until as many
 * entries were refused as it holds, then drops those not asked since the last sweep (their owners set `asked` on
 * each use), so a walk through a few more entries than fit keeps serving those that do: dropping the oldest for
 * each new one made a walk through 500 queryVideo pages of 17.5 KB, a little more than fit, miss on every page.
 * The list reads' whole answers (readAnswers.ts).
 */
export class SweptCache<K, V extends Swept> {
  private readonly entries = new Map<K, V>();
  private size = 0;
  /** Entries refused since the last sweep. */
  private refused = 0;

  constructor(private readonly maxBytes: number) {}

  get bytesHeld(): number {
    return this.size;
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** Keeps `entry` under `key` in place of what was there, when it fits. */
  keep(key: K, entry: V): void {
    if (this.admits(key, entry.bytes)) this.put(key, entry);
  }

  /**
   * Whether an entry of `bytes` under `key` would be kept now (what is under `key` goes first), so that its owner
   * makes it only then: a refusal counts toward the next sweep as in `keep`.
   */
  admits(key: K, bytes: number): boolean {
    this.delete(key);
    return bytes <= this.maxBytes / 4 && this.roomFor(bytes);
  }

  /** Keeps an entry `admits` just let in. */
  put(key: K, entry: V): void {
    this.delete(key);
    this.entries.set(key, entry);
    this.size += entry.bytes;
  }

  delete(key: K): void {
    const had = this.entries.get(key);
    if (!had) return;
    this.entries.delete(key);
    this.size -= had.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.size = 0;
    this.refused = 0;
  }

  /** Whether `bytes` more fit, after a sweep when its turn has come. */
  private roomFor(bytes: number): boolean {
    if (this.size + bytes <= this.maxBytes) return true;
    if (++this.refused < this.entries.size) return false;
    this.refused = 0;
    for (const [key, entry] of this.entries) {
      if (entry.asked) entry.asked = false;
      else this.delete(key);
    }
    return this.size + bytes <= this.maxBytes;
  }
}

interface Entry {
  key: string;
  /** Read besides `key` for this record alone (a video's category name). */
  extra: string;
  bytes: Buffer;
  /** Read since the eviction walk last passed it: it gets a second chance. */
  used: boolean;
}

/** What a full cache is brought down to, as a share of its size, when it drops entries. */
const EVICT_TO = 0.75;

export class AnswerCache<R extends object> {
  private readonly entries = new Map<R, Entry>();
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  /** Bytes held now (for tests of the bound). */
  get bytesHeld(): number {
    return this.size;
  }

  /**
   * `,` and the JSON of `make()` for this record, key and extra, as UTF-8 bytes (a list fragment), made once
   * while all three stay the same.
   */
  bytes(record: R, key: string, extra: string, make: () => unknown): Buffer {
    const hit = this.entries.get(record);
    if (hit) {
      if (hit.key === key && hit.extra === extra) {
        // Marked, not moved: a Map move per read cost more than the page it served (second-chance eviction).
        hit.used = true;
        return hit.bytes;
      }
      this.entries.delete(record);
      this.size -= hit.bytes.length;
    }
    const text = `,${JSON.stringify(make())}`;
    // A buffer of its own: a slice of Node's shared pool would keep the whole 8 KiB slab alive past the bound.
    const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
    bytes.write(text);
    this.entries.set(record, { key, extra, bytes, used: false });
    this.size += bytes.length;
    if (this.size > this.maxBytes) this.evict();
    return bytes;
  }

  /**
   * Down to three quarters at once, oldest first; an entry read since it was made or last passed is moved to
   * the end instead (once). One walk per entry made cost more than the JSON (deletes leave slots in the Map).
   */
  private evict(): void {
    const target = this.maxBytes * EVICT_TO;
    for (const [record, entry] of this.entries) {
      if (this.size <= target) break;
      this.entries.delete(record);
      if (entry.used) {
        entry.used = false;
        this.entries.set(record, entry);
      } else {
        this.size -= entry.bytes.length;
      }
    }
  }
}
