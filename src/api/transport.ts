/**
 * One HTTP exchange with `{base_url}/rest`, over a keep-alive dispatcher the client owns:
 * an undici Pool for the platform's origin, or a proxy agent when a proxy applies (./proxy.ts).
 * Every failure becomes a TransportError with its own kind and a message naming action and address.
 */
import { maxHeaderSize, type IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { trustedCertificates } from './certificates';
import { TransportError, mayHaveBeenCarriedOut } from './errors';
import { chooseProxy } from './proxy';
import { retryAfterMs } from './retry';
import { loadUndici, type Dispatcher } from './undici';

export interface TransportTimeouts {
  connectMs: number;
  /** Wait for the response headers. */
  headersMs: number;
  /**
   * The whole answer: from the start of an attempt to the last byte of the body. A deadline, not
   * the silence allowed between chunks, so a server that trickles a byte now and then cannot hold
   * a call for ever.
   */
  bodyMs: number;
}

export interface TransportOptions {
  /** `http(s)://host:port` of the platform. */
  origin: string;
  timeouts: TransportTimeouts;
  /** Explicit proxy; when absent the proxy environment variables are honoured. */
  proxy?: string;
  /** Hosts reached without the proxy (NO_PROXY syntax); when absent, NO_PROXY / no_proxy. */
  noProxy?: string;
  /** The whole Proxy-Authorization value sent to the proxy (CONNECT and plain-http forwarding). */
  proxyAuthorization?: string;
  /** Verify the TLS certificates of the platform and of an https:// proxy. */
  rejectUnauthorized: boolean;
  /** CA certificates (PEM) trusted besides Node's defaults. */
  ca?: readonly string[];
  /** The largest answer body read; a longer one is abandoned as soon as the limit is passed. */
  maxAnswerBytes: number;
  /** Connections kept per origin. */
  connections?: number;
}

export interface Exchange {
  action: string;
  /** `{base_url}/rest` for messages (no query string). */
  url: string;
  method: 'GET' | 'POST';
  /** Path with the query string. */
  path: string;
  /** Never changed here (a proxy agent adds to a copy). */
  headers?: Readonly<Record<string, string>>;
  /** A text body, or a streamed one (an upload: read as the connection takes it). */
  body?: string | Readable;
  signal?: AbortSignal;
}

export interface Answer {
  status: number;
  text: string;
}

/** A proxy URL without user name or password, for messages. */
function displayProxy(proxy: string): string {
  try {
    const url = new URL(proxy);
    return `${url.protocol}//${url.host}`;
  } catch {
    return 'the configured proxy';
  }
}

type TunnelRequest = Omit<Dispatcher.ConnectOptions, 'origin'>;

interface UndiciParts {
  Pool: ReturnType<typeof loadUndici>['Pool'];
  ProxyAgent: ReturnType<typeof loadUndici>['ProxyAgent'];
  /** The connection to a proxy; see below. */
  ProxyConnection: new (origin: URL, options: object, tunnelTimeoutMs: number) => Dispatcher;
}

let parts: UndiciParts | undefined;

/** undici's classes, and the proxy connection built on its Pool, made when the first client is. */
function undiciParts(): UndiciParts {
  if (parts) return parts;
  const { Pool, ProxyAgent, errors } = loadUndici();

  /**
   * The connection to a proxy, which opens CONNECT tunnels for https:// platforms. The proxy's
   * answer to CONNECT must come within the connect timeout (undici's default would be 300 s, far
   * beyond every configured timeout), and running out of it is reported as the connect timeout it is.
   */
  class ProxyConnection extends Pool {
    constructor(
      origin: URL,
      options: object,
      private readonly tunnelTimeoutMs: number,
    ) {
      super(origin, { ...options, headersTimeout: tunnelTimeoutMs });
    }

    override connect(options: TunnelRequest): Promise<Dispatcher.ConnectData>;
    override connect(options: TunnelRequest, callback: (err: Error | null, data: Dispatcher.ConnectData) => void): void;
    override connect(
      options: TunnelRequest,
      callback?: (err: Error | null, data: Dispatcher.ConnectData) => void,
    ): Promise<Dispatcher.ConnectData> | void {
      if (callback) return super.connect(options, callback);
      return super.connect(options).catch((error: unknown) => {
        if (errorCode(error) === 'UND_ERR_HEADERS_TIMEOUT') {
          throw new errors.ConnectTimeoutError(
            `the proxy did not open the tunnel within ${seconds(this.tunnelTimeoutMs)}`,
          );
        }
        throw error;
      });
    }
  }

  return (parts = { Pool, ProxyAgent, ProxyConnection });
}

/** Why a body was abandoned when the deadline passed (never shown: the message says it). */
const DEADLINE_PASSED = new Error('the deadline for the whole answer passed');

/**
 * An answer whose body is read against its deadline (TransportTimeouts.bodyMs): until the headers arrive,
 * undici's headers timeout governs (and names that wait); from then on the body is abandoned when the
 * deadline passes, however steadily it trickles in. The watch keeps them in a list linked through the
 * answers themselves (no object, closure or set entry made per call).
 */
interface WatchedAnswer {
  /** When the body is abandoned (performance.now() time). */
  at: number;
  prev: WatchedAnswer | undefined;
  next: WatchedAnswer | undefined;
  expire(): void;
}

/**
 * One timer for all the answers a transport reads, set for the earliest deadline, instead of a
 * timer set and cleared per call (bench/client.bench.ts: per-call work is what the client adds to
 * undici). Calls end long before their deadline, so the timer rarely fires; when it does, it
 * abandons the answers whose deadline passed and is set again for the next one.
 */
class DeadlineWatch {
  private first: WatchedAnswer | undefined;
  private timer?: NodeJS.Timeout;
  /** The deadline the timer is set for. */
  private timerAt = Infinity;

  add(answer: WatchedAnswer): void {
    answer.prev = undefined;
    answer.next = this.first;
    if (this.first) this.first.prev = answer;
    this.first = answer;
    if (answer.at < this.timerAt) this.arm(answer.at);
  }

  /**
   * The timer stays set when the last answer ends: cleared there, it was set and cleared again for nearly
   * every call (answers rarely overlap), 1.5 µs a call in the client bench's profile. Left alone it fires
   * once, finds nothing due and is not set again; unref'd, it keeps no process alive.
   */
  delete(answer: WatchedAnswer): void {
    if (answer.prev) answer.prev.next = answer.next;
    else if (this.first === answer) this.first = answer.next;
    if (answer.next) answer.next.prev = answer.prev;
    answer.prev = answer.next = undefined;
  }

  private arm(at: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.sweep(), Math.max(0, at - performance.now()));
    this.timer.unref();
  }

  private sweep(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (let answer = this.first; answer !== undefined;) {
      const following = answer.next;
      if (answer.at <= now) {
        this.delete(answer);
        answer.expire();
      } else if (answer.at < next) {
        next = answer.at;
      }
      answer = following;
    }
    if (next !== Infinity) this.arm(next);
  }
}

