/**
 * The one JSON Schema per document kind: the files in schemas/, which VS Code also reads through
 * `contributes.jsonValidation`. The extension checks documents with validators compiled from these
 * files by `npm run build` (standalone code in src/authoring/generated/, a build output that is not
 * committed; see scripts/generateValidators.ts), so nothing is compiled while the user types.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnySchemaObject, ValidateFunction } from 'ajv';
import type { DocumentKind } from './documentKind';

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

// Generated CommonJS modules, loaded on first use (the bundle takes them in: the paths are literal).
const GENERATED: Readonly<Record<DocumentKind, () => unknown>> = {
  channel: () => require('./generated/channel.js'),
  templategroup: () => require('./generated/templategroup.js'),
  logogroup: () => require('./generated/logogroup.js'),
  transcode: () => require('./generated/transcode.js'),
  livetemplate: () => require('./generated/livetemplate.js'),
  livelogo: () => require('./generated/livelogo.js'),
};

const validators = new Map<DocumentKind, ValidateFunction>();

/** The validator of a kind, compiled from its schema file at build time; loaded on first use. */
export function validatorFor(kind: DocumentKind): ValidateFunction {
  let validate = validators.get(kind);
  if (!validate) {
    try {
      validate = GENERATED[kind]() as ValidateFunction;
    } catch (error) {
      throw new Error(
        `The ${kind} validator has not been generated from schemas/${kind}.schema.json: run npm run build.`,
        { cause: error },
      );
    }
    validators.set(kind, validate);
  }
  return validate;
}

/** Forgets read schemas and loaded validators (benchmarks measure the cold start this way). */
export function clearValidatorCache(): void {
  validators.clear();
  loaded.clear();
}
