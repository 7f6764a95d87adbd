/**
 * The ajv settings the schemas are checked with. The extension does not compile schemas when it
 * runs: `npm run build` compiles each one with these settings into standalone code
 * (scripts/generateValidators.ts), which ./schemas.ts loads. Tests compile with them too.
 */
import Ajv from 'ajv';

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
 * A strict ajv instance (unknown keywords and type slips in a schema are errors, not silent).
 * `standalone`: keep the generated source, to write it out as a module.
 */
export function createAjv(standalone = false): Ajv {
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
    ...(standalone ? { code: { source: true } } : {}),
  });
  ajv.addVocabulary([...EDITOR_KEYWORDS, ...CONTAINS_LIMITS]);
  return ajv;
}
