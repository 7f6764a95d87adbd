/**
 * Whole answers of the list reads (issue 29): the ready body and headers of a successful answer, kept per store
 * under the request's parameters without the per-call signing ones (`signature`, `timestamp`), so the same page
 * asked again (a view refreshing its list) is answered with one lookup and one write. An answer is served only
 * while nothing of the store changed since it was made: every committed write, of any collection, moves the
 * store's stamp and empties the cache, and each answer may bring a check of what it read outside the store (a
 * channel's live thumbnail). The request is still parsed, authenticated and logged as ever. Bounded in bytes.
 */
import { COLLECTION_NAMES } from './records';
import type { AccountStore } from './store';

/** A ready answer: its body and its headers as `writeHead` takes them raw (name, value, ...). */
export interface ReadyAnswer {
  readonly body: Buffer;
  readonly headers: readonly string[];
}

interface Kept {
  answer: ReadyAnswer;
  /** Whose addresses the answer lists (an origin object, made once per host name and port). */
  origin: object;
  /** What the answer read outside the store is still the same (undefined: it read nothing else). */
  stillSame: (() => boolean) | undefined;
  bytes: number;
  /** Asked again since the last sweep. */
  asked: boolean;
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
 * The key of a request's answer: its host name and every parameter but the per-call signing ones, each with
 * its length, so that no two sets of parameters make the same key (a value holding a separator included).
 * In the order given: the same parameters in another order are another key (a miss, never a wrong answer).
 */
export function answerKey(params: Readonly<Record<string, string>>, hostName: string | undefined): string {
  let key = hostName === undefined ? '-' : `${hostName.length}:${hostName}`;
  for (const name in params) {
    if (name === 'signature' || name === 'timestamp') continue;
    const value = params[name];
    key += `|${name.length}:${name}${value.length}:${value}`;
  }
  return key;
}

export class ReadAnswers {
  private readonly kept = new Map<string, Kept>();
  private size = 0;
  /** The store's stamp the kept answers were made at. */
  private stamp = -1;
  /** Answers refused since the last sweep. */
  private refused = 0;

  constructor(private readonly maxBytes: number) {}

  /** Bytes held now (for tests of the bound). */
  get bytesHeld(): number {
    return this.size;
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
      this.drop(key, kept);
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
    const had = this.kept.get(key);
    if (had) this.drop(key, had);
    const bytes = answer.body.length + key.length * 2;
    if (bytes > this.maxBytes / 4 || !this.roomFor(bytes)) return;
    this.kept.set(key, { answer, origin, stillSame, bytes, asked: false });
    this.size += bytes;
  }

  private clear(stamp: number): void {
    this.kept.clear();
    this.size = 0;
    this.refused = 0;
    this.stamp = stamp;
  }

  /**
   * Whether `bytes` more fit, after a sweep when its turn has come: as PageCache, a full cache takes nothing
   * new until as many answers were refused as it holds, then drops those not asked since the last sweep, so a
   * walk through a few more pages than fit keeps serving those that do.
   */
  private roomFor(bytes: number): boolean {
    if (this.size + bytes <= this.maxBytes) return true;
    if (++this.refused < this.kept.size) return false;
    this.refused = 0;
    for (const [key, kept] of this.kept) {
      if (kept.asked) kept.asked = false;
      else this.drop(key, kept);
    }
    return this.size + bytes <= this.maxBytes;
  }

  private drop(key: string, kept: Kept): void {
    this.kept.delete(key);
    this.size -= kept.bytes;
  }
}

/** A store's kept answers (a member of the store: AccountStore.derived). */
const READ_ANSWERS = Symbol('read answers');

/**
 * 8 MiB per account, as the joined pages (PageCache, answer.ts), which no longer hold the list reads' pages: a kept
 * answer's body is joined for it alone, so the same bytes are not held by both.
 */
export const READ_ANSWER_BYTES = 8 * 1024 * 1024;

export function readAnswersOf(store: AccountStore, maxBytes = READ_ANSWER_BYTES): ReadAnswers {
  return store.derived(READ_ANSWERS, () => new ReadAnswers(maxBytes));
}
