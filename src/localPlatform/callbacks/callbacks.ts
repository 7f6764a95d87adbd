/**
 * The platform's callbacks (facts section 5), per account: the URLs to post to, the signing secret and the
 * delivery log (state.ts), the deliveries (deliveries.ts), fed by the store's committed writes (events.ts).
 * Controlled in process (`LocalPlatform.callbacks`, the extension) and over the admin route (route.ts, the CLI).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Codes } from '../../api/errorCodes';
import { accountDir } from '../accounts';
import type { Account } from '../actions/context';
import type { Origin } from '../http/addresses';
import { PlatformFault, invalid } from '../http/faults';
import type { View } from '../http/serialize';
import { DEFAULT_DELIVERY_OPTIONS, Deliveries, type DeliveryOptions, type ReceiverFaults } from './deliveries';
import {
  CALLBACK_EVENTS,
  CHANNEL_STATUS_VALUES,
  TRANSCODE_STATUS_VALUES,
  channelStatusBody,
  eventsOf,
  transcodeBody,
  type CallbackBody,
  type CallbackEvent,
  type CallbackMessage,
  type DeliveryRecord,
} from './events';
import { DeliveryLog, LOG_KEEP, loadFaults, loadSecret, saveFaults } from './state';
import { MAX_URLS, callbackUrlProblem, type CallbackPolicy } from './urlRules';

export interface CallbackOptions extends Partial<DeliveryOptions> {
  /** Callback URLs on hosts other than loopback (`--allow-remote-callbacks`); default false. */
  allowRemote?: boolean;
  /** Private and link-local addresses too (`--allow-private-callbacks`); default false. */
  allowPrivate?: boolean;
  /** Delivery attempts kept in each account's log (default 500). */
  logKeep?: number;
}

/** What a trigger may override, per event, and the values each takes. */
const OVERRIDABLE: Record<CallbackEvent, Record<string, (value: unknown) => boolean>> = {
  'channel-status': {
    channelStatus: (v) => typeof v === 'number' && CHANNEL_STATUS_VALUES.includes(v),
    streamStatus: (v) => v === 1 || v === 2,
  },
  transcode: {
    status: (v) => typeof v === 'number' && TRANSCODE_STATUS_VALUES.includes(v),
    playCode: (v) => v === null || (typeof v === 'object' && !Array.isArray(v)),
  },
};

const RULES: Record<string, string> = {
  channelStatus: `must be one of ${CHANNEL_STATUS_VALUES.join(', ')}`,
  streamStatus: 'must be 1 or 2',
  status: 'must be 1 (started), 2 (done) or 3 (failed)',
  playCode: 'must be an object or null',
};

export interface TriggerRequest {
  event: string;
  /** The channel (channel-status) or video (transcode) id. */
  target: string;
  /** Body fields to override (see OVERRIDABLE). */
  fields?: Record<string, unknown>;
}

function newEventId(): string {
  return `cb_${randomBytes(8).toString('hex')}`;
}

export function checkFaults(value: Partial<Record<keyof ReceiverFaults, unknown>>): ReceiverFaults {
  const count = (name: string, v: unknown, max: number): number => {
    if (v === undefined) return 0;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max)
      throw invalid(name, `must be an integer from 0 to ${max}`);
    return v;
  };
  const flag = (name: string, v: unknown): boolean => {
    if (v === undefined) return false;
    if (typeof v !== 'boolean') throw invalid(name, 'must be true or false');
    return v;
  };
  return {
    fail: count('fail', value.fail, 100),
    delayMs: count('delayMs', value.delayMs, 60_000),
    duplicate: flag('duplicate', value.duplicate),
    outOfOrder: flag('outOfOrder', value.outOfOrder),
  };
}

/** One account's callbacks. */
export class AccountCallbacks {
  private urlList: string[] = [];

  private saving: Promise<void> = Promise.resolve();
  /** Faults were set (now or in an earlier run): their file is kept up to date at close. */
  private faultsKept = false;

