/**
 * Where the inspector reads from: an http(s) address through an injected fetch-like port (the CLI passes
 * Node's fetch; the extension passes one that honours VS Code's proxy settings), or a local file path.
 */
import { open, stat } from 'node:fs/promises';
import { isAbsolute, resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { l10n } from '../l10n/l10n';
import type { Delivery } from './model';

/** The part of `fetch` the inspector uses. */
export type FetchPort = (
  url: string,
  init: { method: 'GET' | 'HEAD'; signal?: AbortSignal; headers?: Record<string, string> },
) => Promise<{
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  arrayBuffer(): Promise<ArrayBuffer>;
  /** The body as it arrives (fetch's ReadableStream): read chunk by chunk, so reads can be bounded. */
  readonly body?: {
    getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(reason?: unknown): Promise<void> };
  } | null;
}>;

/** Why a read failed, when it is one of the inspector's own limits rather than the server or the network. */
export type ReadLimit = 'refused' | 'too-large' | 'deadline';

/** A read that failed: the address and why, in words for the report. */
export class ReadError extends Error {
  constructor(
    readonly address: string,
    readonly reason: string,
    readonly status?: number,
    readonly limit?: ReadLimit,
  ) {
    super(`${address}: ${reason}`);
    this.name = 'ReadError';
  }
}

/** What one bounded read returned. */
export interface Chunk {
  readonly data: Buffer;
  /** False when the read stopped at `maxBytes` before the end of the resource. */
  readonly complete: boolean;
}

export interface ReadRequest {
  /** Reads at most this many bytes (a Range request over http; the rest is never downloaded). */
  readonly maxBytes: number;
  /** A byte range of the resource (EXT-X-BYTERANGE). */
  readonly range?: { readonly offset: number; readonly length: number };
  /** Only the start may be read: asked for with a Range header. */
  readonly partial?: boolean;
}

export interface Reader {
  /** Up to `maxBytes` of a resource (or of a byte range of it). */
  read(address: string, request: ReadRequest): Promise<Chunk>;
  /** The whole resource; a ReadError (limit `too-large`) past `maxBytes` (default: `limits.maxFileBytes`). */
  bytes(address: string, maxBytes?: number): Promise<Buffer>;
  /** A playlist: a ReadError (limit `too-large`) past `limits.maxPlaylistBytes` or `limits.maxPlaylistLines`. */
  text(address: string): Promise<string>;
  /** The size without reading the body (HEAD's Content-Length, a file's size); undefined when not cheap. */
  size(address: string): Promise<number | undefined>;
  /** The delivery headers of the last answer for an address (http only; undefined for files or not read). */
  delivery(address: string): Delivery | undefined;
  /** How many requests (or file reads) were made, for the report's `sampled` block. */
  readonly counts: { get: number; head: number; bytes: number };
  readonly limits: ReadLimits;
}

/** The bounds of every read. */
export interface ReadLimits {
  /** A read that receives no byte for this long fails (ms). */
  readonly idleMs: number;
  /** A read that has not finished after this long fails (ms). */
  readonly readMs: number;
  readonly maxPlaylistBytes: number;
  readonly maxPlaylistLines: number;
  /** The largest single media file or key or init section read whole. */
  readonly maxFileBytes: number;
}

export const DEFAULT_LIMITS: ReadLimits = {
  idleMs: 10_000,
  readMs: 20_000,
  maxPlaylistBytes: 4 * 1024 * 1024,
  maxPlaylistLines: 100_000,
  maxFileBytes: 256 * 1024 * 1024,
};

export interface ReaderOptions {
  /** The user's cancel: reads end with an AbortError. */
  readonly signal?: AbortSignal;
  /** The run's deadline: reads end with a ReadError (limit `deadline`). */
  readonly deadline?: AbortSignal;
  /**
   * The address of the input. When it is http(s), only http(s) addresses are read: a remote playlist must not
   * make the inspector read this machine's files.
   */
  readonly input?: string;
  readonly limits?: Partial<ReadLimits>;
}

/** Turns a command-line argument into an absolute address: http(s) and file URLs as they are, paths as file URLs. */
export function toAddress(input: string, cwd = process.cwd()): string {
  if (/^https?:\/\//i.test(input) || /^file:\/\//i.test(input)) return new URL(input).href;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) {
    throw new ReadError(input, 'only http://, https:// addresses and file paths can be inspected');
  }
  return pathToFileURL(isAbsolute(input) ? input : resolvePath(cwd, input)).href;
}

/** Resolves a URI written in a playlist against the playlist's own address (RFC 8216 4.1). */
export function resolveUri(uri: string, base: string): string {
  return new URL(uri, base).href;
}

