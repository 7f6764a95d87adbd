/**
 * Id-valued fields that name other platform objects ("reference sites"), checked against the lists
 * fetched from the account (unknown live template, logo, logo group, category, template group) and
 * used for completion. The lists come from the caller, so this stays free of any network code.
 */
import type { DocumentKind } from './documentKind';
import { parse } from 'jsonc-parser';
import { l10n } from '../l10n/l10n';
import { labelOf, type JsonDocument, type JsonPath } from './jsonDocument';
import type { Problem } from './problems';

export type ReferenceKind =
  'liveTemplates' | 'liveLogos' | 'logoGroups' | 'categories' | 'templateGroups' | 'channels' | 'videos';

export interface NamedRef {
  id: string | number;
  name: string;
  /** Extra words for the completion list (size and bitrate of a template, ...). */
  detail?: string;
  /** The record's main fields, label and value, for hovers. */
  fields?: ReadonlyArray<readonly [string, string]>;
}

export interface ReferenceList {
  items: NamedRef[];
  /** False when only a first page was fetched: then a missing id proves nothing. */
  complete: boolean;
}

export type ReferenceLists = Partial<Record<ReferenceKind, ReferenceList>>;

export interface ReferenceSite {
  /** Path with `*` for any array index. */
  pattern: ReadonlyArray<string>;
  ref: ReferenceKind;
  numeric: boolean;
  /** A value meaning "none" that is never checked (logoGroupId 0). */
  none?: number;
  /** The field holds the object's name, not its id (a channel's typeName); matched ignoring case. */
  byName?: boolean;
  /** A field whose presence makes the platform ignore this one (typeName beside type). */
  ignoredBeside?: string;
}

/** What a reference names, for messages and hovers ("live template"), in the user's language. */
export function referenceLabel(ref: ReferenceKind): string {
  switch (ref) {
    case 'liveTemplates':
      return l10n.t('live template');
    case 'liveLogos':
      return l10n.t('live logo');
    case 'logoGroups':
      return l10n.t('logo group');
    case 'categories':
      return l10n.t('channel category');
    case 'templateGroups':
      return l10n.t('template group');
    case 'channels':
      return l10n.t('channel');
    case 'videos':
      return l10n.t('video');
  }
}

export const REFERENCE_SITES: Readonly<Record<DocumentKind, readonly ReferenceSite[]>> = {
  channel: [
    { pattern: ['id'], ref: 'channels', numeric: false },
    { pattern: ['type'], ref: 'categories', numeric: false },
    { pattern: ['typeName'], ref: 'categories', numeric: false, byName: true, ignoredBeside: 'type' },
    { pattern: ['outputGroupList', '*', 'logoId'], ref: 'liveLogos', numeric: false },
    {
      pattern: ['outputGroupList', '*', 'outputTemplateList', '*', 'templateId'],
      ref: 'liveTemplates',
      numeric: false,
    },
  ],
  templategroup: [
    { pattern: ['id'], ref: 'templateGroups', numeric: true },
    { pattern: ['logoGroupId'], ref: 'logoGroups', numeric: true, none: 0 },
  ],
  logogroup: [{ pattern: ['id'], ref: 'logoGroups', numeric: true }],
  transcode: [
    { pattern: ['videoIds', '*'], ref: 'videos', numeric: false },
    { pattern: ['transcodeTemplateGroupId'], ref: 'templateGroups', numeric: true },
    { pattern: ['transcodeTemplates', 'logoGroupId'], ref: 'logoGroups', numeric: true, none: 0 },
    { pattern: ['transcodeTemplates', '*', 'logoGroupId'], ref: 'logoGroups', numeric: true, none: 0 },
    { pattern: ['transcodeTemplates', 'templates', '*', 'logoGroupId'], ref: 'logoGroups', numeric: true, none: 0 },
  ],
  livetemplate: [{ pattern: ['id'], ref: 'liveTemplates', numeric: false }],
  livelogo: [{ pattern: ['id'], ref: 'liveLogos', numeric: false }],
};

/** Whether a concrete path matches a site pattern (`*` matches array indexes only). */
export function matchesSite(path: JsonPath, pattern: ReadonlyArray<string>): boolean {
  if (path.length !== pattern.length) return false;
  return pattern.every((segment, i) => (segment === '*' ? typeof path[i] === 'number' : segment === path[i]));
}

