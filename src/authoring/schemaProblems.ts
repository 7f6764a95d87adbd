/**
 * Turns ajv errors into problems in plain words: each names the field (`outputGroupList[0].rotation`)
 * and the rule, points at the offending value in the text, and offers a fix where one is obvious
 * (a number written as text, a flag of the wrong type, a misspelt field name).
 */
import type { ErrorObject } from 'ajv';
import { l10n } from '../l10n/l10n';
import { JsonDocument, labelOf, pointerToPath, type JsonPath } from './jsonDocument';
import type { Fix, Problem } from './problems';
import { meaningName, schemaText } from './schemaTexts';

interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  default?: unknown;
  definitions?: Record<string, SchemaNode>;
  description?: string;
  errorMessage?: string;
  patternErrorMessage?: string;
  enum?: unknown[];
  const?: unknown;
  enumDescriptions?: string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, SchemaNode>;
  items?: { type?: unknown };
}

/**
 * Errors left to the extra rules, which say the same with a better place to point at and a fix:
 * every conditional (if/then) branch and the "at least one default" `contains` of the schemas. ajv
 * also reports why each item failed the `contains` subschema (`defaultVideo` not 1, or missing):
 * those are no mistakes of the items themselves, so they are left out too.
 */
function mirroredByRules(error: ErrorObject): boolean {
  return (
    error.keyword === 'if' ||
    error.keyword === 'contains' ||
    error.schemaPath.includes('/then/') ||
    error.schemaPath.includes('/contains/')
  );
}

/** `root`: the kind's whole schema, read when a `$ref` must be followed (a missing field's value). */
export function schemaProblems(
  errors: readonly ErrorObject[] | null | undefined,
  doc: JsonDocument,
  root: () => object = () => ({}),
): Problem[] {
  const problems: Problem[] = [];
  for (const error of errors ?? []) {
    if (mirroredByRules(error)) continue;
    const problem = toProblem(error, doc, root);
    if (problem) problems.push(problem);
  }
  return problems;
}

