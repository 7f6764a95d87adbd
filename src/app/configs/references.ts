/**
 * A folder document as the platform takes it: the names it refers by turned into ids (from the account, or from
 * the records this apply created before it), and the ids the state file keeps put back (the record's own, a
 * channel's output groups by position and protocol, so their play addresses stay).
 */
import { kindLabel, type DocumentKind } from '../../authoring/documentKind';
import type { JsonObject } from '../../authoring/rules/ruleKit';
import { l10n } from '../../l10n/l10n';
import type { ConfigKind, ReferredKind } from './folderForm';
import type { StateEntry } from './state';

/** The id a reference names, or undefined when nothing by that name (or id) is known. */
export type Resolver = (kind: ReferredKind, reference: string) => string | undefined;

export function configKindLabel(kind: ConfigKind): string {
  return kind === 'category' ? l10n.t('category') : kindLabel(kind as DocumentKind);
}

export interface PlatformDocument {
  readonly doc: JsonObject;
  /** References to names that do not exist, one sentence each. */
  readonly problems: string[];
}

export function toPlatformDocument(
  kind: ConfigKind,
  folderDoc: JsonObject,
  entry: StateEntry | undefined,
  resolve: Resolver,
): PlatformDocument {
  const doc = structuredClone(folderDoc);
  const problems: string[] = [];
  const lookUp = (target: ReferredKind, reference: unknown, path: string): string | undefined => {
    const id = resolve(target, String(reference));
    if (id === undefined)
      problems.push(
        l10n.t(
          '{0} names {1} "{2}", which is neither in the folder nor on the account.',
          path,
          configKindLabel(target),
          String(reference),
        ),
      );
    return id;
  };
  if (kind === 'templategroup' && typeof doc.logoGroupId === 'string') {
    const id = lookUp('logogroup', doc.logoGroupId, 'logoGroupId');
    doc.logoGroupId = id === undefined ? 0 : Number(id);
  }
  if (kind === 'channel') resolveChannel(doc, entry, lookUp);
  if (entry) return { doc: withId(kind, doc, entry.id), problems };
  return { doc, problems };
}

function resolveChannel(
  doc: JsonObject,
  entry: StateEntry | undefined,
  lookUp: (target: ReferredKind, reference: unknown, path: string) => string | undefined,
): void {
  if (typeof doc.typeName === 'string') {
    const type = lookUp('category', doc.typeName, 'typeName');
    if (type !== undefined) doc.type = type;
  }
  if (!Array.isArray(doc.outputGroupList)) return;
  const unused = [...(entry?.groups ?? [])];
  doc.outputGroupList = doc.outputGroupList.map((value: unknown, i: number) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const group = { ...(value as JsonObject) };
    if (typeof group.logoId === 'string') {
      const logoId = lookUp('livelogo', group.logoId, `outputGroupList[${i}].logoId`);
      if (logoId !== undefined) group.logoId = logoId;
    }
    if (Array.isArray(group.outputTemplateList))
      group.outputTemplateList = group.outputTemplateList.map((template: unknown, j: number) => {
        if (typeof template !== 'object' || template === null || Array.isArray(template)) return template;
        const out = { ...(template as JsonObject) };
        if (typeof out.templateId === 'string') {
          const id = lookUp(
            'livetemplate',
            out.templateId,
            `outputGroupList[${i}].outputTemplateList[${j}].templateId`,
          );
          if (id !== undefined) out.templateId = id;
        }
        return out;
      });
    // The pulled group at the same place, if it has the same protocol: kept (same play addresses), not replaced.
    const kept = unused[i];
    if (kept && kept.protocolType === group.protocolType) {
      unused[i] = { id: '', protocolType: -1 };
      return { id: kept.id, ...group };
    }
    return group;
  });
}

function withId(kind: ConfigKind, doc: JsonObject, id: string): JsonObject {
  if (kind === 'category') return doc;
  const numeric = kind === 'templategroup' || kind === 'logogroup';
  return { id: numeric ? Number(id) : id, ...doc };
}
