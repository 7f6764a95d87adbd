/**
 * Gaps found by auditing the authoring documents as a new user writes them: one problem per mistake
 * (no leftovers of a schema's internal subschemas), messages in plain words, and schema files that
 * say the same in VS Code's JSON language service as in ajv.
 */
import * as assert from 'node:assert/strict';
import { validateDocument } from '../../src/authoring/validate';
import { EXAMPLES, onlyProblem, textOf } from './fixtures';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test documents are changed freely

describe('authoring consistency', () => {
  describe('one problem per mistake', () => {
    it('a template group without a default reports that once, not once per template', () => {
      const doc = EXAMPLES.templategroup() as Json;
      doc.transcodeTemplates[1].defaultVideo = 0;
      const { problems } = validateDocument('templategroup', textOf(doc));
      onlyProblem(problems, 'templategroup.noDefault');
      assert.deepEqual(
        problems.map((p) => p.code),
        ['templategroup.noDefault'],
        JSON.stringify(problems.map((p) => p.message)),
      );
    });

    it('a template without defaultVideo is reported missing once, with the field explained', () => {
      const doc = EXAMPLES.templategroup() as Json;
      delete doc.transcodeTemplates[0].defaultVideo;
      doc.transcodeTemplates[1].defaultVideo = 0;
      const { problems } = validateDocument('templategroup', textOf(doc));
      const missing = problems.filter((p) => p.code === 'schema.required');
      assert.equal(missing.length, 1, JSON.stringify(missing.map((p) => p.message)));
      assert.match(missing[0].message, /transcodeTemplates\[0\] is missing the required field "defaultVideo" \(1 for the rendition/);
    });

    it('no message is left with an empty list of allowed values', () => {
      const doc = EXAMPLES.templategroup() as Json;
      for (const item of doc.transcodeTemplates) item.defaultVideo = 0;
      for (const p of validateDocument('templategroup', textOf(doc)).problems) assert.doesNotMatch(p.message, /must be \.|: \s*\./, p.message);
    });
  });
});