function toProblem(error: ErrorObject, doc: JsonDocument, root: () => object): Problem | undefined {
  const path = pointerToPath(error.instancePath);
  const label = labelOf(path);
  const schema = (error.parentSchema ?? {}) as SchemaNode;
  const found = describeValue(error.data);
  const code = `schema.${error.keyword}`;
  const base = { severity: 'error' as const, code };

  switch (error.keyword) {
    case 'required': {
      const missing = String((error.params as { missingProperty: string }).missingProperty);
      const about = schema.properties?.[missing]?.description;
      const value = startingValue(schema.properties?.[missing], root);
      const shown = JSON.stringify(value);
      return {
        ...base,
        message: missingWords(
          path.length === 0 ? undefined : label,
          missing,
          about ? lowerFirst(schemaText(about)) : undefined,
        ),
        range: doc.markerRange(path),
        fix: doc.fix(
          l10n.t('Add "{0}": {1}', missing, shown.length > 30 ? '...' : shown),
          (d) => d.set([...path, missing], value),
          [...path, missing],
        ),
      };
    }
    case 'additionalProperties': {
      const extra = String((error.params as { additionalProperty: string }).additionalProperty);
      const known = Object.keys(schema.properties ?? {}).filter((k) => k !== '$schema');
      const guess = closest(extra, known);
      const notAField =
        path.length === 0
          ? l10n.t('"{0}" is not a field of this file.', extra)
          : l10n.t('"{0}" is not a field of {1}.', extra, label);
      const listing = guess
        ? l10n.t('Did you mean "{0}"?', guess)
        : known.length <= 12
          ? l10n.t('Known fields: {0}.', known.join(', '))
          : '';
      return {
        ...base,
        message: listing ? `${notAField} ${listing}` : notAField,
        range: doc.markerRange([...path, extra]),
        fix:
          guess && !known.includes(extra) && !hasKey(error.data, guess)
            ? doc.fix(l10n.t('Rename to "{0}"', guess), (d) => d.renameKey([...path, extra], guess))
            : undefined,
      };
    }
    case 'type': {
      const expected = ([] as string[]).concat((error.params as { type: string | string[] }).type);
      if (path.length === 0)
        return { ...base, message: l10n.t('The document must be a JSON object { ... }.'), range: doc.valueRange(path) };
      return {
        ...base,
        message: l10n.t('{0} must be {1}; found {2}.', label, orList(expected.map(typeWords)), found),
        range: doc.valueRange(path),
        fix: typeFix(doc, path, expected, error.data, schema),
      };
    }
    case 'enum':
    case 'const': {
      const rule = schema.errorMessage !== undefined ? schemaText(schema.errorMessage) : enumWords(schema);
      return {
        ...base,
        message: l10n.t('{0}: {1} Found {2}.', label, rule, found),
        range: doc.valueRange(path),
        fix: enumFix(doc, path, allowedValues(schema), error.data, schema.enumDescriptions),
        alternatives: eachAllowed(doc, path, allowedValues(schema), schema.enumDescriptions),
      };
    }
    case 'pattern':
      return {
        ...base,
        message: l10n.t(
          '{0}: {1} Found {2}.',
          label,
          schema.patternErrorMessage !== undefined
            ? schemaText(schema.patternErrorMessage)
            : l10n.t('must match {0}.', error.schema as string),
          found,
        ),
        range: doc.valueRange(path),
      };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return {
        ...base,
        message: l10n.t('{0} must be {1}; found {2}.', label, rangeWords(schema), found),
        range: doc.valueRange(path),
      };
    case 'minLength':
      return {
        ...base,
        message:
          schema.minLength === 1
            ? l10n.t('{0} must not be empty.', label)
            : l10n.t('{0} must be at least {1} characters long.', label, schema.minLength ?? 0),
        range: doc.valueRange(path),
      };
    case 'maxLength':
      return {
        ...base,
        message: l10n.t(
          '{0} must be at most {1} characters long; it has {2}.',
          label,
          schema.maxLength ?? 0,
          String(error.data).length,
        ),
        range: doc.valueRange(path),
      };
    case 'minItems':
      return {
        ...base,
        message:
          (schema.minItems ?? 1) === 1
            ? l10n.t('{0} must list at least 1 item.', label)
            : l10n.t('{0} must list at least {1} items.', label, schema.minItems ?? 1),
        range: doc.markerRange(path),
      };
    case 'maxItems':
      return {
        ...base,
        message: l10n.t(
          '{0} may list at most {1} items; it has {2}.',
          label,
          schema.maxItems ?? 0,
          Array.isArray(error.data) ? error.data.length : '?',
        ),
        range: doc.markerRange(path),
      };
    case 'uniqueItems': {
      const { i, j } = error.params as { i: number; j: number };
      const later = Math.max(i, j);
      const earlier = Math.min(i, j);
      const item = [...path, later];
      return {
        ...base,
        message: l10n.t('{0} repeats {1}; each value may appear once.', labelOf(item), labelOf([...path, earlier])),
        range: doc.valueRange(item),
        fix: doc.fix(l10n.t('Remove the repeated item'), (d) => d.remove(item)),
      };
    }
    case 'not':
      return {
        ...base,
        message: schema.errorMessage
          ? l10n.t('{0}: {1}', label, schemaText(schema.errorMessage))
          : l10n.t('{0}: this value is not allowed here.', label),
        range: doc.valueRange(path),
      };
    default:
      return {
        ...base,
        // ajv's own words (English) for a keyword the schemas do not use today.
        message: error.message ? `${label} ${error.message}.` : l10n.t('{0} breaks a rule of the schema.', label),
        range: doc.valueRange(path),
      };
  }
}

/** `The document` or `outputGroupList[0]` is missing a field, with what the field is for when the schema says. */
function missingWords(label: string | undefined, missing: string, about: string | undefined): string {
  if (label === undefined)
    return about
      ? l10n.t('The document is missing the required field "{0}" ({1})', missing, about)
      : l10n.t('The document is missing the required field "{0}".', missing);
  return about
    ? l10n.t('{0} is missing the required field "{1}" ({2})', label, missing, about)
    : l10n.t('{0} is missing the required field "{1}".', label, missing);
}

