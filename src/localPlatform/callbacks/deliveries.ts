/**
 * One account's deliveries: each event is POSTed to each callback URL, signed (signing.ts), through node:http to
 * the address checked by urls.ts (no redirect followed). First attempts go out in order per URL; a failed
 * attempt (no 2xx within the timeout) is tried again after a back-off (backoffMs, doubling, at most 60 s) in the
 * background, up to `attempts` in all, then recorded as failed. Every attempt is recorded (state.ts). Bounded:
 * at most `maxQueue` deliveries waiting or retrying (beyond: recorded as failed at once), `timeoutMs` per attempt,
 * an answer's body read up to 64 KiB and dropped.
 *
 * A retry still waiting when the platform stops is resumed at the next start (`resume`, from the delivery log: a
 * delivery whose last attempt says `retrying`), at the time its back-off said.
 *
 * Receiver faults, to test a receiver (kept across restarts by callbacks.ts): `fail` N makes the next N
 * attempts count as failed whatever the receiver answers (it is sent, so the receiver sees the same event id
 * again: an acknowledgement lost on the way); `delayMs` holds each first attempt; `duplicate` sends each
 * delivered event a second time (same id, same body); `outOfOrder` holds an event until the next one has gone
 * (or HOLD_MS passed), so two events arrive swapped.
 *
 * Written on node:http rather than undici or fetch: the connection must go to the address that was checked,
 * with the URL's name kept for Host and TLS (SNI), which node:http's `host` / `servername` options give directly.
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { CallbackMessage, DeliveryRecord } from './events';
import { CALLBACK_HEADERS, callbackSignature } from './signing';
import type { DeliveryLog } from './state';
import type { CallbackPolicy } from './urlRules';
import { deliveryAddress } from './urls';

export interface DeliveryOptions {
  /** Attempts per delivery, the first included (default 5). */
  attempts: number;
  /** Time for the receiver's answer (status line and headers), per attempt (default 10 s). */
  timeoutMs: number;
  /** First back-off; doubles per attempt, at most 60 s (default 1 s). */
  backoffMs: number;
  /** Deliveries waiting or retrying at once, per account (default 1000). */
  maxQueue: number;
}

export const DEFAULT_DELIVERY_OPTIONS: DeliveryOptions = {
  attempts: 5,
  timeoutMs: 10_000,
  backoffMs: 1000,
  maxQueue: 1000,
};

export interface ReceiverFaults {
  /** The next N attempts count as failed (they are sent). */
  fail: number;
  delayMs: number;
  duplicate: boolean;
  outOfOrder: boolean;
}

export const NO_FAULTS: ReceiverFaults = { fail: 0, delayMs: 0, duplicate: false, outOfOrder: false };

const HOLD_MS = 2000;
const MAX_BACKOFF_MS = 60_000;
const MAX_ANSWER_BYTES = 64 * 1024;

interface Delivery {
  message: CallbackMessage;
  url: string;
  fault?: string;
}

interface AttemptResult {
  status: number | null;
  error?: string;
  /** No further attempt can help (a refused address). */
  final?: boolean;
}

export class Deliveries {
  private faults: ReceiverFaults = { ...NO_FAULTS };
  private pending = 0;
  private readonly chains = new Map<string, Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly stop = new AbortController();
  private held: { message: CallbackMessage; timer: NodeJS.Timeout } | undefined;

  constructor(
    private readonly secret: string,
    private readonly urls: () => readonly string[],
    private readonly log: DeliveryLog,
    private readonly policy: CallbackPolicy,
    private readonly options: DeliveryOptions,
  ) {}

  get receiverFaults(): ReceiverFaults {
    return { ...this.faults };
  }

  setFaults(faults: ReceiverFaults): void {
    this.faults = { ...faults };
    if (!faults.outOfOrder) this.release();
  }

  /** Sends `message` to every callback URL (or to `url` only: a resend goes where its record went). */
  send(message: CallbackMessage, url?: string): void {
    if (this.stop.signal.aborted) return;
    const targets = url ? [url] : this.urls();
    if (!this.faults.outOfOrder || url) {
      for (const target of targets) this.enqueue({ message, url: target });
      return;
    }
    if (!this.held) {
      const timer = this.later(HOLD_MS, () => this.release());
      this.held = { message, timer };
      return;
    }
    // The newer event first, then the one held back.
    for (const target of targets) this.enqueue({ message, url: target, fault: 'out-of-order' });
    this.release();
  }

