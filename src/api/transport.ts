/**
 * One HTTP exchange with `{base_url}/rest`, over a keep-alive dispatcher the client owns:
 * an undici Pool for the platform's origin, or a proxy agent when a proxy applies (./proxy.ts).
 * Every failure becomes a TransportError with its own kind and a message naming action and address.
 */
import { TransportError } from './errors';
import { chooseProxy } from './proxy';
import { Pool, proxyAgent, request, type Dispatcher } from './undici';

export interface TransportTimeouts {
  connectMs: number;
  /** Wait for the response headers. */
  headersMs: number;
  /** Longest silence while the body arrives (undici's body timeout is idle time, not total). */
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
  headers?: Record<string, string>;
  body?: string;
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

export class Transport {
  readonly dispatcher: Dispatcher;
  private readonly origin: string;
  private readonly timeouts: TransportTimeouts;
  /** Set when requests may go through a proxy: named in network error messages. */
  private readonly proxyNote: string;
  /** The proxy (without credentials), when one is used. */
  private readonly proxyName?: string;

  constructor(options: TransportOptions) {
    this.origin = options.origin;
    this.timeouts = options.timeouts;
    const connections = options.connections ?? 8;
    const connectTimeout = options.timeouts.connectMs;
    // proxyTunnel false: plain-http targets go to the proxy as absolute-form requests, which every
    // forward proxy understands; https targets still tunnel with CONNECT (undici decides by protocol).
    const proxyOptions = {
      proxyTunnel: false,
      connections,
      connectTimeout,
      proxyTls: { timeout: connectTimeout },
      requestTls: { timeout: connectTimeout },
    };
    const choice = chooseProxy(options.origin, options.proxy, options.noProxy);
    if (choice.proxy !== undefined) {
      this.dispatcher = proxyAgent({ uri: choice.proxy, ...proxyOptions }, connectTimeout);
      this.proxyName = displayProxy(choice.proxy);
      this.proxyNote = ` through proxy ${this.proxyName}${choice.source === 'environment' ? ' (from the environment)' : ''}`;
    } else {
      this.dispatcher = new Pool(options.origin, { connections, connectTimeout });
      this.proxyNote = '';
    }
  }

  /** Sends one request and reads the whole answer; throws TransportError for anything but a 2xx. */
  async exchange(x: Exchange): Promise<Answer> {
    if (x.signal?.aborted) throw aborted(x, x.signal.reason);
    let response: Dispatcher.ResponseData;
    try {
      response = await request(this.dispatcher, {
        origin: this.origin,
        path: x.path,
        method: x.method,
        headers: x.headers,
        body: x.body,
        signal: x.signal,
        headersTimeout: this.timeouts.headersMs,
        bodyTimeout: this.timeouts.bodyMs,
      });
    } catch (error) {
      throw this.classify(error, x, 'headers');
    }
    if (response.statusCode < 200 || response.statusCode > 299) {
      // The status is the answer: its body (an error page, often from a proxy) is discarded, so a
      // body that stalls or is cut off does not hide the status (a 5xx stays retryable).
      try {
        await response.body.dump();
      } catch (error) {
        if (x.signal?.aborted) throw aborted(x, error);
      }
      throw new TransportError(
        'http-status',
        `${x.action}: ${x.url} answered HTTP ${response.statusCode}${statusText(response.statusCode)} instead of 200${redirectHint(response, x.url)}`,
        x.action,
        x.url,
        { status: response.statusCode },
      );
    }
    let text: string;
    try {
      text = await response.body.text();
    } catch (error) {
      throw this.classify(error, x, 'body');
    }
    return { status: response.statusCode, text };
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }

  /** Maps an undici / socket failure to a TransportError; `stage` tells whether headers had arrived. */
  private classify(error: unknown, x: Exchange, stage: 'headers' | 'body'): TransportError {
    if (error instanceof TransportError) return error;
    if (x.signal?.aborted) return aborted(x, error);
    const code = errorCode(error);
    const { action, url } = x;
    const details = { cause: error };
    const tunnel =
      error instanceof Error ? /^Proxy response \((\d+)\) !== 200 when HTTP Tunneling/.exec(error.message) : null;
    if (tunnel) {
      const status = Number(tunnel[1]);
      const hint = status === 407 ? '; check the user name and password in the proxy address' : '';
      return new TransportError(
        'network',
        `${action}: proxy ${this.proxyName ?? ''} refused to open a tunnel to ${url} (HTTP ${status}${statusText(status)})${hint}`,
        action,
        url,
        details,
      );
    }
    switch (code) {
      case 'UND_ERR_CONNECT_TIMEOUT':
        return new TransportError(
          'timeout',
          `${action}: could not connect to ${url}${this.proxyNote} within ${this.timeouts.connectMs} ms (connect timeout)`,
          action,
          url,
          { ...details, phase: 'connect' },
        );
      case 'UND_ERR_HEADERS_TIMEOUT':
        return new TransportError(
          'timeout',
          `${action}: ${url}${this.proxyNote} did not answer within ${this.timeouts.headersMs} ms (headers timeout)${mayHaveHappened(x)}`,
          action,
          url,
          { ...details, phase: 'headers' },
        );
      case 'UND_ERR_BODY_TIMEOUT':
        return new TransportError(
          'timeout',
          `${action}: ${url}${this.proxyNote} stopped sending its answer for ${this.timeouts.bodyMs} ms (body timeout)${mayHaveHappened(x)}`,
          action,
          url,
          { ...details, phase: 'body' },
        );
      case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
        return truncated(x, details);
      case 'UND_ERR_SOCKET':
      case 'ECONNRESET':
      case 'EPIPE':
        if (stage === 'body') return truncated(x, details);
        return new TransportError(
          'reset',
          `${action}: ${url} closed the connection without answering (connection reset)${mayHaveHappened(x)}`,
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
          const reason = error instanceof Error && error.message ? `${code}: ${error.message}` : code;
          return new TransportError(
            'tls',
            `${action}: the TLS certificate of ${url}${this.proxyNote} was not accepted (${reason}); if a company proxy inspects HTTPS, give Node its CA certificate through NODE_EXTRA_CA_CERTS`,
            action,
            url,
            details,
          );
        }
        if (code?.startsWith('HPE_') || (error instanceof Error && error.name === 'HTTPParserError')) {
          return new TransportError('network', `${action}: ${url} did not answer in HTTP/1.1`, action, url, details);
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

/** OpenSSL / Node codes of a certificate that was refused (expired, self-signed, unknown issuer, wrong name, as in ERR_TLS_CERT_ALTNAME_INVALID). */
const CERTIFICATE_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|HOSTNAME_MISMATCH|INVALID_CA/;

function truncated(x: Exchange, details: { cause: unknown }): TransportError {
  return new TransportError(
    'truncated',
    `${x.action}: the answer from ${x.url} was cut off: the connection closed before the whole body arrived${mayHaveHappened(x)}`,
    x.action,
    x.url,
    details,
  );
}

/**
 * A POST that was sent but got no complete answer may still have been carried out (a channel
 * created, a transcoding started); it is never retried, so the user is told to look first.
 */
function mayHaveHappened(x: Exchange): string {
  return x.method === 'POST' ? '; the operation may still have been carried out, so check before trying it again' : '';
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
function redirectHint(response: Dispatcher.ResponseData, url: string): string {
  if (response.statusCode < 300 || response.statusCode > 399) return '';
  const header = response.headers.location;
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