export class Transport {
  readonly dispatcher: Dispatcher;
  private readonly origin: string;
  private readonly timeouts: TransportTimeouts;
  private readonly maxAnswerBytes: number;
  /** Set when requests may go through a proxy: named in network error messages. */
  private readonly proxyNote: string;
  /** The proxy (without credentials), when one is used. */
  private readonly proxyName?: string;
  private readonly deadlines = new DeadlineWatch();

  constructor(options: TransportOptions) {
    this.origin = options.origin;
    this.timeouts = options.timeouts;
    this.maxAnswerBytes = options.maxAnswerBytes;
    const connections = options.connections ?? 8;
    const connectTimeout = options.timeouts.connectMs;
    const ca = trustedCertificates(options.ca);
    const tls = { rejectUnauthorized: options.rejectUnauthorized, ...(ca ? { ca } : {}) };
    const choice = chooseProxy(options.origin, options.proxy, options.noProxy);
    const { Pool, ProxyAgent, ProxyConnection } = undiciParts();
    if (choice.proxy !== undefined) {
      this.dispatcher = new ProxyAgent({
        uri: choice.proxy,
        ...(options.proxyAuthorization !== undefined ? { token: options.proxyAuthorization } : {}),
        // Plain-http targets go to the proxy as absolute-form requests, which every forward proxy
        // understands; https targets still tunnel with CONNECT (undici decides by protocol).
        proxyTunnel: false,
        connections,
        connectTimeout,
        proxyTls: { ...tls, timeout: connectTimeout },
        requestTls: { ...tls, timeout: connectTimeout },
        clientFactory: (origin: URL, clientOptions: object) =>
          new ProxyConnection(origin, clientOptions, connectTimeout),
      });
      this.proxyName = displayProxy(choice.proxy);
      this.proxyNote = ` through proxy ${this.proxyName}${choice.source === 'environment' ? ' (from the environment)' : ''}`;
    } else {
      this.dispatcher = new Pool(options.origin, { connections, connectTimeout, connect: tls });
      this.proxyNote = '';
    }
  }