  private release(): void {
    const held = this.held;
    if (!held) return;
    this.held = undefined;
    clearTimeout(held.timer);
    this.timers.delete(held.timer);
    for (const target of this.urls()) this.enqueue({ message: held.message, url: target, fault: 'out-of-order' });
  }

  private enqueue(delivery: Delivery): void {
    if (this.pending >= this.options.maxQueue) {
      const body = JSON.stringify(delivery.message.body);
      this.record(
        delivery,
        1,
        Date.now(),
        0,
        body,
        {},
        { status: null, error: `the delivery queue is full (${this.options.maxQueue})`, final: true },
        'failed',
      );
      return;
    }
    this.pending++;
    // First attempts in order per URL; retries do not hold the line.
    const previous = this.chains.get(delivery.url) ?? Promise.resolve();
    const next = previous.then(() => this.first(delivery));
    this.chains.set(delivery.url, next);
    void next.finally(() => {
      if (this.chains.get(delivery.url) === next) this.chains.delete(delivery.url);
    });
  }

  private async first(delivery: Delivery): Promise<void> {
    if (this.faults.delayMs > 0) {
      await this.sleep(this.faults.delayMs);
      delivery = { ...delivery, fault: delivery.fault ?? 'delay' };
    }
    await this.attempt(delivery, 1);
  }

  /** One attempt; schedules the next after a failure, or ends the delivery. */
  private async attempt(delivery: Delivery, n: number): Promise<void> {
    if (this.stop.signal.aborted) return;
    const sent = await this.post(delivery, n);
    // Cut off by a stop: nothing to record (the platform's files are being closed).
    if (this.stop.signal.aborted) return;
    const { result } = sent;
    let fault = delivery.fault;
    let ok = result.status !== null && result.status >= 200 && result.status < 300;
    if (this.faults.fail > 0) {
      this.faults.fail--;
      fault = 'fail';
      ok = false;
      result.error = `counted as failed by the receiver fault "fail" (${this.faults.fail} more)`;
    }
    const last = ok || result.final === true || n >= this.options.attempts;
    const outcome = ok ? 'delivered' : last ? 'failed' : 'retrying';
    this.record({ ...delivery, fault }, n, sent.time, sent.durationMs, sent.body, sent.headers, result, outcome);
    if (ok && this.faults.duplicate) {
      const again = await this.post(delivery, n);
      const dupOk = again.result.status !== null && again.result.status >= 200 && again.result.status < 300;
      this.record(
        { ...delivery, fault: 'duplicate' },
        n,
        again.time,
        again.durationMs,
        again.body,
        again.headers,
        again.result,
        dupOk ? 'delivered' : 'failed',
      );
    }
    if (last) {
      this.pending--;
      return;
    }
    this.later(this.backoff(n), () => void this.attempt(delivery, n + 1));
  }

  private record(
    delivery: Delivery,
    attempt: number,
    time: number,
    durationMs: number,
    body: string,
    headers: Record<string, string>,
    result: AttemptResult,
    outcome: DeliveryRecord['outcome'],
  ): void {
    const { message } = delivery;
    const record: DeliveryRecord = {
      id: `d${randomBytes(5).toString('hex')}`,
      eventId: message.eventId,
      event: message.event,
      url: delivery.url,
      time,
      attempt,
      status: result.status,
      durationMs: Math.round(durationMs),
      outcome,
      body,
      headers,
      origin: message.origin,
    };
    if (result.error) record.error = result.error;
    if (message.resendOf) record.resendOf = message.resendOf;
    if (delivery.fault) record.fault = delivery.fault;
    this.log.add(record);
  }

