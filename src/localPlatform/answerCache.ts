/**
 * List answers made of records already serialised. A stored record is never changed in place (a
 * write puts a new object), so a record object and a key naming everything else its answer reads
 * (the address it is reached at, the user id, versions of the collections it refers to) fix its JSON
 * text: pages of unchanged records are then joined from ready text instead of being built and
 * stringified again, and a page asked again is answered with the bytes made the first time. Each
 * cache is bounded in size and drops the least recently used text first.
 */

/** JSON text made beforehand: `envelopeBody` writes it into the answer as it is. */
export class JsonText {
  /** The last whole answer made with this text, as bytes: a page asked again is sent without any copying. */
  private answer: { head: string; bytes: Buffer } | undefined;

  constructor(readonly text: string) {}

  /** Anything else that stringifies it gets the same JSON (slowly). */
  toJSON(): unknown {
    return JSON.parse(this.text) as unknown;
  }

  /** The envelope `head` (its JSON with `"result":0`) with this text as its result, as UTF-8 bytes. */
  answerBytes(head: string): Buffer {
    if (this.answer?.head === head) return this.answer.bytes;
    // Keys and text values before it are JSON-escaped, so the first `"result":0` is the field itself.
    const at = head.indexOf('"result":0') + '"result":'.length;
    const bytes = Buffer.from(`${head.slice(0, at)}${this.text}${head.slice(at + 1)}`);
    this.answer = { head, bytes };
    return bytes;
  }
}

/**
 * The envelope's JSON, with a JsonText result written in as it is (the same text JSON.stringify
 * makes): a string, or bytes when the result is ready text.
 */
export function envelopeBody(envelope: { result: unknown }): string | Buffer {
  if (!(envelope.result instanceof JsonText)) return JSON.stringify(envelope);
  return envelope.result.answerBytes(JSON.stringify({ ...envelope, result: 0 }));
}

/** What a full cache is brought down to, as a share of its size, when it drops its least recently used. */
const EVICT_TO = 0.75;

interface Entry {
  key: string;
  text: string;
}

export class AnswerCache<R extends object> {
  private readonly entries = new Map<R, Entry>();
  private size = 0;

  constructor(private readonly maxChars: number) {}

  /** The JSON text of `make()` for this record and key, made once while both stay the same. */
  text(record: R, key: string, make: () => unknown): string {
    const hit = this.entries.get(record);
    if (hit) {
      this.entries.delete(record);
      if (hit.key === key) {
        this.entries.set(record, hit); // most recently used last
        return hit.text;
      }
      this.size -= hit.text.length;
    }
    const text = JSON.stringify(make());
    this.entries.set(record, { key, text });
    this.size += text.length;
    if (this.size <= this.maxChars) return text;
    // Down to three quarters at once: each walk from the oldest entry passes the slots that earlier deletes left
    // in the Map (V8 compacts them only when it grows), so one walk per text made cost more than the text.
    for (const [old, entry] of this.entries) {
      if (this.size <= this.maxChars * EVICT_TO) break;
      this.entries.delete(old);
      this.size -= entry.text.length;
    }
    return text;
  }
}

/** A JSON list of ready texts. */
export function jsonList(texts: readonly string[]): JsonText {
  return new JsonText(`[${texts.join(',')}]`);
}

/**
 * Lists of ready texts made once while they stay the same: a page asked again (by a poller, a view
 * refreshed) reuses its JsonText, whose answer bytes are then ready as well. A list is found by its
 * first text and compared text by text (the texts of unchanged records are the same strings, so
 * comparing them is cheap). Bounded in characters, least recently used first out.
 */
export class ListCache {
  private readonly lists = new Map<string, JsonText[]>();
  private readonly members = new WeakMap<JsonText, readonly string[]>();
  private size = 0;

  constructor(private readonly maxChars: number) {}

  list(texts: readonly string[]): JsonText {
    if (texts.length === 0) return jsonList(texts);
    const first = texts[0]!;
    const candidates = this.lists.get(first);
    if (candidates) {
      this.lists.delete(first);
      this.lists.set(first, candidates); // most recently used last
      for (const candidate of candidates) {
        const held = this.members.get(candidate)!;
        if (held.length === texts.length && held.every((text, i) => text === texts[i])) return candidate;
      }
    }
    const made = jsonList(texts);
    this.members.set(made, [...texts]);
    // The text, and the answer bytes made from it later: counted twice.
    this.size += made.text.length * 2;
    if (candidates) candidates.push(made);
    else this.lists.set(first, [made]);
    if (this.size <= this.maxChars) return made;
    for (const [key, old] of this.lists) {
      if (this.size <= this.maxChars * EVICT_TO) break;
      this.lists.delete(key);
      for (const dropped of old) this.size -= dropped.text.length * 2;
    }
    return made;
  }
}
