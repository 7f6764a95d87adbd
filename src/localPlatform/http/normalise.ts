/**
 * The first step of every request: the target read as a path, and the Host and Origin headers
 * checked. A web page can reach a loopback server through a host name it controls (DNS rebinding)
 * or post a form to it; only the names the platform listens on (and configured ones) are served,
 * and a request sent by a page of another origin is refused.
 */
import type { IncomingMessage } from 'node:http';
import { networkInterfaces } from 'node:os';
import { Codes } from '../../api/errorCodes';
import { HttpFault } from './answer';

export interface Incoming {
  method: string;
  /** The target as a URL (made on first use: the REST route reads only the query's parameters). */
  readonly url: URL;
  /** The query's parameters, in order. */
  readonly searchParams: URLSearchParams;
  /** The query without its `?` as written, when it is printable ASCII with nothing to decode (no `%`, no `+`). */
  readonly unescapedQuery: string | undefined;
  /** The path with repeated slashes made one. */
  path: string;
  /** The host name the client used (no port, no brackets), for addresses in answers. */
  hostName: string | undefined;
}

/**
 * A path of plain segments (no empty, `.` or `..` one, nothing percent-encoded) and a query of printable ASCII
 * without `#`: read as they are, the path is what the URL parser's pathname would be and the query's parameters
 * what its searchParams would hold, so no URL object is made per request. Anything else goes through `URL`.
 */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+\/?$|^\/$/;
const PLAIN_QUERY = /^[\x21\x22\x24-\x7e]*$/;
/** The same without `%` and `+`: nothing in it is decoded (request.ts reads it as written). Tested first. */
const UNESCAPED_QUERY = /^[\x21\x22\x24\x26-\x2a\x2c-\x7e]*$/;

class Target implements Incoming {
  private parsedUrl: URL | undefined;
  private params: URLSearchParams | undefined;

  constructor(
    readonly method: string,
    readonly path: string,
    readonly hostName: string | undefined,
    private readonly target: string,
    /** The query without its `?`, when the target was read without URL. */
    private readonly plainQuery: string | undefined,
    readonly unescapedQuery: string | undefined,
    url: URL | undefined,
  ) {
    this.parsedUrl = url;
  }

  get url(): URL {
    this.parsedUrl ??= readTarget(this.target);
    return this.parsedUrl;
  }

  get searchParams(): URLSearchParams {
    this.params ??= this.plainQuery !== undefined ? new URLSearchParams(this.plainQuery) : this.url.searchParams;
    return this.params;
  }
}

export const WILDCARD_HOSTS: ReadonlySet<string> = new Set(['0.0.0.0', '::', '']);

/** Lower case, no brackets, no trailing dot. */
function canonicalHost(name: string): string {
  return name
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
}

/**
 * The host names a request may name: loopback, the bound address, every interface address when
 * bound to all of them, and the configured extra names.
 */
export function allowedHostNames(bound: string, extra: readonly string[] = []): ReadonlySet<string> {
  const names = new Set(['127.0.0.1', 'localhost', '::1']);
  if (WILDCARD_HOSTS.has(bound)) {
    for (const list of Object.values(networkInterfaces()))
      for (const a of list ?? []) names.add(canonicalHost(a.address));
  } else {
    names.add(canonicalHost(bound));
  }
  for (const name of extra) names.add(canonicalHost(name));
  return names;
}

/** The host name of a Host header value (`name`, `name:port`, `[v6]:port`); undefined if unreadable. */
function hostOf(header: string): string | undefined {
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)(?::\d*)?$/.exec(header.trim());
  return m ? canonicalHost(m[1]) : undefined;
}

/** Host header values a server remembers (each with every port a client may write is a new value). */
const MAX_HOST_VALUES = 64;

/**
 * The host names a server answers to, and the Host header values already read to one of them: most requests
 * name the Host the previous one did, so theirs is one lookup, not a parse. Only allowed values are remembered,
 * and at most MAX_HOST_VALUES of them; any other value is read and checked as the first one was.
 */
export class HostNames {
  private readonly known = new Map<string, string>();

  constructor(readonly allowed: ReadonlySet<string>) {}

  /** The allowed host name a Host header value names; undefined when it names none. */
  nameOf(header: string): string | undefined {
    const known = this.known.get(header);
    if (known !== undefined) return known;
    const name = hostOf(header);
    if (name === undefined || !this.allowed.has(name)) return undefined;
    if (this.known.size < MAX_HOST_VALUES) this.known.set(header, name);
    return name;
  }
}

function refused(detail: string): HttpFault {
  return new HttpFault(403, Codes.requestNotAllowed, detail);
}

function readTarget(target: string): URL {
  try {
    // An origin-form target is read as a path even when it starts with `//` (a base address given
    // with a trailing slash: `http://host:port/` + `/rest`), never as a host name. An absolute-form
    // target (through a proxy) is routed by its path.
    return target.startsWith('/') ? new URL(`http://local.invalid${target}`) : new URL(target);
  } catch {
    return new URL('http://local.invalid/unreadable');
  }
}

/**
 * Reads and checks the request line and the Host / Origin headers; throws an HttpFault to refuse.
 * `anyOrigin(path, method)` names the requests that pages of every origin may make (reading the media
 * files, served with CORS like a CDN's); their Host is checked all the same.
 */
export function normalise(
  req: IncomingMessage,
  hosts: HostNames,
  anyOrigin: (path: string, method: string) => boolean = () => false,
): Incoming {
  const target = req.url ?? '/';
  const mark = target.indexOf('?');
  const plainPath = mark < 0 ? target : target.slice(0, mark);
  const query = mark < 0 ? '' : target.slice(mark + 1);
  const unescaped = UNESCAPED_QUERY.test(query);
  const plain = PLAIN_PATH.test(plainPath) && (unescaped || PLAIN_QUERY.test(query));
  const url = plain ? undefined : readTarget(target);
  // Repeated slashes are one, as web servers in front of the real service treat them.
  const path = url ? url.pathname.replace(/\/{2,}/g, '/') : plainPath;
  const method = req.method ?? '';
  const hostHeader = req.headers.host;
  let hostName: string | undefined;
  if (hostHeader !== undefined) {
    hostName = hosts.nameOf(hostHeader);
    if (hostName === undefined) {
      throw refused(
        `the Host ${JSON.stringify(hostHeader.slice(0, 100))} is not a name of this local platform ` +
          `(allowed: ${[...hosts.allowed].join(', ')}; add others with --allowed-host / allowedHosts)`,
      );
    }
  }
  if (url && url.hostname !== 'local.invalid' && !hosts.allowed.has(canonicalHost(url.hostname))) {
    throw refused(`the request's address names the host ${url.hostname.slice(0, 100)}, not this local platform`);
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !anyOrigin(path, method)) {
    let originHost: string | undefined;
    try {
      originHost = canonicalHost(new URL(origin).hostname);
    } catch {
      originHost = undefined;
    }
    if (originHost === undefined || originHost === '' || !hosts.allowed.has(originHost)) {
      throw refused(`requests from web pages of another origin (${origin.slice(0, 100)}) are not accepted`);
    }
  }
  const plainQuery = plain ? query : undefined;
  return new Target(method, path, hostName, target, plainQuery, unescaped ? plainQuery : undefined, url);
}
