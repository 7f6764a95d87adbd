/**
 * Where the inspector reads from: an http(s) address through an injected fetch-like port (the CLI passes
 * Node's fetch; the extension passes one that honours VS Code's proxy settings), or a local file path.
 */
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { l10n } from '../l10n/l10n';

/** The part of `fetch` the inspector uses. */
export type FetchPort = (
  url: string,
  init: { method: 'GET' | 'HEAD'; signal?: AbortSignal; headers?: Record<string, string> },
) => Promise<{
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  arrayBuffer(): Promise<ArrayBuffer>;
}>;

/** A read that failed: the address and why, in words for the report. */
export class ReadError extends Error {
  constructor(
    readonly address: string,
    readonly reason: string,
    readonly status?: number,
  ) {
    super(`${address}: ${reason}`);
    this.name = 'ReadError';
  }
}

export interface Reader {
  /** The whole resource. */
  bytes(address: string): Promise<Buffer>;
  text(address: string): Promise<string>;
  /** The size without reading the body (HEAD's Content-Length, a file's size); undefined when not cheap. */
  size(address: string): Promise<number | undefined>;
  /** How many requests (or file reads) were made, for the report's `sampled` block. */
  readonly counts: { get: number; head: number; bytes: number };
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

export function makeReader(fetchPort: FetchPort, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Reader {
  const counts = { get: 0, head: 0, bytes: 0 };
  const timeoutMs = options.timeoutMs ?? 20_000;
  const signalFor = (): AbortSignal => {
    const timeout = AbortSignal.timeout(timeoutMs);
    return options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  };
  const request = async (address: string, method: 'GET' | 'HEAD') => {
    try {
      return await fetchPort(address, { method, signal: signalFor() });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const detail = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
      throw new ReadError(displayAddress(address), l10n.t('could not be fetched ({0})', detail));
    }
  };
  return {
    counts,
    async bytes(address) {
      if (address.startsWith('file:')) {
        counts.get++;
        try {
          const data = await readFile(fileURLToPath(address));
          counts.bytes += data.length;
          return data;
        } catch (error) {
          throw new ReadError(displayAddress(address), (error as NodeJS.ErrnoException).code ?? 'unreadable');
        }
      }
      counts.get++;
      const response = await request(address, 'GET');
      if (response.status < 200 || response.status > 299) {
        // Drain so the connection can be reused.
        await response.arrayBuffer().catch(() => undefined);
        throw new ReadError(displayAddress(address), `HTTP ${response.status}`, response.status);
      }
      const data = Buffer.from(await response.arrayBuffer());
      counts.bytes += data.length;
      return data;
    },
    async text(address) {
      return (await this.bytes(address)).toString('utf8');
    },
    async size(address) {
      if (address.startsWith('file:')) {
        try {
          return (await stat(fileURLToPath(address))).size;
        } catch {
          return undefined;
        }
      }
      counts.head++;
      try {
        const response = await request(address, 'HEAD');
        if (response.status < 200 || response.status > 299) return undefined;
        const length = Number(response.headers.get('content-length'));
        return Number.isFinite(length) && length > 0 ? length : undefined;
      } catch (error) {
        if (options.signal?.aborted) throw error;
        return undefined;
      }
    },
  };
}

/** Node's own fetch as a port (the CLI). */
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