/** Strips credentials and query from an address for messages (tokens often ride in the query). */
export function displayAddress(address: string): string {
  try {
    const url = new URL(address);
    if (url.protocol === 'file:') return fileURLToPath(url);
    return `${url.protocol}//${url.host}${url.pathname}${url.search ? '?…' : ''}`;
  } catch {
    return address;
  }
}

/** A playlist's bytes as text; a ReadError (limit `too-large`) past the byte or the line limit. */
export function playlistText(
  data: Buffer,
  address: string,
  limits: Pick<ReadLimits, 'maxPlaylistBytes' | 'maxPlaylistLines'>,
): string {
  const tooLarge = (reason: string): ReadError =>
    new ReadError(displayAddress(address), reason, undefined, 'too-large');
  if (data.length > limits.maxPlaylistBytes) {
    throw tooLarge(l10n.t('larger than the {0} bytes the inspector reads of a playlist', limits.maxPlaylistBytes));
  }
  let lines = 0;
  for (let at = data.indexOf(10); at !== -1; at = data.indexOf(10, at + 1)) {
    if (++lines > limits.maxPlaylistLines) {
      throw tooLarge(l10n.t('longer than the {0} lines the inspector reads of a playlist', limits.maxPlaylistLines));
    }
  }
  return data.toString('utf8');
}

/** Reads a response's body chunk by chunk (`onData` after each), stopping once `max` bytes arrived. */
async function readBody(
  response: Awaited<ReturnType<FetchPort>>,
  max: number,
  onData: (bytes: number) => void,
): Promise<Buffer> {
  const body = response.body?.getReader();
  if (!body) {
    const all = Buffer.from(await response.arrayBuffer());
    onData(all.length);
    return all;
  }
  const parts: Buffer[] = [];
  let got = 0;
  while (got < max) {
    const { done, value } = await body.read();
    if (done) break;
    parts.push(Buffer.from(value!));
    got += value!.length;
    onData(value!.length);
  }
  if (got >= max) await body.cancel().catch(() => undefined);
  return Buffer.concat(parts);
}

const cancelled = (): Error => Object.assign(new Error('cancelled'), { name: 'AbortError' });