  /**
   * Sends one request and reads the whole answer; rejects with a TransportError for anything but a 2xx.
   * Through undici's dispatch with a handler of its own (AnswerReader) rather than `request()`: no body
   * stream, async resource or consuming promises a call (bench/README.md).
   */
  exchange(x: Exchange): Promise<Answer> {
    if (x.signal?.aborted) return Promise.reject(aborted(x, x.signal.reason));
    return new Promise<Answer>((resolve, reject) => {
      this.dispatcher.dispatch(
        {
          origin: this.origin,
          path: x.path,
          method: x.method,
          // A proxy agent adds a host header to the object it is given.
          headers: this.proxyName !== undefined && x.headers !== undefined ? { ...x.headers } : x.headers,
          body: x.body,
          headersTimeout: this.timeouts.headersMs,
          // The deadline for the whole answer bounds the body instead.
          bodyTimeout: 0,
        },
        new AnswerReader(this, x, resolve, reject),
      );
    });
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }

  /** @internal for AnswerReader */
  get answerLimit(): number {
    return this.maxAnswerBytes;
  }

  /** @internal for AnswerReader */
  get answerMs(): number {
    return this.timeouts.bodyMs;
  }

  /** @internal for AnswerReader */
  get deadlineWatch(): DeadlineWatch {
    return this.deadlines;
  }

  /** @internal for AnswerReader: the answer's status as a TransportError. */
  statusError(status: number, headers: IncomingHttpHeaders, x: Exchange): TransportError {
    const retryAfter = status === 503 ? retryAfterMs(headers['retry-after']) : undefined;
    const wait = retryAfter === undefined ? '' : ` (it asks to try again after ${Math.ceil(retryAfter / 1000)} s)`;
    return new TransportError(
      'http-status',
      `${x.action}: ${x.url} answered HTTP ${status}${statusText(status)} instead of 200${wait}${redirectHint(status, headers, x.url)}${status >= 500 ? mayHaveBeenCarriedOut(x.method) : ''}`,
      x.action,
      x.url,
      retryAfter === undefined ? { status } : { status, retryAfterMs: retryAfter },
    );
  }