  private constructor(
    private readonly account: Account,
    private readonly dir: string,
    private readonly logError: (error: unknown) => void,
    readonly secret: string,
    readonly log: DeliveryLog,
    readonly deliveries: Deliveries,
    private readonly view: () => View,
    private readonly policy: CallbackPolicy,
    private readonly unsubscribe: () => void,
  ) {}

  static async open(
    dataDir: string,
    account: Account,
    urls: readonly string[],
    options: CallbackOptions,
    originOf: () => Origin,
    logError: (error: unknown) => void,
  ): Promise<AccountCallbacks> {
    const dir = join(accountDir(dataDir, account.accessKey), 'callbacks');
    const secret = await loadSecret(dir);
    const log = await DeliveryLog.open(dir, logError, options.logKeep ?? LOG_KEEP);
    const policy: CallbackPolicy = {
      allowRemote: options.allowRemote === true,
      allowPrivate: options.allowPrivate === true,
    };
    const delivery: DeliveryOptions = { ...DEFAULT_DELIVERY_OPTIONS };
    for (const key of Object.keys(DEFAULT_DELIVERY_OPTIONS) as Array<keyof DeliveryOptions>) {
      if (options[key] !== undefined) delivery[key] = options[key];
    }
    const view = (): View => ({ store: account.store, userId: account.userId, origin: originOf() });
    let self: AccountCallbacks | undefined;
    const deliveries = new Deliveries(secret, () => self?.urls ?? [], log, policy, delivery);
    const unsubscribe = account.store.onCommitted((changes) => {
      if (!self || self.urlList.length === 0) return;
      for (const { event, body } of eventsOf(changes, view()))
        deliveries.send({ eventId: newEventId(), event, body, origin: 'change' });
    });
    self = new AccountCallbacks(account, dir, logError, secret, log, deliveries, view, policy, unsubscribe);
    self.setUrls(urls, 'callbackUrls');
    const kept = await loadFaults(dir);
    if (kept !== undefined) {
      try {
        deliveries.setFaults(checkFaults(kept as Partial<Record<keyof ReceiverFaults, unknown>>));
        self.faultsKept = true;
      } catch (error) {
        logError(error); // A file edited by hand into something the route would refuse: no faults.
      }
    }
    deliveries.resume(log.list().reverse());
    return self;
  }

  get urls(): readonly string[] {
    return this.urlList;
  }

  /** Replaces the callback URLs (checked: all or nothing). */
  setUrls(urls: readonly string[], field = 'urls'): void {
    if (!Array.isArray(urls)) throw invalid(field, 'must be a list of http(s) addresses');
    if (urls.length > MAX_URLS) throw invalid(field, `must hold at most ${MAX_URLS} addresses`);
    urls.forEach((url, i) => {
      const problem = callbackUrlProblem(url, this.policy);
      if (problem) throw invalid(`${field}[${i}]`, problem);
    });
    this.urlList = [...new Set(urls)];
  }

  list(): DeliveryRecord[] {
    return this.log.list();
  }

  /** Sends a recorded delivery's body again to its URL: same event id, a new timestamp and signature. */
  resend(id: string): CallbackMessage {
    const record = this.log.get(id);
    if (!record) throw invalid('id', `must name a recorded delivery (${JSON.stringify(id.slice(0, 40))} is not one)`);
    const problem = callbackUrlProblem(record.url, this.policy);
    if (problem) throw invalid('url', problem);
    const message: CallbackMessage = {
      eventId: record.eventId,
      event: record.event,
      body: JSON.parse(record.body) as CallbackBody,
      origin: 'resend',
      resendOf: record.id,
    };
    this.deliveries.send(message, record.url);
    return message;
  }

