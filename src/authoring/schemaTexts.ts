/**
 * The sentences of the documents' JSON Schemas that problems quote (an `errorMessage`, a `patternErrorMessage`, the
 * meaning of each allowed value, what a required field is for), in the user's language: they are keys of
 * l10n/bundle.l10n.<lang>.json like the messages written in the code (scripts/l10n-export.mjs adds them with the same
 * walk as `schemaSentences`). Looked up when the problem is made, never at module load.
 */
import { l10n } from '../l10n/l10n';

export function schemaText(english: string): string {
  return l10n.t(english);
}

/** A sentence worth translating: one with a word in it ("HLS", "4K" and "MP4" read the same in every language). */
function hasWords(text: string): boolean {
  return /[a-z]{2}/.test(text);
}

/** The first words of an allowed value's meaning ("push" of "push: the source is pushed..."), for a fix's title. */
export function meaningName(description: string): string {
  return description.split(/[:(.]/)[0]!.trim();
}

/** Every sentence of a schema that a problem may quote. */
export function schemaSentences(schema: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(schema)) {
    for (const item of schema) schemaSentences(item, into);
    return into;
  }
  if (!schema || typeof schema !== 'object') return into;
  const node = schema as Record<string, unknown>;
  const add = (text: unknown): void => {
    if (typeof text === 'string' && hasWords(text)) into.add(text);
  };
  add(node.errorMessage);
  add(node.patternErrorMessage);
  if (Array.isArray(node.enumDescriptions))
    for (const meaning of node.enumDescriptions) {
      add(meaning);
      if (typeof meaning === 'string') add(meaningName(meaning));
    }
  const properties = node.properties as Record<string, { description?: unknown } | undefined> | undefined;
  if (Array.isArray(node.required) && properties)
    for (const name of node.required) add(properties[String(name)]?.description);
  for (const value of Object.values(node)) schemaSentences(value, into);
  return into;
}