  /**
   * @internal for AnswerReader: maps an undici / socket failure to a TransportError; `stage` tells whether
   * headers had arrived.
   */
  classify(error: unknown, x: Exchange, stage: 'headers' | 'body', deadlinePassed: boolean): TransportError {
    if (error instanceof TransportError) return error;
    if (x.signal?.aborted) return aborted(x, error);
    const { action, url } = x;
    const note = mayHaveBeenCarriedOut(x.method);
    if (deadlinePassed) {
      return new TransportError(
        'timeout',
        `${action}: ${url}${this.proxyNote} did not send its whole answer within ${seconds(this.timeouts.bodyMs)} (timeout for the whole answer)${note}`,
        action,
        url,
        { phase: 'body' },
      );
    }
    const code = errorCode(error);
    const details = { cause: error };
    const message = error instanceof Error ? error.message : '';
    const tunnel = /^Proxy response \((\d+)\) !== 200 when HTTP Tunneling/.exec(message);
    if (tunnel) {
      const status = Number(tunnel[1]);
      const hint = status === 407 ? `; ${PROXY_CREDENTIALS}` : '';
      return new TransportError(
        'network',
        `${action}: proxy ${this.proxyName ?? ''} refused to open a tunnel to ${url} (HTTP ${status}${statusText(status)})${hint}`,
        action,
        url,
        details,
      );
    }
    if (code === 'UND_ERR_INVALID_ARG' && /\(407\)/.test(message) && this.proxyName !== undefined) {
      // A forward proxy's 407 to a plain-http request: undici ends it with this error.
      return new TransportError(
        'network',
        `${action}: proxy ${this.proxyName} refused to forward the request to ${url} (HTTP 407 Proxy Authentication Required); ${PROXY_CREDENTIALS}`,
        action,
        url,
        details,
      );
    }
    switch (code) {
      case 'UND_ERR_CONNECT_TIMEOUT':
        return new TransportError(
          'timeout',
          `${action}: could not connect to ${url}${this.proxyNote} within ${seconds(this.timeouts.connectMs)} (connect timeout)`,
          action,
          url,
          { ...details, phase: 'connect' },
        );
      case 'UND_ERR_HEADERS_TIMEOUT':
        return new TransportError(
          'timeout',
          `${action}: ${url}${this.proxyNote} did not answer within ${seconds(this.timeouts.headersMs)} (headers timeout)${note}`,
          action,
          url,
          { ...details, phase: 'headers' },
        );
      case 'UND_ERR_HEADERS_OVERFLOW':
        return new TransportError(
          'too-large',
          `${action}: ${url}${this.proxyNote} answered with headers larger than ${bytes(maxHeaderSize)}, which the client does not read${note}`,
          action,
          url,
          details,
        );
      case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
        return truncated(x, details);
      case 'UND_ERR_SOCKET':
      case 'ECONNRESET':
      case 'EPIPE':
        if (stage === 'body') return truncated(x, details);
        return new TransportError(
          'reset',
          `${action}: ${url} closed the connection without answering (connection reset)${note}`,
          action,
          url,
          details,
        );
      case 'ERR_SSL_WRONG_VERSION_NUMBER':
        return new TransportError(
          'tls',
          `${action}: the TLS handshake with ${url}${this.proxyNote} failed: the server does not speak HTTPS there (should the address start with http://?)`,
          action,
          url,
          details,
        );
      case 'ECONNREFUSED':
        return new TransportError(
          'network',
          `${action}: could not reach ${url}${this.proxyNote}: the connection was refused (is the platform running?)`,
          action,
          url,
          details,
        );
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return new TransportError(
          'network',
          `${action}: could not reach ${url}${this.proxyNote}: the host name could not be resolved`,
          action,
          url,
          details,
        );
      default:
        if (code !== undefined && CERTIFICATE_ERROR.test(code)) {
          // Node's own text ("self-signed certificate", "certificate has expired") is safe to show.
          const reason = message ? `${code}: ${message}` : code;
          return new TransportError(
            'tls',
            `${action}: the TLS certificate of ${url}${this.proxyNote} was not accepted (${reason}); if a company proxy inspects HTTPS, trust its CA certificate (the ca option; in VS Code, http.systemCertificates or NODE_EXTRA_CA_CERTS)`,
            action,
            url,
            details,
          );
        }
        if (code?.startsWith('HPE_') || (error instanceof Error && error.name === 'HTTPParserError')) {
          return new TransportError(
            'network',
            `${action}: ${url} did not answer in HTTP/1.1${note}`,
            action,
            url,
            details,
          );
        }
        return new TransportError(
          'network',
          `${action}: could not reach ${url}${this.proxyNote} (${code ?? (error instanceof Error ? error.name : 'network error')})`,
          action,
          url,
          details,
        );
    }
  }
}

