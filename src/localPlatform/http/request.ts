/**
 * Where parameters travel (facts section 2): the query string, an urlencoded or multipart form body
 * (merged with the query), and for liveCreateChannel / liveUpdate a JSON body. An empty body and a
 * literal `null` body are both normal.
 */
import type { IncomingMessage } from 'node:http';
import { Codes } from '../../api/errorCodes';
import { PlatformFault } from './faults';
import { boundaryOf, parseMultipart } from './multipart';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const MAX_PARAMS = 200;

export interface ParsedRequest {
  /** Query and form parameters (the signed ones). */
  pairs: RequestParams;
  /** The same as an object with no prototype (made on first use). */
  readonly params: Record<string, string>;
  /** The JSON body, when one was sent (undefined for none or `null`). */
  json: unknown;
}

export class BodyTooLarge extends PlatformFault {
  constructor(
    limit: number,
    /** True when the body was not read, so the connection must close after answering. */
    readonly unread: boolean,
  ) {
    super(Codes.bodyTooLarge, `the request body is larger than the limit of ${limit} bytes`);
  }
}

/** The client closed the connection before its request body was complete: nobody to answer. */
export class ClientGone extends Error {
  constructor() {
    super('the client closed the connection before sending the whole request body');
    this.name = 'ClientGone';
  }
}

/**
 * Reads the body up to `limit` bytes. A larger body is drained (up to 16 times the limit) and then
 * refused, so the client can read the answer; anything bigger is refused without reading it.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  const drainCap = limit * 16;
  if (Number.isFinite(declared) && declared > drainCap) return Promise.reject(new BodyTooLarge(limit, true));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > drainCap) {
        req.pause();
        reject(new BodyTooLarge(limit, true));
        return;
      }
      if (size > limit) {
        over = true;
        chunks.length = 0;
      } else if (!over) {
        chunks.push(chunk);
      }
    });
    req.on('end', () => (over ? reject(new BodyTooLarge(limit, false)) : resolve(Buffer.concat(chunks))));
    // A disconnect mid-body ends in 'error' (ECONNRESET "aborted") or a 'close' without 'end'.
    req.on('error', () => reject(new ClientGone()));
    req.on('close', () => {
      if (!req.complete) reject(new ClientGone());
    });
  });
}

function malformed(detail: string): PlatformFault {
  return new PlatformFault(Codes.bodyMalformed, detail);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeText(body: Buffer): string {
  try {
    return utf8.decode(body);
  } catch {
    throw malformed('the request body is not valid UTF-8 text');
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const why = error instanceof Error ? error.message : 'syntax error';
    throw malformed(`the request body is not valid JSON (${why})`);
  }
}

/** A body that carries nothing, whatever its declared type: empty, blanks, or a literal `null`. */
function carriesNothing(body: Buffer): boolean {
  const blank = (b: number | undefined): boolean => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
  let from = 0;
  let to = body.length;
  while (from < to && blank(body[from])) from++;
  while (to > from && blank(body[to - 1])) to--;
  return to === from || (to - from === 4 && body.toString('latin1', from, to) === 'null');
}

/**
 * JSON text of an object or array, or undefined when the text is not JSON (it is then read as the
 * declared form instead): a client that labels its JSON body as a form still gets it read as JSON.
 */
