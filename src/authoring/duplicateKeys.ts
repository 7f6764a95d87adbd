/**
 * A field given twice in one object: JSON parsers keep the last one silently, so say so. A warning,
 * as VS Code's JSON check words it too: what is sent is well defined (the last one).
 */
import type { Node } from 'jsonc-parser';
import { getNodePath } from 'jsonc-parser';
import { l10n } from '../l10n/l10n';
import { labelOf, rangeOf, type JsonDocument } from './jsonDocument';
import type { Problem } from './problems';

export function duplicateKeyProblems(doc: JsonDocument): Problem[] {
  // Most documents repeat nothing: a count over the text says so without the tree.
  if (!doc.repeatsKeys) return [];
  const problems: Problem[] = [];
  const visit = (node: Node): void => {
    if (node.type === 'object' && node.children && node.children.length > 1 && hasRepeatedKey(node.children)) {
      const lastIndex = new Map<string, number>();
      node.children?.forEach((property, i) => lastIndex.set(String(property.children?.[0]?.value), i));
      node.children?.forEach((property, i) => {
        const key = property.children?.[0];
        if (!key) return;
        const name = String(key.value);
        if (lastIndex.get(name) === i) return;
        const where = getNodePath(node);
        problems.push({
          severity: 'warning',
          code: 'json.duplicateKey',
          range: rangeOf(key),
          message: where.length
            ? l10n.t('"{0}" appears more than once in {1}; only the last one counts.', name, labelOf(where))
            : l10n.t('"{0}" appears more than once in the document; only the last one counts.', name),
          fix: { title: l10n.t('Remove this "{0}"', name), edits: [removalEdit(doc.text, node, i)] },
        });
      });
    }
    if (node.children) for (const child of node.children) visit(child);
  };
  if (doc.root) visit(doc.root);
  return problems;
}

/** A quick first look (most objects repeat nothing), before working out which ones. */
function hasRepeatedKey(properties: Node[]): boolean {
  const names = new Set<unknown>();
  for (const property of properties) {
    const name = String(property.children?.[0]?.value);
    if (names.has(name)) return true;
    names.add(name);
  }
  return false;
}

/** Removes the i-th property of an object with its separating comma. */
function removalEdit(text: string, object: Node, index: number): { offset: number; length: number; newText: string } {
  const properties = object.children ?? [];
  const property = properties[index];
  const next = properties[index + 1];
  if (next) return { offset: property.offset, length: next.offset - property.offset, newText: '' };
  const previous = properties[index - 1];
  const start = previous ? previous.offset + previous.length : property.offset;
  return { offset: start, length: property.offset + property.length - start, newText: '' };
}
