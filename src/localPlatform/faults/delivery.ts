/**
 * The delivery faults, with chaos-stream-proxy's parity: the router's answer is first captured whole (a
 * Writable that takes writeHead and the body), then given to the client late, with another status, slowly,
 * cut short, reset mid-body, with another Content-Type or without its CORS headers.
 */
import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import type { FaultRule } from './profile';

/** A segment larger than this is not captured (the answer fails): no profile makes the platform hold 4K VODs whole. */
const MAX_CAPTURED_BYTES = 64 * 1024 * 1024;

export interface Answer {
  status: number;
  headers: Record<string, string | number>;
  body: Buffer;
}

/** Stands in for the ServerResponse a router writes to: what it writes is kept, not sent. */
export class CapturedAnswer extends Writable {
  statusCode = 200;
  readonly headers: Record<string, string | number> = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;

  writeHead(status: number, headers?: Record<string, string | number | string[]>): this {
    this.statusCode = status;
    for (const [name, value] of Object.entries(headers ?? {})) this.setHeader(name, value);
    return this;
  }

  setHeader(name: string, value: string | number | string[]): this {
    this.headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    return this;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.size += chunk.length;
    if (this.size > MAX_CAPTURED_BYTES) return done(new Error('the answer is too large to serve with a fault'));
    this.chunks.push(Buffer.from(chunk));
    done();
  }

  /** The whole answer once the router has ended it; undefined when it gave up (destroyed it). */
  answer(): Promise<Answer | undefined> {
    return new Promise((resolve) => {
      const end = (): void =>
        resolve({ status: this.statusCode, headers: this.headers, body: Buffer.concat(this.chunks) });
      if (this.writableFinished) return end();
      this.once('finish', end);
      this.once('error', () => resolve(undefined));
      this.once('close', () => (this.writableFinished ? end() : resolve(undefined)));
    });
  }
}

const sleep = (ms: number, res: ServerResponse): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    }
    res.once('close', done);
  });

function find(rules: readonly FaultRule[], fault: FaultRule['fault']): FaultRule | undefined {
  return rules.find((r) => r.fault === fault);
}

/** timeout: no answer at all; the connection is closed after `ms` (default 60 s), as a server that hung. */
async function hang(res: ServerResponse, rule: FaultRule): Promise<void> {
  await sleep(rule.ms ?? 60_000, res);
  res.destroy();
}

/** The answer's status, headers and body after status, content-type, no-cors and truncate. */
function altered(answer: Answer, rules: readonly FaultRule[]): Answer {
  let { status, body } = answer;
  const headers = { ...answer.headers };
  const status_ = find(rules, 'status');
  if (status_) {
    status = status_.code ?? 503;
    body = Buffer.from(`stream fault: HTTP ${status}\n`);
    headers['content-type'] = 'text/plain; charset=utf-8';
    delete headers['content-range'];
  }
  const type = find(rules, 'content-type');
  if (type) headers['content-type'] = type.value ?? 'text/plain';
  if (find(rules, 'no-cors'))
    for (const name of Object.keys(headers)) if (name.startsWith('access-control-')) delete headers[name];
  const truncate = find(rules, 'truncate');
  if (truncate) body = body.subarray(0, truncate.bytes ?? Math.floor(body.length / 2));
  headers['content-length'] = body.length;
  return { status, headers, body };
}

/** Writes `body` at `bytesPerSecond`, in tenths of a second; stops when the client leaves. */
async function throttled(res: ServerResponse, body: Buffer, bytesPerSecond: number): Promise<void> {
  const step = Math.max(1, Math.floor(bytesPerSecond / 10));
  for (let at = 0; at < body.length && !res.destroyed; at += step) {
    res.write(body.subarray(at, at + step));
    if (at + step < body.length) await sleep(100, res);
  }
}

/** Gives the captured answer to the client with the delivery faults of `rules`. */
export async function deliver(
  res: ServerResponse,
  answer: Answer,
  rules: readonly FaultRule[],
  head: boolean,
): Promise<void> {
  const timeout = find(rules, 'timeout');
  if (timeout) return hang(res, timeout);
  const delay = find(rules, 'delay');
  if (delay) await sleep(delay.ms ?? 2_000, res);
  if (res.destroyed) return;
  const { status, headers, body } = altered(answer, rules);
  const reset = find(rules, 'reset');
  if (head) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  if (reset) {
    // The full length is announced, part of it sent, then the connection is reset (TCP RST where Node can).
    res.writeHead(status, headers);
    const cut = Math.min(reset.afterBytes ?? Math.floor(body.length / 2), Math.max(0, body.length - 1));
    res.write(body.subarray(0, cut), () => {
      const socket = res.socket as (NonNullable<ServerResponse['socket']> & { resetAndDestroy?: () => void }) | null;
      if (socket?.resetAndDestroy) socket.resetAndDestroy();
      else res.destroy();
    });
    return;
  }
  res.writeHead(status, headers);
  const throttle = find(rules, 'throttle');
  if (throttle) await throttled(res, body, throttle.bytesPerSecond ?? 50_000);
  else res.write(body);
  res.end();
}