  /** Signs and posts; never throws. */
  private async post(
    delivery: Delivery,
    attempt: number,
  ): Promise<{
    time: number;
    durationMs: number;
    body: string;
    headers: Record<string, string>;
    result: AttemptResult;
  }> {
    const { message } = delivery;
    const body = JSON.stringify(message.body);
    const time = Date.now();
    const timestamp = String(time);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'video-platform-local-callbacks/1',
      [CALLBACK_HEADERS.event]: message.event,
      [CALLBACK_HEADERS.id]: message.eventId,
      [CALLBACK_HEADERS.attempt]: String(attempt),
      [CALLBACK_HEADERS.timestamp]: timestamp,
      [CALLBACK_HEADERS.signature]: callbackSignature(this.secret, timestamp, body),
    };
    const started = performance.now();
    const result = await this.postTo(new URL(delivery.url), headers, body);
    return { time, durationMs: performance.now() - started, body, headers, result };
  }

  private async postTo(url: URL, headers: Record<string, string>, body: string): Promise<AttemptResult> {
    const where = await deliveryAddress(url, this.policy);
    if ('problem' in where) return { status: null, error: `refused: ${where.problem}`, final: true };
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const https = url.protocol === 'https:';
    const send = https ? httpsRequest : httpRequest;
    return new Promise<AttemptResult>((resolve) => {
      let settled = false;
      const done = (result: AttemptResult): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const req = send({
        host: where.address,
        port: url.port || (https ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { ...headers, host: url.host, 'content-length': String(Buffer.byteLength(body)) },
        servername: https && isIP(host) === 0 ? host : undefined,
        agent: false,
        signal: this.stop.signal,
      });
      const timer = setTimeout(() => {
        req.destroy();
        done({ status: null, error: `no answer within ${this.options.timeoutMs} ms` });
      }, this.options.timeoutMs);
      req.on('response', (res: IncomingMessage) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > MAX_ANSWER_BYTES) res.destroy();
        });
        res.on('error', () => undefined);
        done({ status: res.statusCode ?? null, error: statusError(res.statusCode) });
      });
      req.on('error', (error: NodeJS.ErrnoException) =>
        done({ status: null, error: this.stop.signal.aborted ? 'the platform stopped' : describe(error) }),
      );
      req.end(body);
    });
  }

  private later(ms: number, run: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    this.timers.add(timer);
    return timer;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.later(ms, resolve));
  }

  /**
   * Takes up the retries a stop cut short: each delivery (event, URL, resend) whose newest record in `records`
   * (oldest first) is `retrying` gets its next attempt when its back-off ends (at once if it ended while stopped).
   * Only to URLs still in the callback URLs; within `maxQueue`. Returns how many were resumed.
   */
  resume(records: readonly DeliveryRecord[]): number {
    const newest = new Map<string, DeliveryRecord>();
    for (const record of records) newest.set(`${record.eventId}\n${record.url}\n${record.resendOf ?? ''}`, record);
    const urls = new Set(this.urls());
    let resumed = 0;
    for (const record of newest.values()) {
      if (record.outcome !== 'retrying' || !urls.has(record.url) || this.pending >= this.options.maxQueue) continue;
      const message: CallbackMessage = {
        eventId: record.eventId,
        event: record.event,
        body: JSON.parse(record.body) as CallbackMessage['body'],
        origin: record.origin,
        ...(record.resendOf ? { resendOf: record.resendOf } : {}),
      };
      this.pending++;
      resumed++;
      const due = record.time + this.backoff(record.attempt) - Date.now();
      this.later(Math.max(0, due), () => void this.attempt({ message, url: record.url }, record.attempt + 1));
    }
    return resumed;
  }

  private backoff(attempt: number): number {
    return Math.min(MAX_BACKOFF_MS, this.options.backoffMs * 2 ** (attempt - 1));
  }

  /** Stops: no new attempt starts, those in flight are cut off; waiting first attempts are dropped (retries resume). */
  close(): void {
    this.stop.abort();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.held = undefined;
  }
}

function statusError(status: number | undefined): string | undefined {
  return status !== undefined && status >= 200 && status < 300 ? undefined : `the receiver answered HTTP ${status}`;
}

function describe(error: NodeJS.ErrnoException): string {
  if (error.code === 'ECONNREFUSED') return 'connection refused (nothing listens there)';
  if (error.code === 'ECONNRESET') return 'the receiver closed the connection';
  return error.message;
}