/** How much of an error page (a non-2xx answer) is read and dropped before the connection is closed instead. */
const ERROR_BODY_READ = 128 * 1024;

const BOM = 0xfeff;

/**
 * One exchange's handler for undici's dispatch: collects a 2xx body (within maxAnswerBytes) and settles
 * the exchange's promise once, with the answer or a TransportError. A non-2xx answer is its status: its
 * body (an error page, often from a proxy) is read and dropped, so a body that stalls or is cut off does
 * not hide the status (a 5xx stays retryable). Its methods never throw (undici calls them).
 */
class AnswerReader implements Dispatcher.DispatchHandler, WatchedAnswer {
  /** The start of the attempt, from which the deadline for the whole answer counts. */
  private readonly started = performance.now();
  at = Infinity;
  prev: WatchedAnswer | undefined = undefined;
  next: WatchedAnswer | undefined = undefined;
  /** Set once the deadline passed and the body was abandoned. */
  private expired = false;
  private watched = false;
  private controller?: Dispatcher.DispatchController;
  private settled = false;
  /** 0 until the answer's headers arrive. */
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  /** The declared Content-Length of a 2xx answer, or -1. */
  private declared = -1;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly onAbort?: () => void;

  constructor(
    private readonly transport: Transport,
    private readonly x: Exchange,
    private readonly resolve: (answer: Answer) => void,
    private readonly reject: (error: TransportError) => void,
  ) {
    const { signal } = x;
    if (signal) {
      this.onAbort = () => {
        this.fail(aborted(x, signal.reason));
        this.controller?.abort(signal.reason as Error);
      };
      signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // Cancelled while queued: the request is not sent.
    if (this.settled) controller.abort(this.x.signal?.reason as Error);
  }

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    if (this.settled || status < 200) return;
    this.status = status;
    this.headers = headers;
    this.watch();
    if (status > 299) return;
    const declared = Number(headers['content-length']);
    if (declared >= 0) this.declared = declared;
    if (declared > this.transport.answerLimit) this.stop(controller, tooLarge(this.x, this.transport.answerLimit));
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    this.size += chunk.length;
    if (this.status > 299) {
      if (this.size > ERROR_BODY_READ)
        this.stop(controller, this.transport.statusError(this.status, this.headers, this.x));
      return;
    }
    // A declared length within the limit bounds the body already (the HTTP parser reads no more than it says).
    if (this.declared < 0 && this.size > this.transport.answerLimit) {
      this.stop(controller, tooLarge(this.x, this.transport.answerLimit));
      return;
    }
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.settled) return;
    if (this.status > 299) {
      this.fail(this.transport.statusError(this.status, this.headers, this.x));
      return;
    }
    const { chunks } = this;
    let text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.size)).toString('utf8');
    // As undici's body.text() did: a UTF-8 byte order mark is no part of the text.
    if (text.charCodeAt(0) === BOM) text = text.slice(1);
    this.settle();
    this.resolve({ status: this.status, text });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.settled) return;
    const { x } = this;
    if (this.status > 299) {
      this.fail(x.signal?.aborted ? aborted(x, error) : this.transport.statusError(this.status, this.headers, x));
      return;
    }
    this.fail(this.transport.classify(error, x, this.status === 0 ? 'headers' : 'body', this.expired));
  }

  /**
   * From the answer's headers on, the body is abandoned when the deadline passes. For a streamed request
   * body (an upload), whose sending may take far longer than any answer, the deadline counts from the
   * answer's headers; while it is sent, undici's headers timeout still ends a send that stalls.
   */
  private watch(): void {
    const streamed = this.x.body !== undefined && typeof this.x.body !== 'string';
    this.at = (streamed ? performance.now() : this.started) + this.transport.answerMs;
    this.watched = true;
    this.transport.deadlineWatch.add(this);
  }

  /** @internal for DeadlineWatch: the deadline passed. */
  expire(): void {
    this.watched = false;
    this.expired = true;
    this.controller?.abort(DEADLINE_PASSED);
  }

  /** Settles with `error` and closes the connection (the rest of the answer is not read). */
  private stop(controller: Dispatcher.DispatchController, error: TransportError): void {
    this.fail(error);
    controller.abort(error);
  }

  private fail(error: TransportError): void {
    if (this.settled) return;
    this.settle();
    this.reject(error);
  }

  private settle(): void {
    this.settled = true;
    if (this.watched) {
      this.watched = false;
      this.transport.deadlineWatch.delete(this);
    }
    if (this.onAbort) this.x.signal?.removeEventListener('abort', this.onAbort);
  }
}

