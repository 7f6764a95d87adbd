/**
 * The one JSON Schema per document kind (the files in schemas/, also contributed to VS Code through
 * `contributes.jsonValidation`), compiled with ajv once per kind on first use and cached.
 */
import Ajv, { type AnySchemaObject, type ValidateFunction } from 'ajv';
import channelSchema from '../../schemas/channel.schema.json';
import templateGroupSchema from '../../schemas/templategroup.schema.json';
import logoGroupSchema from '../../schemas/logogroup.schema.json';
import transcodeSchema from '../../schemas/transcode.schema.json';
import liveTemplateSchema from '../../schemas/livetemplate.schema.json';
import liveLogoSchema from '../../schemas/livelogo.schema.json';
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

export const SCHEMAS: Readonly<Record<DocumentKind, AnySchemaObject>> = {
  channel: channelSchema,
  templategroup: templateGroupSchema,
  logogroup: logoGroupSchema,
  transcode: transcodeSchema,
  livetemplate: liveTemplateSchema,
  livelogo: liveLogoSchema,
};

/** The schema file name of a kind, relative to the extension root (for jsonValidation). */
export function schemaPath(kind: DocumentKind): string {
  return `./schemas/${kind}.schema.json`;
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
  });
  ajv.addVocabulary([...EDITOR_KEYWORDS]);
  return ajv;
}

let sharedAjv: Ajv | undefined;
const validators = new Map<DocumentKind, ValidateFunction>();

/** The compiled validator of a kind; compiled on first use only. */
export function validatorFor(kind: DocumentKind): ValidateFunction {
  let validate = validators.get(kind);
  if (!validate) {
    sharedAjv ??= createAjv();
    validate = sharedAjv.compile(SCHEMAS[kind]);
    validators.set(kind, validate);
  }
  return validate;
}

/** Forgets compiled validators (benchmarks measure the cold compile this way). */
export function clearValidatorCache(): void {
  validators.clear();
  sharedAjv = undefined;
}
