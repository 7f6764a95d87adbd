/**
 * The schema copies VS Code reads: they still describe every field (completion, hovers), and check
 * nothing, so a problem is listed once, by the extension, with its severity.
 */
import * as assert from 'node:assert/strict';
import Ajv from 'ajv';
import { DOCUMENT_KINDS } from '../../src/authoring/documentKind';
import { editorSchema } from '../../src/authoring/editorSchema';
import { reportedByJsonService } from '../../src/authoring/problems';
import { validateDocument } from '../../src/authoring/validate';
import { EXAMPLES, problemsOf, readJson, textOf } from './fixtures';

/** Every scalar of a value replaced by something no schema of ours allows there. */
function spoiled(value: unknown): unknown {
  if (Array.isArray(value)) return [...value.map(spoiled), ...value.map(spoiled)];
  if (typeof value === 'object' && value !== null)
    return { ...Object.fromEntries(Object.entries(value).map(([k, v]) => [k, spoiled(v)])), notAField: true };
  return typeof value === 'string' ? -12345.5 : 'not this';
}

/** The keywords used anywhere in a schema (not the field names under `properties`). */
function keywordsOf(node: unknown, into = new Set<string>(), names = false): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => keywordsOf(n, into));
  else if (typeof node === 'object' && node !== null)
    for (const [key, child] of Object.entries(node)) {
      if (names) keywordsOf(child, into);
      else if (key === 'examples' || key === 'default' || key === 'defaultSnippets') into.add(key);
      else {
        into.add(key);
        keywordsOf(child, into, key === 'properties' || key === 'definitions');
      }
    }
  return into;
}

describe('editor schemas (what VS Code reads)', () => {
  for (const kind of DOCUMENT_KINDS) {
    it(`${kind}: describes the same fields and suggests the allowed values, but finds nothing to report`, () => {
      const strict = readJson(`schemas/${kind}.schema.json`) as { properties: Record<string, { enum?: unknown[] }> };
      const copy = editorSchema(strict) as {
        properties: Record<string, { examples?: unknown[]; description?: string }>;
      };
      assert.deepEqual(Object.keys(copy.properties), Object.keys(strict.properties));
      for (const [name, field] of Object.entries(strict.properties)) {
        if (field.enum) assert.deepEqual(copy.properties[name]!.examples?.slice(0, field.enum.length), field.enum);
      }
      const keys = keywordsOf(copy);
      for (const check of ['required', 'enum', 'const', 'type', 'additionalProperties', 'pattern', 'minimum', 'if'])
        assert.ok(!keys.has(check), `the copy still has "${check}"`);

      // Not strict: the copy keeps VS Code's own keywords (markdownDescription, defaultSnippets).
      const validate = new Ajv({ strict: false, allErrors: true }).compile(copy);
      const broken = [{}, spoiled(EXAMPLES[kind]())];
      for (const value of broken) {
        assert.ok(validateDocument(kind, textOf(value)).problems.length > 0, 'the extension reports it');
        assert.equal(validate(value), true, JSON.stringify(validate.errors));
      }
    });
  }
});

describe('problems left to VS Code while its JSON check is on', () => {
  it("are what it reports of any JSON file, with the same severity; schema and rule problems are the extension's", () => {
    const repeated = problemsOf('livelogo', '{\n  "name": "a",\n  "uri": "a.png",\n  "name": "b"\n}');
    const key = repeated.find((p) => p.code === 'json.duplicateKey');
    assert.equal(key?.severity, 'warning', 'VS Code words a repeated key as a warning too');
    assert.ok(reportedByJsonService(key));
    const syntax = problemsOf('livelogo', '{ "name": ');
    assert.ok(syntax.length > 0 && syntax.every(reportedByJsonService));
    const schema = problemsOf('templategroup', textOf({ ...EXAMPLES.templategroup(), type: 3 }));
    assert.ok(schema.length > 0 && !schema.some(reportedByJsonService), JSON.stringify(schema));
  });
});