export function makeReader(fetchPort: FetchPort, options: ReaderOptions = {}): Reader {
  const counts = { get: 0, head: 0, bytes: 0 };
  // Bounded by the number of reads, which the run's limits bound.
  const answers = new Map<string, Delivery>();
  const limits: ReadLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const remote = options.input !== undefined && /^https?:/i.test(options.input);

  const allowed = (address: string): void => {
    const scheme = new URL(address).protocol;
    if (scheme === 'http:' || scheme === 'https:') return;
    if (scheme === 'file:' && !remote) return;
    throw new ReadError(
      displayAddress(address),
      remote
        ? l10n.t('refused: a playlist read over http(s) may name only http:// and https:// addresses, not {0}', scheme)
        : l10n.t('refused: only http://, https:// and local files are read, not {0}', scheme),
      undefined,
      'refused',
    );
  };

  const failure = (address: string, error: unknown): Error => {
    if (options.signal?.aborted) return cancelled();
    if (options.deadline?.aborted) {
      return new ReadError(
        displayAddress(address),
        l10n.t("not read before the run's deadline"),
        undefined,
        'deadline',
      );
    }
    if (error instanceof ReadError) return error;
    const reason = (error as { reason?: unknown }).reason ?? error;
    if (reason instanceof ReadError) return reason;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const detail = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
    return new ReadError(displayAddress(address), l10n.t('could not be fetched ({0})', detail));
  };

  /** One request bounded by the idle time, the read time, the deadline and the user's cancel. */
  const fetchBounded = async (
    address: string,
    method: 'GET' | 'HEAD',
    request?: ReadRequest,
  ): Promise<Chunk & { size?: number }> => {
    const stop = new AbortController();
    const signals = [stop.signal, options.signal, options.deadline].filter((s): s is AbortSignal => s !== undefined);
    const signal = AbortSignal.any(signals);
    const display = displayAddress(address);
    const idleError = new ReadError(display, l10n.t('no data for {0} s', limits.idleMs / 1000));
    let idle = setTimeout(() => stop.abort(idleError), limits.idleMs);
    const total = setTimeout(
      () => stop.abort(new ReadError(display, l10n.t('not read within {0} s', limits.readMs / 1000))),
      limits.readMs,
    );
    const headers: Record<string, string> = {};
    const from = request?.range?.offset ?? 0;
    const want = Math.min(request?.range?.length ?? Infinity, request?.maxBytes ?? Infinity);
    if (request && (request.partial || request.range)) {
      headers.range = `bytes=${from}-${Number.isFinite(want) ? from + want - 1 : ''}`;
    }
    try {
      const response = await fetchPort(address, { method, signal, ...(headers.range ? { headers } : {}) });
      if (response.status < 200 || response.status > 299) {
        await response.body
          ?.getReader()
          .cancel()
          .catch(() => undefined);
        throw new ReadError(display, `HTTP ${response.status}`, response.status);
      }
      answers.set(address, deliveryHeaders(response.headers));
      if (method === 'HEAD') {
        await response.body
          ?.getReader()
          .cancel()
          .catch(() => undefined);
        return { data: Buffer.alloc(0), complete: true, size: Number(response.headers.get('content-length')) };
      }
      // A server that ignores the Range sends the resource from its start: the wanted bytes are cut out here.
      const skip = response.status === 206 ? 0 : from;
      const data = await readBody(response, skip + want, (bytes) => {
        counts.bytes += bytes;
        clearTimeout(idle);
        idle = setTimeout(() => stop.abort(idleError), limits.idleMs);
      });
      const cut = data.subarray(skip, skip + want);
      // The resource's size: from Content-Range (`bytes 0-99/1000`) for a 206, from what arrived otherwise.
      const total = Number(/\/(\d+)\s*$/.exec(response.headers.get('content-range') ?? '')?.[1] ?? NaN);
      const size = response.status === 206 ? total : data.length;
      const end = request?.range ? from + request.range.length : size;
      return { data: cut, complete: Number.isFinite(end) ? from + cut.length >= end : cut.length < want };
    } catch (error) {
      throw failure(address, error);
    } finally {
      clearTimeout(idle);
      clearTimeout(total);
    }
  };

  const readFileBounded = async (address: string, request: ReadRequest): Promise<Chunk> => {
    const path = fileURLToPath(address);
    try {
      const handle = await open(path, 'r');
      try {
        const size = (await handle.stat()).size;
        const from = request.range?.offset ?? 0;
        const end = Math.min(size, from + (request.range?.length ?? size));
        const length = Math.max(0, Math.min(end - from, request.maxBytes));
        const data = Buffer.alloc(length);
        await handle.read(data, 0, length, from);
        counts.bytes += length;
        return { data, complete: from + length >= end };
      } finally {
        await handle.close();
      }
    } catch (error) {
      throw new ReadError(displayAddress(address), (error as NodeJS.ErrnoException).code ?? 'unreadable');
    }
  };

  const read = async (address: string, request: ReadRequest): Promise<Chunk> => {
    if (options.signal?.aborted) throw cancelled();
    allowed(address);
    if (options.deadline?.aborted) throw failure(address, undefined);
    counts.get++;
    return address.startsWith('file:') ? readFileBounded(address, request) : fetchBounded(address, 'GET', request);
  };

  const whole = async (address: string, maxBytes: number): Promise<Buffer> => {
    // One byte more than allowed tells a resource at the limit from one past it.
    const chunk = await read(address, { maxBytes: maxBytes + 1 });
    if (chunk.data.length > maxBytes) {
      throw new ReadError(
        displayAddress(address),
        l10n.t('larger than the {0} bytes the inspector reads', maxBytes),
        undefined,
        'too-large',
      );
    }
    return chunk.data;
  };

  return {
    counts,
    limits,
    read,
    delivery: (address) => answers.get(address),
    bytes: (address, maxBytes = limits.maxFileBytes) => whole(address, maxBytes),
    async text(address) {
      return playlistText(
        await read(address, { maxBytes: limits.maxPlaylistBytes + 1 }).then((c) => c.data),
        address,
        limits,
      );
    },
    async size(address) {
      try {
        allowed(address);
      } catch {
        return undefined;
      }
      if (address.startsWith('file:')) {
        try {
          return (await stat(fileURLToPath(address))).size;
        } catch {
          return undefined;
        }
      }
      counts.head++;
      try {
        const { size } = await fetchBounded(address, 'HEAD');
        return size !== undefined && Number.isFinite(size) && size > 0 ? size : undefined;
      } catch (error) {
        if (options.signal?.aborted) throw error;
        return undefined;
      }
    },
  };
}

/** Node's own fetch as a port (the CLI). */
/** The headers the delivery checks read (checks/delivery.ts). */
function deliveryHeaders(headers: { get(name: string): string | null }): Delivery {
  const pick = (name: string): string | undefined => headers.get(name) ?? undefined;
  const out: { -readonly [K in keyof Delivery]: Delivery[K] } = {};
  const contentType = pick('content-type');
  const contentEncoding = pick('content-encoding');
  const cacheControl = pick('cache-control');
  const allowOrigin = pick('access-control-allow-origin');
  if (contentType !== undefined) out.contentType = contentType;
  if (contentEncoding !== undefined) out.contentEncoding = contentEncoding;
  if (cacheControl !== undefined) out.cacheControl = cacheControl;
  if (allowOrigin !== undefined) out.accessControlAllowOrigin = allowOrigin;
  return out;
}

export const nodeFetch: FetchPort = (url, init) => fetch(url, init);

/** Runs `work` over `items` with at most `limit` at a time, keeping the order of the results. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
