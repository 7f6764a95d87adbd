/**
 * Whole answers of the list reads (issue 29): the ready body and headers of a successful answer, kept per store
 * under the request's parameters without the per-call signing ones (`signature`, `timestamp`), so the same page
 * asked again (a view refreshing its list) is answered with one lookup and one write. An answer is served only
 * while nothing of the store changed since it was made: every committed write, of any collection, moves the
 * store's stamp and empties the cache, and each answer may bring a check of what it read outside the store (a
 * channel's live thumbnail). The request is still parsed, authenticated and logged as ever. Bounded in bytes.
 */
import { JsonList, SweptCache, chunkedAnswer, envelopeChunks, type ChunkedAnswer, type Swept } from './answerCache';
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
  /** Bounded in bytes and swept (SweptCache, answerCache.ts). */
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

  /**
   * The answer to write for a list read made from the store at `stamp` (read before the handler ran; `current`
   * after): joined into one buffer of its own and kept when the cache takes it, else the envelope's chunks as they
   * are. A page not kept is not copied: a walk through more pages than fit joined a page of 17 to 64 KB for each
   * miss, garbage at once, and the allocator kept that memory (platform.bench's reads asked a second time: RSS
   * 224 -> 245 MiB after a GC; written as chunks, 224 -> 224).
   */
  answer(
    key: string,
    stamp: number,
    origin: object,
    envelope: { result: unknown },
    current: number,
  ): ReadyAnswer | ChunkedAnswer {
    const chunked = chunkedAnswer(envelopeChunks(envelope));
    if (stamp !== current) return chunked;
    if (current !== this.stamp) this.clear(current);
    const length = chunked.bytes;
    if (!this.kept.admits(key, length + key.length * 2)) return chunked;
    // A buffer of its own: Buffer.concat takes a small page from Node's shared pool, whose 8 KiB slab it would keep.
    const body = Buffer.allocUnsafeSlow(length);
    let at = 0;
    for (const chunk of chunked.chunks) at += chunk.copy(body, at);
    const answer: ReadyAnswer = { body, headers: chunked.headers };
    const { result } = envelope;
    const stillSame = result instanceof JsonList ? result.stillSame : undefined;
    this.kept.put(key, { answer, origin, stillSame, bytes: length + key.length * 2, asked: false });
    return answer;
  }

  private clear(stamp: number): void {
    this.kept.clear();
    this.stamp = stamp;
  }
}

/** A store's kept answers (a member of the store: AccountStore.derived). */
const READ_ANSWERS = Symbol('read answers');

/**
 * 12 MiB per account: a walk through 500 pages of 15 videos (platform.bench's and pages.bench's, 8.7 MiB with their
 * keys) is kept whole; with 8 MiB about 470 of them were, and 8% of the walk's asks were made again. A kept
 * answer's body is joined for it alone (nothing else keeps joined pages), so the same bytes are not held twice. RSS with 10,000 channels and 100,000 videos (PLATFORM_RSS_ONLY, after a GC, each
 * read once then again): 224-233 MiB both times, where 8 MiB with every miss joined measured 224 then 245.
 */
export const READ_ANSWER_BYTES = 12 * 1024 * 1024;

/** The maker of the default size (one function, not a closure made per request). */
const defaultSize = (): ReadAnswers => new ReadAnswers(READ_ANSWER_BYTES);

export function readAnswersOf(store: AccountStore, maxBytes = READ_ANSWER_BYTES): ReadAnswers {
  return store.derived(READ_ANSWERS, maxBytes === READ_ANSWER_BYTES ? defaultSize : () => new ReadAnswers(maxBytes));
}
