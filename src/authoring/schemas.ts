/**
 * The one JSON Schema per document kind: the files in schemas/, which VS Code also reads through
 * `contributes.jsonValidation`. They are read from disk (shipped once in the package, not copied into
 * the bundle), compiled with ajv once per kind on first use, and cached.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type AnySchemaObject, type ValidateFunction } from 'ajv';
import type { DocumentKind } from './documentKind';

/** Annotation keywords VS Code understands; ajv must know them to stay in strict mode. */
export const EDITOR_KEYWORDS = [
  'markdownDescription',
  'defaultSnippets',
  'enumDescriptions',
  'markdownEnumDescriptions',
  'errorMessage',
  'patternErrorMessage',
] as const;

/** Draft 2019-09 bounds of `contains`, honoured by VS Code and (with `next`) by ajv's draft-07 `contains`. */
const CONTAINS_LIMITS = ['minContains', 'maxContains'] as const;

/**
 * The schemas folder: beside dist/ in the extension (the bundle runs from dist/extension.js), two
 * levels up from src/authoring/ when run from sources (tests, benchmarks).
 */
function schemaDirectory(): string {
  const candidates = [join(__dirname, '..', 'schemas'), join(__dirname, '..', '..', 'schemas')];
  const found = candidates.find((dir) => existsSync(join(dir, 'channel.schema.json')));
  if (!found) throw new Error(`The authoring schemas were not found (looked in ${candidates.join(' and ')}).`);
  return found;
}

const loaded = new Map<DocumentKind, AnySchemaObject>();

/** The parsed schema file of a kind. */
export function schemaOf(kind: DocumentKind): AnySchemaObject {
  let schema = loaded.get(kind);
  if (!schema) {
    schema = JSON.parse(readFileSync(join(schemaDirectory(), `${kind}.schema.json`), 'utf8')) as AnySchemaObject;
    loaded.set(kind, schema);
  }
  return schema;
}

/** A strict ajv instance (unknown keywords and type slips in a schema are errors, not silent). */
export function createAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    strictSchema: true,
    strictNumbers: true,
    strictTypes: true,
    strictTuples: true,
    // `required` inside if/then names properties declared at the outer level.
    strictRequired: false,
    allowUnionTypes: true,
    // minContains / maxContains beside `contains` ("exactly one default"), which VS Code's JSON
    // language service checks as well; ajv reads them with this option.
    next: true,
  });
  ajv.addVocabulary([...EDITOR_KEYWORDS, ...CONTAINS_LIMITS]);
  return ajv;
}

let sharedAjv: Ajv | undefined;
const validators = new Map<DocumentKind, ValidateFunction>();

/** The compiled validator of a kind; compiled on first use only. */
export function validatorFor(kind: DocumentKind): ValidateFunction {
  let validate = validators.get(kind);
  if (!validate) {
    sharedAjv ??= createAjv();
    validate = sharedAjv.compile(schemaOf(kind));
    validators.set(kind, validate);
  }
  return validate;
}

/** Forgets read schemas and compiled validators (benchmarks measure the cold start this way). */
export function clearValidatorCache(): void {
  validators.clear();
  loaded.clear();
  sharedAjv = undefined;
}
