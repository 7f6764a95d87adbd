/**
 * Completion at id-valued fields: which reference site the cursor is in, the text range to replace,
 * and candidates that insert the id while showing the name.
 */
import { getLocation } from 'jsonc-parser';
import type { DocumentKind } from './documentKind';
import type { TextRange } from './problems';
import { matchesSite, REFERENCE_SITES, type NamedRef, type ReferenceSite } from './references';

export interface SiteAtCursor {
  site: ReferenceSite;
  /** What a chosen candidate replaces: the value under the cursor, or nothing at the cursor. */
  range: TextRange;
}

export interface CompletionCandidate {
  /** The object's name, what the user recognises. */
  label: string;
  /** Shown beside the label: the id (and details). */
  description: string;
  /** The JSON literal inserted: `"0a1b..."` or `12`. */
  insertText: string;
  /** Matched against what is typed: name and id both work. */
  filterText: string;
}

/** The reference site at a cursor offset, or undefined when the cursor is not at such a value. */
export function referenceSiteAt(kind: DocumentKind, text: string, offset: number): SiteAtCursor | undefined {
  const location = getLocation(text, offset);
  if (location.isAtPropertyKey) return undefined;
  const site = REFERENCE_SITES[kind].find((candidate) => matchesSite(location.path, candidate.pattern));
  if (!site) return undefined;
  const node = location.previousNode;
  const insideValue =
    node !== undefined &&
    (node.type === 'string' || node.type === 'number') &&
    offset >= node.offset &&
    offset <= node.offset + node.length;
  return { site, range: insideValue ? { offset: node.offset, length: node.length } : { offset, length: 0 } };
}

export function completionCandidates(site: ReferenceSite, items: readonly NamedRef[]): CompletionCandidate[] {
  return items.map((item) => {
    const literal = site.byName
      ? JSON.stringify(item.name)
      : site.numeric
        ? String(Number(item.id))
        : JSON.stringify(String(item.id));
    return {
      label: item.name,
      description: item.detail ? `${item.id} · ${item.detail}` : String(item.id),
      insertText: literal,
      filterText: `${site.numeric ? '' : '"'}${item.name}${site.byName ? '' : ` ${item.id}`}`,
    };
  });
}
