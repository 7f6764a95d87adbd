/**
 * List answers made of records already serialised. A stored record is never changed in place (a
 * write puts a new object), so a record object and a key naming everything else its answer reads
 * (the address it is reached at, the user id, versions of the collections it refers to) fix its JSON
 * text: pages of unchanged records are then joined from ready text instead of being built and
 * stringified again. Each cache is bounded in size and drops the least recently used text first.
 */

/** JSON text made beforehand: `envelopeText` writes it into the answer as it is. */
export class JsonText {
  constructor(readonly text: string) {}

  /** Anything else that stringifies it gets the same JSON (slowly). */
  toJSON(): unknown {
    return JSON.parse(this.text) as unknown;
  }
}

/** The envelope's JSON, with a JsonText result written in as it is; the same text JSON.stringify makes. */
export function envelopeText(envelope: { result: unknown }): string {
  if (!(envelope.result instanceof JsonText)) return JSON.stringify(envelope);
  const text = JSON.stringify({ ...envelope, result: 0 });
  // Keys and text values before it are JSON-escaped, so the first `"result":0` is the field itself.
  const at = text.indexOf('"result":0') + '"result":'.length;
  return `${text.slice(0, at)}${envelope.result.text}${text.slice(at + 1)}`;
}

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
    for (const [old, entry] of this.entries) {
      if (this.size <= this.maxChars) break;
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