function typeWords(type: string): string {
  switch (type) {
    case 'integer':
      return l10n.t('a whole number');
    case 'number':
      return l10n.t('a number');
    case 'string':
      return l10n.t('text in quotes');
    case 'boolean':
      return l10n.t('true or false');
    case 'object':
      return l10n.t('an object { ... }');
    case 'array':
      return l10n.t('a list [ ... ]');
    case 'null':
      return 'null';
    default:
      return type;
  }
}

/** `the text "abc"`, `the number 5`, ... for "found ..." clauses. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return l10n.t('a list');
  switch (typeof value) {
    case 'string':
      return l10n.t('the text {0}', JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value));
    case 'number':
      return l10n.t('the number {0}', value);
    case 'boolean':
      return String(value);
    case 'object':
      return l10n.t('an object');
    default:
      return l10n.t('nothing');
  }
}

/** The values an `enum` or a `const` allows. */
function allowedValues(schema: SchemaNode): unknown[] {
  if (schema.enum) return schema.enum;
  return 'const' in schema ? [schema.const] : [];
}

function enumWords(schema: SchemaNode): string {
  const values = allowedValues(schema);
  const parts = values.map((v, i) => {
    const meaning = schema.enumDescriptions?.[i];
    return meaning ? `${JSON.stringify(v)} (${schemaText(meaning)})` : JSON.stringify(v);
  });
  return l10n.t('must be {0}.', orList(parts));
}

function rangeWords(schema: SchemaNode): string {
  const { minimum, maximum } = schema;
  if (minimum !== undefined && maximum !== undefined) return l10n.t('between {0} and {1}', minimum, maximum);
  if (minimum !== undefined) return l10n.t('at least {0}', minimum);
  if (maximum !== undefined) return l10n.t('at most {0}', maximum);
  return l10n.t('in range');
}

function orList(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return l10n.t('{0} or {1}', parts.slice(0, -1).join(', '), parts[parts.length - 1]!);
}

function lowerFirst(text: string): string {
  const trimmed = text.replace(/[.。]$/, '');
  return trimmed.charAt(0).toLowerCase() + trimmed.slice(1);
}

function hasKey(value: unknown, key: string): boolean {
  return typeof value === 'object' && value !== null && Object.prototype.hasOwnProperty.call(value, key);
}