function jsonIfJson(text: string): unknown {
  if (!/^[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A request's parameters (query and form) as they were gathered: each name once, in the order it first came, and
 * its value, in two lists read by a scan (a handful of names; at most MAX_PARAMS are kept), so that the checks of
 * every request make no object keyed by names the client chose. Handlers read them as an object (`record`).
 */
export class RequestParams {
  readonly names: string[] = [];
  readonly values: string[] = [];
  /** Pairs given, repeats included. */
  count = 0;
  /** The first name given twice with different values (refused once the count is known to be within bounds). */
  conflict: string | undefined;
  private asRecord: Record<string, string> | undefined;

  get(name: string): string | undefined {
    const i = this.names.indexOf(name);
    return i < 0 ? undefined : this.values[i];
  }

  /** The parameters as an object with no prototype, made on first use (the handlers' Fields read it). */
  get record(): Record<string, string> {
    if (!this.asRecord) {
      const record = Object.create(null) as Record<string, string>;
      for (let i = 0; i < this.names.length; i++) record[this.names[i]] = this.values[i];
      this.asRecord = record;
    }
    return this.asRecord;
  }

  add(value: string, name: string): void {
    // Past the bound the request is refused (finish): nothing more is kept or compared.
    if (++this.count > MAX_PARAMS) return;
    const i = this.names.indexOf(name);
    if (i < 0) {
      this.names.push(name);
      this.values.push(value);
    } else if (this.values[i] !== value) this.conflict ??= name;
  }

  addAll(pairs: Iterable<[string, string]>): void {
    for (const [name, value] of pairs) this.add(value, name);
  }
}

/** URLSearchParams.forEach's callback, called with the RequestParams as `this` (no closure made per request). */
function gather(this: RequestParams, value: string, name: string): void {
  this.add(value, name);
}

/**
 * The pairs of a query of printable ASCII with no `%` and no `+` (what clients send for plain values): nothing in
 * it is decoded, so each name and value is its text as written, which is what URLSearchParams would give, and
 * they are cut out with indexOf and slice alone. As URLSearchParams: a leading `?` dropped, empty pairs skipped,
 * a pair without `=` a name with an empty value.
 */
function gatherPlain(query: string, pairs: RequestParams): void {
  let from = query.charCodeAt(0) === 0x3f ? 1 : 0;
  // The next `=` at or after `from`, found again only once passed (one pass over the query, not one per pair).
  let eq = -1;
  while (from < query.length) {
    let end = query.indexOf('&', from);
    if (end < 0) end = query.length;
    if (end > from) {
      if (eq < from) eq = query.indexOf('=', from);
      if (eq >= 0 && eq < end) pairs.add(query.slice(eq + 1, end), query.slice(from, eq));
      else pairs.add('', query.slice(from, end));
    }
    from = end + 1;
  }
}

/** The request target's parameters; the query as written when nothing in it is decoded (normalise.ts). */
export interface QueryOf {
  readonly searchParams: URLSearchParams;
  readonly unescapedQuery?: string | undefined;
}

export function parseRequest(
  target: QueryOf,
  contentTypeHeader: string | undefined,
  body: Buffer,
  jsonAction: boolean,
): ParsedRequest {
  const pairs = new RequestParams();
  const unescaped = target.unescapedQuery;
  if (unescaped !== undefined) gatherPlain(unescaped, pairs);
  else target.searchParams.forEach(gather, pairs);
  // No body (every GET): nothing more to read.
  if (body.length === 0) return finish(pairs, undefined);
  let json: unknown;
  const contentType = (contentTypeHeader ?? '').toLowerCase();
  // An empty or `null` body is normal for every operation and every content type (facts section 2).
  const text = body.length > 0 && !carriesNothing(body) ? body : undefined;
  if (text) {
    if (contentType.startsWith('multipart/form-data')) {
      const boundary = boundaryOf(contentTypeHeader ?? '');
      const fields = boundary ? parseMultipart(body, boundary) : undefined;
      if (!fields) throw malformed('the multipart/form-data body cannot be read (bad boundary or part)');
      pairs.addAll(fields);
    } else {
      const decoded = decodeText(body).trim();
      const declaredForm = contentType.startsWith('application/x-www-form-urlencoded');
      const asJson = declaredForm ? jsonIfJson(decoded) : undefined;
      if (declaredForm && asJson === undefined) {
        pairs.addAll(new URLSearchParams(decoded));
      } else if (
        asJson !== undefined ||
        /^[[{"]/.test(decoded) ||
        (contentType.includes('json') && !/^[^=&\s{["]+=/.test(decoded))
      ) {
        const value = asJson !== undefined ? asJson : parseJson(decoded);
        // Only the channel operations take a JSON body; elsewhere `{}` or `[]` carries nothing.
        if (jsonAction) json = value === null ? undefined : value;
      } else if (/^[^=&\s]+=/.test(decoded)) {
        // A form body sent without its content type, or labelled as JSON.
        pairs.addAll(new URLSearchParams(decoded));
      } else {
        throw malformed('the request body is neither JSON nor form data');
      }
    }
  }
  return finish(pairs, json);
}

class Parsed implements ParsedRequest {
  constructor(
    readonly pairs: RequestParams,
    readonly json: unknown,
  ) {}

  get params(): Record<string, string> {
    return this.pairs.record;
  }
}

function finish(pairs: RequestParams, json: unknown): ParsedRequest {
  if (pairs.count > MAX_PARAMS)
    throw new PlatformFault(Codes.parameterInvalid, `a request may carry at most ${MAX_PARAMS} parameters`);
  if (pairs.conflict !== undefined) {
    throw new PlatformFault(Codes.parameterInvalid, `${pairs.conflict} is given more than once with different values`);
  }
  return new Parsed(pairs, json);
}
