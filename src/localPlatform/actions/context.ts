import type { Fields } from './fields';
import type { LiveHooks } from '../live/liveMedia';
import type { View } from '../http/serialize';
import type { AccountStore } from '../store/store';
import type { TranscodeQueue } from '../transcoder';

/** One account as the server holds it. The secret key never leaves this object. */
export interface Account {
  readonly accessKey: string;
  readonly secretKey: string;
  readonly userId: number;
  readonly store: AccountStore;
  readonly transcoder: TranscodeQueue;
  /** Real live media (live/liveMedia.ts); absent when media is simulated. */
  readonly live?: LiveHooks;
}

/** What an action handler gets: the checked request and the account it acts on. */
export interface ActionContext {
  /** Query and form parameters, merged. */
  readonly params: Fields;
  /** Parsed JSON body (liveCreateChannel / liveUpdate); undefined when there is none. */
  readonly body: unknown;
  readonly account: Account;
  readonly view: View;
  /** Request time, ms since epoch. */
  readonly now: number;
}

export interface ActionOutcome {
  result: unknown;
  /** Only liveGetChannelsByPage: total matches. */
  count?: number;
}

export type ActionHandler = (ctx: ActionContext) => ActionOutcome | Promise<ActionOutcome>;