/** Every value of the document at a site, with its concrete path. */
export function valuesAtSite(
  value: unknown,
  pattern: ReadonlyArray<string>,
): Array<{ path: Array<string | number>; value: unknown }> {
  let frontier: Array<{ path: Array<string | number>; value: unknown }> = [{ path: [], value }];
  for (const segment of pattern) {
    const next: typeof frontier = [];
    for (const { path, value: current } of frontier) {
      if (segment === '*') {
        if (Array.isArray(current)) current.forEach((item, i) => next.push({ path: [...path, i], value: item }));
      } else if (
        typeof current === 'object' &&
        current !== null &&
        !Array.isArray(current) &&
        Object.prototype.hasOwnProperty.call(current, segment)
      ) {
        next.push({ path: [...path, segment], value: (current as Record<string, unknown>)[segment] });
      }
    }
    frontier = next;
  }
  return frontier;
}

/** The reference kinds a document kind uses (what to fetch before checking or completing). */
export function referenceKindsOf(kind: DocumentKind): ReferenceKind[] {
  return [...new Set(REFERENCE_SITES[kind].map((site) => site.ref))];
}

/**
 * The ids a document names at the sites of one reference kind (read leniently, as typed so far):
 * what to look up one by one when the account's list of that kind is too long to fetch whole.
 */
export function idsNamed(kind: DocumentKind, text: string, ref: ReferenceKind): string[] {
  const value: unknown = parse(text, [], { allowTrailingComma: true });
  const ids = new Set<string>();
  for (const site of REFERENCE_SITES[kind]) {
    if (site.ref !== ref || site.byName) continue;
    for (const { value: id } of valuesAtSite(value, site.pattern))
      if ((typeof id === 'string' && id.trim() !== '') || typeof id === 'number') ids.add(String(id));
  }
  return [...ids];
}

/** Unknown ids, for the lists that were fetched completely. */
export function referenceProblems(
  kind: DocumentKind,
  doc: JsonDocument,
  value: unknown,
  lists: ReferenceLists,
): Problem[] {
  const problems: Problem[] = [];
  for (const site of REFERENCE_SITES[kind]) {
    const list = lists[site.ref];
    if (!list?.complete) continue;
    if (
      site.ignoredBeside &&
      typeof value === 'object' &&
      value !== null &&
      Object.prototype.hasOwnProperty.call(value, site.ignoredBeside)
    )
      continue;
    for (const { path, value: id } of valuesAtSite(value, site.pattern)) {
      if (typeof id !== 'string' && typeof id !== 'number') continue;
      if (site.none !== undefined && id === site.none) continue;
      if (site.byName) {
        const problem = unknownName(doc, path, String(id), site, list);
        if (problem) problems.push(problem);
        continue;
      }
      if (list.items.some((item) => String(item.id) === String(id))) continue;
      const what = referenceLabel(site.ref);
      const byName = list.items.filter((item) => item.name.toLowerCase() === String(id).toLowerCase());
      const named = byName.length === 1 ? byName[0] : undefined;
      const field = labelOf(path);
      problems.push({
        severity: 'error',
        code: `reference.${site.ref}`,
        range: doc.valueRange(path),
        message: named
          ? l10n.t(
              '{0}: this account has no {1} with id {2}. "{3}" is the name of {1} {4}; use its id.',
              field,
              what,
              JSON.stringify(id),
              named.name,
              JSON.stringify(named.id),
            )
          : l10n.t(
              '{0}: this account has no {1} with id {2}. Pick one with completion (Ctrl+Space) here.',
              field,
              what,
              JSON.stringify(id),
            ),
        fix: named ? doc.fix(l10n.t('Use the id of "{0}"', named.name), (d) => d.set(path, named.id)) : undefined,
      });
    }
  }
  return problems;
}

/** A name (typeName) no object of the list has, ignoring case as the platform does. */
function unknownName(
  doc: JsonDocument,
  path: Array<string | number>,
  name: string,
  site: ReferenceSite,
  list: ReferenceList,
): Problem | undefined {
  const wanted = name.trim().toLowerCase();
  if (list.items.some((item) => item.name.toLowerCase() === wanted)) return undefined;
  const what = referenceLabel(site.ref);
  const byId = list.items.find((item) => String(item.id) === name);
  const field = labelOf(path);
  return {
    severity: 'error',
    code: `reference.${site.ref}`,
    range: doc.valueRange(path),
    message: byId
      ? l10n.t(
          '{0}: this account has no {1} named {2}. {2} is the id of {1} "{3}"; use its name.',
          field,
          what,
          JSON.stringify(name),
          byId.name,
        )
      : l10n.t(
          '{0}: this account has no {1} named {2}. Pick one with completion (Ctrl+Space) here.',
          field,
          what,
          JSON.stringify(name),
        ),
    fix: byId ? doc.fix(l10n.t('Use the name "{0}"', byId.name), (d) => d.set(path, byId.name)) : undefined,
  };
}
