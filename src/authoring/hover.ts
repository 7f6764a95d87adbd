/**
 * Hovers on ids: which reference site (src/authoring/references.ts) the cursor is on, and what to say
 * about the record the id names: its name and main fields, or that the account has no such record.
 */
import { getLocation } from 'jsonc-parser';
import type { DocumentKind } from './documentKind';
import { l10n } from '../l10n/l10n';
import type { TextRange } from './problems';
import { matchesSite, referenceLabel, REFERENCE_SITES, type NamedRef, type ReferenceSite } from './references';

export interface IdAtCursor {
  site: ReferenceSite;
  /** The value as written (an id, or a name for `byName` sites). */
  id: string | number;
  range: TextRange;
}

/** The id-valued field under the cursor, or undefined when the cursor is elsewhere. */
export function idAt(kind: DocumentKind, text: string, offset: number): IdAtCursor | undefined {
  const location = getLocation(text, offset);
  if (location.isAtPropertyKey) return undefined;
  const node = location.previousNode;
  if (!node || (node.type !== 'string' && node.type !== 'number')) return undefined;
  if (offset < node.offset || offset > node.offset + node.length) return undefined;
  const site = REFERENCE_SITES[kind].find((candidate) => matchesSite(location.path, candidate.pattern));
  if (!site || (site.none !== undefined && node.value === site.none)) return undefined;
  if (node.value === '') return undefined;
  return { site, id: node.value as string | number, range: { offset: node.offset, length: node.length } };
}

/** What the lookup found: the record, none (the account has no such record), or nothing known (no account). */
export type Lookup = { record: NamedRef } | { record: undefined; known: boolean };

/** The hover's Markdown. */
export function hoverMarkdown(at: IdAtCursor, lookup: Lookup): string {
  const what = referenceLabel(at.site.ref);
  const written = `\`${String(at.id)}\``;
  if (!lookup.record) {
    if (at.site.byName)
      return lookup.known
        ? l10n.t('This account has no {0} named {1}.', what, written)
        : l10n.t('A {0} named {1} (not looked up: no account is active).', what, written);
    return lookup.known
      ? l10n.t('This account has no {0} with id {1}.', what, written)
      : l10n.t('A {0} with id {1} (not looked up: no account is active).', what, written);
  }
  const { record } = lookup;
  const fields = (record.fields ?? []).map(([label, value]) => `- ${label}: ${escape(value)}`);
  return [
    `**${escape(record.name)}** — ${what} \`${String(record.id)}\``,
    ...(fields.length ? ['', ...fields] : []),
  ].join('\n');
}

/** Markdown's special characters in platform text shown as they are. */
function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]<>()#+!|]/g, '\\$&');
}