  /** Sends an event made from the current record of its target, with fields overridden. */
  trigger(request: TriggerRequest): CallbackMessage {
    if (!CALLBACK_EVENTS.includes(request.event as CallbackEvent))
      throw invalid('event', `must be one of ${CALLBACK_EVENTS.join(', ')}`);
    const event = request.event as CallbackEvent;
    if (this.urlList.length === 0)
      throw invalid('callbackUrls', 'are not set: set a callback URL first (--callback-url URL)');
    const body = this.bodyOf(event, request.target, request.fields?.status);
    for (const [name, value] of Object.entries(request.fields ?? {})) {
      const accepts = OVERRIDABLE[event][name];
      if (!accepts)
        throw invalid(`fields.${name}`, `is not a field of ${event} (${Object.keys(OVERRIDABLE[event]).join(', ')})`);
      if (!accepts(value)) throw invalid(`fields.${name}`, RULES[name]);
      body[name] = value;
    }
    const message: CallbackMessage = { eventId: newEventId(), event, body, origin: 'trigger' };
    this.deliveries.send(message);
    return message;
  }

  private bodyOf(event: CallbackEvent, target: string, status: unknown): CallbackBody {
    if (typeof target !== 'string' || target === '')
      throw invalid(event === 'channel-status' ? 'channel' : 'video', 'is required');
    if (event === 'channel-status') {
      const channel = this.account.store.get('channels', target);
      if (!channel)
        throw new PlatformFault(
          Codes.channelNotExists,
          `channel ${target.slice(0, 64)} does not exist in this account`,
        );
      return channelStatusBody(channel);
    }
    const video = this.account.store.get('videos', target);
    if (!video)
      throw new PlatformFault(Codes.videoNotExists, `video ${target.slice(0, 64)} does not exist in this account`);
    // Without a status given, the video's own: done when it is done, failed when failed, else started.
    const own = video.status === 2 ? 2 : video.status === 3 ? 3 : 1;
    const wanted = typeof status === 'number' && TRANSCODE_STATUS_VALUES.includes(status) ? (status as 1 | 2 | 3) : own;
    return transcodeBody(this.view(), video, wanted);
  }

  setFaults(faults: Partial<Record<keyof ReceiverFaults, unknown>>): ReceiverFaults {
    const checked = checkFaults(faults);
    this.deliveries.setFaults(checked);
    this.faultsKept = true;
    this.saveFaults();
    return checked;
  }

  /** Keeps the receiver faults as they are now (what is left of `fail` too) for the next start. */
  private saveFaults(): void {
    const now = this.deliveries.receiverFaults;
    this.saving = this.saving.then(() => saveFaults(this.dir, now)).catch(this.logError);
  }

  async close(): Promise<void> {
    this.unsubscribe();
    this.deliveries.close();
    if (this.faultsKept) this.saveFaults();
    await Promise.all([this.log.flushed(), this.saving]);
  }
}

/** Every account's callbacks, by access key. */
export class PlatformCallbacks {
  private constructor(private readonly byKey: Map<string, AccountCallbacks>) {}

  static async open(
    dataDir: string,
    accounts: ReadonlyMap<string, Account>,
    urlsOf: (accessKey: string) => readonly string[],
    options: CallbackOptions,
    originOf: () => Origin,
    logError: (error: unknown) => void,
  ): Promise<PlatformCallbacks> {
    const byKey = new Map<string, AccountCallbacks>();
    try {
      for (const account of accounts.values())
        byKey.set(
          account.accessKey,
          await AccountCallbacks.open(dataDir, account, urlsOf(account.accessKey), options, originOf, logError),
        );
    } catch (error) {
      for (const opened of byKey.values()) await opened.close();
      throw error;
    }
    return new PlatformCallbacks(byKey);
  }

  /** The account's callbacks; an unknown access key is refused. */
  of(accessKey: string): AccountCallbacks {
    const found = this.byKey.get(accessKey);
    if (!found) throw invalid('accessKey', 'is not an account of this platform', Codes.accessKeyNotExists);
    return found;
  }

  async close(): Promise<void> {
    for (const callbacks of this.byKey.values()) await callbacks.close();
  }
}