/** The same value in the expected JSON type, when the conversion is unambiguous. */
function typeFix(
  doc: JsonDocument,
  path: JsonPath,
  expected: string[],
  data: unknown,
  schema: SchemaNode,
): Fix | undefined {
  let converted: unknown;
  const parsed = typeof data === 'string' ? parseJsonText(data) : undefined;
  if (
    parsed !== undefined &&
    expected.includes(Array.isArray(parsed) ? 'array' : typeof parsed === 'object' && parsed !== null ? 'object' : '-')
  ) {
    // The platform's own form: a list or object given as JSON text.
    converted = parsed;
  } else if (
    (expected.includes('integer') || expected.includes('number')) &&
    typeof data === 'string' &&
    /^-?\d+(\.\d+)?$/.test(data.trim())
  ) {
    converted = Number(data.trim());
    if (expected.includes('integer') && !expected.includes('number') && !Number.isInteger(converted)) return undefined;
  } else if (expected.includes('string') && typeof data === 'number') {
    converted = String(data);
  } else if (expected.includes('boolean') && (data === 'true' || data === 'false' || data === 0 || data === 1)) {
    converted = data === 'true' || data === 1;
  } else if (
    expected.includes('array') &&
    schema.items?.type === 'string' &&
    typeof data === 'string' &&
    data.trim() !== '' &&
    !/[[\]{}"]/.test(data)
  ) {
    // Ids separated by commas, as the interface sends them; only for lists of text (not of objects).
    converted = data
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  } else {
    return undefined;
  }
  const shown = JSON.stringify(converted);
  return doc.fix(
    shown.length > 40
      ? Array.isArray(converted)
        ? l10n.t('Use the list this text holds')
        : l10n.t('Use the object this text holds')
      : l10n.t('Use {0}', shown),
    (d) => d.set(path, converted),
  );
}

function parseJsonText(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('[') && !trimmed.startsWith('{')) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * `90` for `"90"` and the other way round, `"1"` for `true` (a flag written as a boolean), and the
 * value a word stands for (`"HLS"` for protocolType, `"push"` for signalType, `"on"` for a flag), when
 * that value is one of the allowed ones.
 */
function enumFix(
  doc: JsonDocument,
  path: JsonPath,
  allowed: unknown[],
  data: unknown,
  descriptions: readonly string[] = [],
): Fix | undefined {
  let candidates: unknown[];
  if (typeof data === 'number') candidates = [String(data)];
  else if (typeof data === 'boolean') candidates = isOnOff(allowed, descriptions) ? (data ? ['1', 1] : ['0', 0]) : [];
  else if (typeof data === 'string' && /^-?\d+$/.test(data.trim())) candidates = [Number(data.trim())];
  else if (typeof data === 'string' && (data === 'true' || data === 'false')) candidates = [data === 'true'];
  else if (typeof data === 'string') candidates = valuesNamed(data, allowed, descriptions);
  else return undefined;
  const converted = candidates.find((candidate) => allowed.some((v) => v === candidate));
  if (converted === undefined) return undefined;
  return doc.fix(l10n.t('Use {0}', JSON.stringify(converted)), (d) => d.set(path, converted));
}

/** One fix per allowed value ("Use 1 (HLS)"), for a short list. */
function eachAllowed(
  doc: JsonDocument,
  path: JsonPath,
  allowed: unknown[],
  descriptions: readonly string[] = [],
): Fix[] | undefined {
  if (allowed.length === 0 || allowed.length > 12) return undefined;
  return allowed.map((value, i) => {
    const described = descriptions[i];
    const meaning = described ? schemaText(meaningName(described)) : undefined;
    const title = meaning
      ? l10n.t('Use {0} ({1})', JSON.stringify(value), meaning)
      : l10n.t('Use {0}', JSON.stringify(value));
    return doc.fix(title, (d) => d.set(path, value));
  });
}

/**
 * The value a missing field starts with: its default, its only or first allowed value, else an empty
 * value of its type (the user then fills it in; its own check says what it needs).
 */
function startingValue(field: SchemaNode | undefined, root: () => object): unknown {
  let node = field ?? {};
  for (let depth = 0; node.$ref && depth < 5; depth++) {
    const name = /^#\/definitions\/(.+)$/.exec(node.$ref)?.[1];
    const target = name ? (root() as SchemaNode).definitions?.[name] : undefined;
    if (!target) break;
    node = { ...target, ...node, $ref: undefined };
  }
  if (node.default !== undefined) return node.default;
  if ('const' in node) return node.const;
  if (node.enum && node.enum.length > 0) return node.enum[0];
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  switch (type) {
    case 'integer':
    case 'number':
      return node.minimum ?? 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return '';
  }
}

/** An off/on choice (a `"0"`/`"1"` flag, defaultVideo), not a kind numbered 0 and 1 (normal / VR). */
function isOnOff(allowed: unknown[], descriptions: readonly string[]): boolean {
  return (
    allowed.every((v) => ['0', '1', 0, 1].includes(v as string | number)) && /^(off|not)\b/i.test(descriptions[0] ?? '')
  );
}

const NOT_A_NAME = new Set(['no', 'not', 'the', 'a', 'an']);

/** Allowed values whose description starts with the word given (`"hls"` -> 1 for "HLS"). */
function valuesNamed(word: string, allowed: unknown[], descriptions: readonly string[]): unknown[] {
  const wanted = word.trim().toLowerCase();
  if (wanted === '' || NOT_A_NAME.has(wanted)) return [];
  return allowed.filter((_, i) => {
    const phrase = (descriptions[i] ?? '').split(/[:(]/)[0].trim().toLowerCase();
    return phrase !== '' && (phrase === wanted || phrase.split(/\s+/)[0] === wanted);
  });
}

/** The known name within edit distance 2 (case changes count as cheap), for misspelt field names. */
export function closest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const d =
      candidate.toLowerCase() === name.toLowerCase() ? 0.5 : editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  const limit = name.length <= 4 ? 1 : 2;
  return bestDistance <= limit ? best : undefined;
}

/** Edit distance counting a swap of neighbours as one edit ("nmae" is one from "name"). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
