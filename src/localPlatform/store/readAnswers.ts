/**
 * Whole answers of the list reads (issue 29): the ready body and headers of a successful answer, kept per store
 * under the request's parameters without the per-call signing ones (`signature`, `timestamp`), so the same page
 * asked again (a view refreshing its list) is answered with one lookup and one write. An answer is served only
 * while nothing of the store changed since it was made: every committed write, of any collection, moves the
 * store's stamp and empties the cache, and each answer may bring a check of what it read outside the store (a
 * channel's live thumbnail). The request is still parsed, authenticated and logged as ever. Bounded in bytes.
 */
import { SweptCache, type Swept } from './answerCache';
import { COLLECTION_NAMES } from './records';
import type { AccountStore } from './store';

/** A ready answer: its body and its headers as `writeHead` takes them raw (name, value, ...). */
export interface ReadyAnswer {
  readonly body: Buffer;
  readonly headers: readonly string[];
}

interface Kept extends Swept {
  answer: ReadyAnswer;
  /** Whose addresses the answer lists (an origin object, made once per host name and port). */
  origin: object;
  /** What the answer read outside the store is still the same (undefined: it read nothing else). */
  stillSame: (() => boolean) | undefined;
}

/**
 * Every collection's version summed: each change of any record adds one to one of them, a write taken back
 * (a full disk) too, so the sum never comes back to a value it had. Ten lookups; correctness over reach: a write
 * to any collection ends every kept answer, not only those that read it.
 */
export function storeStamp(store: AccountStore): number {
  let stamp = 0;
  for (const c of COLLECTION_NAMES) stamp += store.version(c);
  return stamp;
}

/**
 * The key of a request's answer: its host name and every parameter but the per-call signing ones (each name
 * once, `values[i]` the value of `names[i]`), each with its length, so that no two sets of parameters make the same key (a value holding a separator included).
 * In the order given: the same parameters in another order are another key (a miss, never a wrong answer).
 */
export function answerKey(names: readonly string[], values: readonly string[], hostName: string | undefined): string {
  let key = hostName === undefined ? '-' : `${hostName.length}:${hostName}`;
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    if (name === 'signature' || name === 'timestamp') continue;
    const value = values[i];
    key += `|${name.length}:${name}${value.length}:${value}`;
  }
  return key;
}

export class ReadAnswers {
  /** Bounded and swept as the page cache is. */
  private readonly kept: SweptCache<string, Kept>;
  /** The store's stamp the kept answers were made at. */
  private stamp = -1;

  constructor(maxBytes: number) {
    this.kept = new SweptCache(maxBytes);
  }

  /** Bytes held now (for tests of the bound). */
  get bytesHeld(): number {
    return this.kept.bytesHeld;
  }

  /** The answer kept for `key`, made at `stamp` for `origin`; undefined when none is or it no longer holds. */
  find(key: string, stamp: number, origin: object): ReadyAnswer | undefined {
    if (stamp !== this.stamp) {
      this.clear(stamp);
      return undefined;
    }
    const kept = this.kept.get(key);
    if (!kept) return undefined;
    if (kept.origin !== origin || (kept.stillSame !== undefined && !kept.stillSame())) {
      this.kept.delete(key);
      return undefined;
    }
    kept.asked = true;
    return kept.answer;
  }

  /**
   * Keeps an answer made from the store at `stamp` (read before the handler ran); an answer of an earlier stamp
   * is not kept: the store changed while it was made.
   */
  keep(
    key: string,
    stamp: number,
    origin: object,
    answer: ReadyAnswer,
    stillSame: (() => boolean) | undefined,
    current: number,
  ): void {
    if (stamp !== current) return;
    if (current !== this.stamp) this.clear(current);
    const bytes = answer.body.length + key.length * 2;
    this.kept.keep(key, { answer, origin, stillSame, bytes, asked: false });
  }

  private clear(stamp: number): void {
    this.kept.clear();
    this.stamp = stamp;
  }
}

/** A store's kept answers (a member of the store: AccountStore.derived). */
const READ_ANSWERS = Symbol('read answers');

/**
 * 8 MiB per account, as the joined pages (PageCache, answer.ts), which no longer hold the list reads' pages: a kept
 * answer's body is joined for it alone, so the same bytes are not held by both.
 */
export const READ_ANSWER_BYTES = 8 * 1024 * 1024;

/** The maker of the default size (one function, not a closure made per request). */
const defaultSize = (): ReadAnswers => new ReadAnswers(READ_ANSWER_BYTES);

export function readAnswersOf(store: AccountStore, maxBytes = READ_ANSWER_BYTES): ReadAnswers {
  return store.derived(READ_ANSWERS, maxBytes === READ_ANSWER_BYTES ? defaultSize : () => new ReadAnswers(maxBytes));
}
