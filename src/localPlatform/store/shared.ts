/**
 * One copy of what many records repeat. A record read from the snapshot or the journal is a new object graph
 * with a string of its own for every value (JSON.parse shares none longer than a few characters), so an
 * account of 100,000 videos held a copy of the same tag text in each video that carries it, of a live
 * template's id in each output naming it, and an empty array in each video without renditions (heap snapshot,
 * issue 29: 3 to 5 MiB between them). Records are never changed in place (a write puts a new object), so the
 * stored ones can share these: the values stay equal, only the copies go.
 */
import type { ChannelRec, CollectionName, VideoRec } from './records';

/** The empty rendition list of every video without renditions: frozen, as a stored record never changes. */
const NO_STREAMS: VideoRec['streams'] = Object.freeze([]) as unknown as VideoRec['streams'];

/**
 * At most this many texts kept; then the table starts again (the texts are user data: tags, template ids,
 * category names). A text seen again after that gets one more copy, never a wrong value.
 */
const MAX_TEXTS = 10_000;

/** Texts by value: the first copy seen of each. */
export class SharedTexts {
  private readonly texts = new Map<string, string>();

  /** The copy of `text` kept already, or `text` itself, kept from now on. */
  one(text: string): string {
    const kept = this.texts.get(text);
    if (kept !== undefined) return kept;
    if (this.texts.size >= MAX_TEXTS) this.texts.clear();
    this.texts.set(text, text);
    return text;
  }

  /** `text`'s kept copy, nulls as they are. */
  oneOrNull(text: string | null): string | null {
    return text === null ? null : this.one(text);
  }

  /**
   * The record about to be stored, with the values it repeats replaced by their shared copy (in place: the
   * record is the store's from now on, and every value stays equal).
   */
  share(c: CollectionName, record: unknown): void {
    if (c === 'videos') this.shareVideo(record as VideoRec);
    else if (c === 'channels') this.shareChannel(record as ChannelRec);
  }

  private shareVideo(v: VideoRec): void {
    if (typeof v.tag === 'string') v.tag = this.one(v.tag);
    if (Array.isArray(v.streams) && v.streams.length === 0 && v.streams !== NO_STREAMS) v.streams = NO_STREAMS;
  }

  private shareChannel(ch: ChannelRec): void {
    if (typeof ch.typeName === 'string') ch.typeName = this.one(ch.typeName);
    if (!Array.isArray(ch.groups)) return;
    for (const g of ch.groups) {
      if (!Array.isArray(g.outputs)) continue;
      for (const o of g.outputs) if (typeof o.templateId === 'string') o.templateId = this.one(o.templateId);
    }
  }
}