const PROXY_CREDENTIALS =
  'check the proxy credentials: the user name and password in the proxy address, or the Proxy-Authorization value (the proxyAuthorization option; in VS Code, http.proxyAuthorization)';

/** OpenSSL / Node codes of a certificate that was refused (expired, self-signed, unknown issuer, wrong name, as in ERR_TLS_CERT_ALTNAME_INVALID). */
const CERTIFICATE_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|HOSTNAME_MISMATCH|INVALID_CA/;

function truncated(x: Exchange, details: { cause: unknown }): TransportError {
  return new TransportError(
    'truncated',
    `${x.action}: the answer from ${x.url} was cut off: the connection closed before the whole body arrived${mayHaveBeenCarriedOut(x.method)}`,
    x.action,
    x.url,
    details,
  );
}

function tooLarge(x: Exchange, limit: number): TransportError {
  return new TransportError(
    'too-large',
    `${x.action}: the answer from ${x.url} is larger than ${bytes(limit)} (maxAnswerBytes), so the client stopped reading it${mayHaveBeenCarriedOut(x.method)}`,
    x.action,
    x.url,
  );
}

/** A byte count for messages: in KiB or MiB when it is a whole number of them. */
/** A timeout in seconds, as every duration the user reads (`12 s`, `0.15 s`; src/app/util/format.ts formatSeconds). */
function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(ms < 1000 ? 2 : 1))} s`;
}

function bytes(count: number): string {
  if (count % (1024 * 1024) === 0) return `${count / (1024 * 1024)} MiB`;
  if (count % 1024 === 0) return `${count / 1024} KiB`;
  return `${count} bytes`;
}

function aborted(x: Exchange, cause: unknown): TransportError {
  return new TransportError(
    'aborted',
    `${x.action}: the call to ${x.url} was cancelled`,
    x.action,
    x.url,
    cause === undefined ? {} : { cause },
  );
}

function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  301: 'Moved Permanently',
  302: 'Found',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * For a redirect, where to: usually the platform moved to https:// or the base URL has a wrong
 * path. Only the address up to the path is shown (the query string would hold the signature).
 */
function redirectHint(status: number, headers: IncomingHttpHeaders, url: string): string {
  if (status < 300 || status > 399) return '';
  const header = headers.location;
  const location = Array.isArray(header) ? header[0] : header;
  if (!location) return '';
  try {
    const target = new URL(location, url);
    return `: it redirects to ${target.origin}${target.pathname}; use that address (without /rest) as the base URL`;
  } catch {
    return '';
  }
}

function statusText(status: number): string {
  const text = STATUS_TEXT[status];
  return text ? ` ${text}` : '';
}
