import type { DocumentKind } from '../../authoring/documentKind';
import { idsNamed, referenceKindsOf, type NamedRef, type ReferenceLists } from '../../authoring/references';
import { BY_ID, PLATFORM_ID, type ReferenceCache } from './referenceCache';

/** More ids than this in one document are not looked up one by one (their check is skipped). */
const LOOKUP_LIMIT = 200;

/**
 * The lists for checking one document: the account's lists, and for channels and videos whose list
 * stops short, the ids this document names looked up one by one (so an unknown one is flagged).
 * Apart from ReferenceCache: reading a document's ids needs its JSON tree (jsonc-parser), which activation does not.
 */
export async function listsFor(
  references: ReferenceCache,
  kind: DocumentKind,
  text: string,
  documentUri?: string,
): Promise<ReferenceLists | undefined> {
  const lists = await references.lists(referenceKindsOf(kind), documentUri);
  if (!lists) return undefined;
  for (const ref of BY_ID) {
    const list = lists[ref];
    if (!list || list.complete) continue;
    const listed = new Set(list.items.map((item) => String(item.id)));
    const ids = idsNamed(kind, text, ref).filter((id) => !listed.has(id));
    if (ids.length > LOOKUP_LIMIT) continue;
    // Only well-formed ids cost a request (not each prefix of one being typed); the others are no record either.
    const found = await Promise.all(
      ids.filter((id) => PLATFORM_ID.test(id)).map((id) => references.lookup(ref, id, documentUri)),
    );
    // One that could not be told (a network failure): no claim about any of them.
    if (found.some((record) => record === undefined)) continue;
    lists[ref] = { items: [...list.items, ...found.filter((r): r is NamedRef => r !== null)], complete: true };
  }
  return lists;
}
