/**
 * The copy of a kind's schema that VS Code's JSON language features read (contributes.jsonValidation):
 * what they need for completion and hovers (fields, descriptions, values to suggest, snippets), without
 * what they would check. The extension checks the documents itself (src/authoring/validate.ts) and
 * publishes each problem once, in its words and with its severity; VS Code checking the same schema
 * would list every schema problem a second time, as a warning. Written by `npm run build`
 * (scripts/generateValidators.ts) to schemas/editor/<kind>.schema.json.
 */

/** Keywords that only constrain a value: left out, so VS Code reports nothing from this copy. */
const CHECKS = new Set([
  'type',
  'required',
  'additionalProperties',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'pattern',
  'patternErrorMessage',
  'errorMessage',
  'not',
  'if',
  'then',
  'else',
  'enumDescriptions',
  'markdownEnumDescriptions',
]);
/** Keywords whose object value maps names (not keywords) to subschemas. */
const NAME_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs']);
/** Keywords whose value is data, kept exactly. */
const DATA = new Set(['default', 'examples', 'defaultSnippets']);

export function editorSchema(schema: unknown): unknown {
  return copy(schema, false);
}

function copy(schema: unknown, names: boolean): unknown {
  if (Array.isArray(schema)) return schema.map((item) => copy(item, false));
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  const suggested: unknown[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (names) out[key] = copy(value, false);
    else if (CHECKS.has(key)) continue;
    // Allowed values stay suggestions in completion, no longer a check.
    else if (key === 'enum' && Array.isArray(value)) suggested.push(...(value as unknown[]));
    else if (key === 'const') suggested.push(value);
    // One of several subschemas that no longer differ would always "match several": any of them.
    else if (key === 'oneOf') out.anyOf = copy(value, false);
    else out[key] = DATA.has(key) ? value : copy(value, NAME_MAPS.has(key));
  }
  if (suggested.length > 0) {
    const examples = Array.isArray(out.examples) ? (out.examples as unknown[]) : [];
    out.examples = [...suggested, ...examples.filter((e) => !suggested.includes(e))];
  }
  return out;
}
