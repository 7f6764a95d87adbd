/**
 * Gaps found by auditing the authoring documents as a new user writes them: one problem per mistake
 * (no leftovers of a schema's internal subschemas), messages in plain words, and schema files that
 * say the same in VS Code's JSON language service as in ajv.
 */
import * as assert from 'node:assert/strict';
import type { Channel } from '../../src/api/types';
import { channelToDocument } from '../../src/authoring/channelDocument';
import { DOCUMENT_KINDS, type DocumentKind } from '../../src/authoring/documentKind';
import { completionCandidates, referenceSiteAt } from '../../src/authoring/completion';
import type { ReferenceLists } from '../../src/authoring/references';
import { validatorFor } from '../../src/authoring/schemas';
import { validateDocument } from '../../src/authoring/validate';
import { applyFix, covered, EXAMPLES, HEX, onlyProblem, readJson, textOf } from './fixtures';

/** Every subschema of a schema file with its JSON pointer (defaultSnippets bodies are data, not schemas). */
function subschemas(node: unknown, where = '#'): Array<{ where: string; schema: Record<string, unknown> }> {
  if (Array.isArray(node)) return node.flatMap((n, i) => subschemas(n, `${where}/${i}`));
  if (typeof node !== 'object' || node === null) return [];
  const record = node as Record<string, unknown>;
  return [
    { where, schema: record },
    ...Object.entries(record)
      .filter(([key]) => key !== 'defaultSnippets')
      .flatMap(([key, child]) => subschemas(child, `${where}/${key}`)),
  ];
}

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
      assert.match(
        missing[0].message,
        /transcodeTemplates\[0\] is missing the required field "defaultVideo" \(1 for the rendition/,
      );
    });

    it('an empty ad-hoc template lists every missing field, beside "produces no format" at the same brace', () => {
      const doc = EXAMPLES.transcode() as Json;
      doc.transcodeTemplates[1] = {};
      const problems = validateDocument('transcode', textOf(doc)).problems;
      const missing = problems.filter((p) => p.code === 'schema.required').map((p) => /"(\w+)"/.exec(p.message)?.[1]);
      assert.deepEqual(missing.sort(), [
        'audioBitrate',
        'flv',
        'hls',
        'mp4',
        'name',
        'videoBitrate',
        'videoHeight',
        'videoWidth',
      ]);
      onlyProblem(problems, 'transcode.noFormat');
    });

    it('a logo time that is no whole percentage is said so, not compared with start', () => {
      const doc = EXAMPLES.logogroup() as Json;
      doc.logos[1].end = 1.5;
      const problems = validateDocument('logogroup', textOf(doc)).problems;
      assert.deepEqual(
        problems.map((p) => p.code),
        ['schema.type'],
        JSON.stringify(problems.map((p) => p.message)),
      );
    });

    it('a live template audio bitrate far too high is out of range, not a kbps slip whose fix stays out of range', () => {
      const doc = EXAMPLES.livetemplate() as Json;
      doc.audioBitrate = 100_000_000;
      const problems = validateDocument('livetemplate', textOf(doc)).problems;
      assert.deepEqual(
        problems.map((p) => p.code),
        ['schema.maximum'],
        JSON.stringify(problems.map((p) => p.message)),
      );
    });

    it('no message is left with an empty list of allowed values', () => {
      const doc = EXAMPLES.templategroup() as Json;
      for (const item of doc.transcodeTemplates) item.defaultVideo = 0;
      for (const p of validateDocument('templategroup', textOf(doc)).problems)
        assert.doesNotMatch(p.message, /must be \.|: \s*\./, p.message);
    });
  });

  it('AES asked of MP4 in an ad-hoc template is called not allowed, not "no effect"', () => {
    const doc = EXAMPLES.transcode() as Json;
    doc.transcodeTemplates[1].mp4EncryptType = 6;
    const text = textOf(doc);
    const there = validateDocument('transcode', text).problems.filter((p) =>
      p.message.startsWith('transcodeTemplates[1].mp4EncryptType'),
    );
    assert.deepEqual(
      there.map((p) => p.code),
      ['schema.enum'],
      JSON.stringify(there.map((p) => p.message)),
    );
    assert.match(there[0].message, /AES \(6\) works with HLS only/);
  });

  describe('reference checks', () => {
    const lists: ReferenceLists = {
      liveTemplates: {
        complete: true,
        items: [
          { id: HEX.t720, name: '720p' },
          { id: HEX.t480, name: '480p' },
        ],
      },
      liveLogos: { complete: true, items: [{ id: HEX.logo, name: 'Station' }] },
      categories: { complete: true, items: [{ id: HEX.category, name: 'News' }] },
    };

    it('a template name typed where its id goes is one problem, with the fix to the id', () => {
      const doc = EXAMPLES.channel() as Json;
      doc.outputGroupList[0].outputTemplateList[1].templateId = '480p';
      const text = textOf(doc);
      const { problems } = validateDocument('channel', text, lists);
      const there = problems.filter((p) => covered(text, p) === '"480p"');
      assert.deepEqual(
        there.map((p) => p.code),
        ['reference.liveTemplates'],
        JSON.stringify(there.map((p) => p.message)),
      );
      assert.equal(JSON.parse(applyFix(text, there[0])).outputGroupList[0].outputTemplateList[1].templateId, HEX.t480);
    });
  });

  describe('channel category by name (typeName)', () => {
    const lists: ReferenceLists = { categories: { complete: true, items: [{ id: HEX.category, name: 'News' }] } };
    const withTypeName = (typeName: string, keepType = false): string => {
      const doc = EXAMPLES.channel() as Json;
      if (!keepType) delete doc.type;
      doc.typeName = typeName;
      return textOf(doc);
    };

    it('an unknown category name is flagged at typeName; a known one (any case) is not', () => {
      const text = withTypeName('Sports');
      const problem = onlyProblem(validateDocument('channel', text, lists).problems, 'reference.categories');
      assert.equal(covered(text, problem), '"Sports"');
      assert.match(problem.message, /typeName: this account has no channel category named "Sports"/);
      assert.deepEqual(validateDocument('channel', withTypeName('news'), lists).problems, []);
    });

    it('beside a category id (type) the name is ignored by the platform, so it is not checked', () => {
      assert.deepEqual(validateDocument('channel', withTypeName('Sports', true), lists).problems, []);
    });

    it('a category id typed as typeName is fixed to the name; completion inserts names', () => {
      const text = withTypeName(HEX.category);
      const problem = onlyProblem(validateDocument('channel', text, lists).problems, 'reference.categories');
      assert.equal(JSON.parse(applyFix(text, problem)).typeName, 'News');
      const at = referenceSiteAt('channel', text, text.indexOf(HEX.category) + 2);
      assert.ok(at);
      assert.deepEqual(
        completionCandidates(at.site, lists.categories!.items).map((c) => c.insertText),
        ['"News"'],
      );
    });
  });

  describe('schemas as VS Code reads them', () => {
    // VS Code's JSON language service shows a subschema's errorMessage for every failure of that
    // subschema, a wrong type included; so a rule's message must not sit beside a `type` keyword,
    // and a `contains` needs its own message (VS Code's default is "Array does not contain required item.").
    for (const kind of DOCUMENT_KINDS) {
      it(`${kind}: an errorMessage never stands beside a type keyword, and every contains has a message`, () => {
        const wrong: string[] = [];
        for (const { where, schema } of subschemas(readJson(`schemas/${kind}.schema.json`))) {
          if (typeof schema.errorMessage === 'string' && 'type' in schema)
            wrong.push(`${where}: errorMessage beside type`);
          if ('contains' in schema && typeof schema.errorMessage !== 'string')
            wrong.push(`${where}: contains without errorMessage`);
        }
        assert.deepEqual(wrong, []);
      });
    }

    it('schemas use only keywords VS Code checks or shows (so problems appear there too, not just in ajv)', () => {
      const KNOWN = new Set([
        ...[
          '$schema',
          '$ref',
          'definitions',
          'title',
          'description',
          'markdownDescription',
          'enumDescriptions',
          'defaultSnippets',
          'errorMessage',
          'patternErrorMessage',
        ],
        ...[
          'type',
          'enum',
          'const',
          'properties',
          'additionalProperties',
          'required',
          'items',
          'minItems',
          'maxItems',
          'uniqueItems',
          'contains',
          'minContains',
          'maxContains',
        ],
        ...['minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'allOf', 'if', 'then', 'not'],
      ]);
      const unknown: string[] = [];
      for (const kind of DOCUMENT_KINDS) {
        for (const { where, schema } of subschemas(readJson(`schemas/${kind}.schema.json`))) {
          // Keys of `properties` / `definitions` are names, not keywords.
          if (/\/(properties|definitions)$/.test(where)) continue;
          if (/\/(enum|required|type|enumDescriptions)(\/\d+)?$/.test(where)) continue;
          for (const key of Object.keys(schema)) if (!KNOWN.has(key)) unknown.push(`${kind} ${where}/${key}`);
        }
      }
      assert.deepEqual(unknown, []);
    });

    it('time shift on an RTMP group is one rule (HLS only), not also "timeShiftDuration is missing"', () => {
      const doc = EXAMPLES.channel() as Json;
      doc.outputGroupList[1].isTimeShift = '1';
      const validate = validatorFor('channel');
      assert.equal(validate(doc), false);
      const failures = (validate.errors ?? [])
        .filter((e) => e.keyword !== 'if')
        .map((e) => `${e.instancePath} ${e.keyword}`);
      assert.deepEqual(failures, ['/outputGroupList/1/isTimeShift enum']);
    });

    it('a trial clip duration of the wrong type is a type problem only, not a trial clip rule', () => {
      for (const kind of ['templategroup', 'transcode'] as const) {
        for (const trailor of [true, false]) {
          const doc = EXAMPLES[kind]() as Json;
          doc.trailor = trailor;
          doc.trailorDuration = '30';
          const validate = validatorFor(kind);
          assert.equal(validate(doc), false);
          const keywords = (validate.errors ?? []).map((e) => `${e.keyword} ${e.schemaPath}`);
          assert.deepEqual(
            keywords.filter((k) => k.includes('/then/')),
            [],
            `${kind} trailor ${trailor}: ${keywords.join(', ')}`,
          );
        }
      }
    });
  });

  describe('quick fixes that fix', () => {
    it('text where a list of objects is expected gets no "split at commas" fix', () => {
      for (const [kind, field] of [
        ['templategroup', 'transcodeTemplates'],
        ['channel', 'outputGroupList'],
        ['logogroup', 'logos'],
      ] as const) {
        const doc = EXAMPLES[kind]() as Json;
        doc[field] = 'x';
        const problem = validateDocument(kind, textOf(doc)).problems.find((p) => p.code === 'schema.type');
        assert.ok(problem, `${kind}: no type problem`);
        assert.equal(problem.fix, undefined, `${kind}: ${problem.fix?.title}`);
      }
    });

    const WORDS: Array<[DocumentKind, (doc: Json) => void, string, unknown]> = [
      ['channel', (d) => (d.outputGroupList[0].protocolType = 'HLS'), 'outputGroupList[0].protocolType', 1],
      ['channel', (d) => (d.outputGroupList[1].protocolType = 'rtmp'), 'outputGroupList[1].protocolType', 2],
      ['channel', (d) => ((d.signalType = 'pull'), (d.pullStream = 'rtmp://source.example/live/a')), 'signalType', '2'],
      ['channel', (d) => (d.outputGroupList[0].isRecord = true), 'outputGroupList[0].isRecord', '1'],
      ['channel', (d) => (d.outputGroupList[0].isLiveEncrypt = 'off'), 'outputGroupList[0].isLiveEncrypt', '0'],
      ['templategroup', (d) => (d.transcodeTemplates[2].format = 'mp4'), 'transcodeTemplates[2].format', 1],
      ['templategroup', (d) => (d.transcodeTemplates[0].encryptType = 'AES'), 'transcodeTemplates[0].encryptType', 6],
      ['templategroup', (d) => (d.transcodeTemplates[1].defaultVideo = true), 'transcodeTemplates[1].defaultVideo', 1],
      ['transcode', (d) => (d.videoType = 'VR'), 'videoType', 1],
    ];
    for (const [kind, change, label, want] of WORDS) {
      it(`${kind}: ${label} written as a word or a boolean is fixed to the value it names (${JSON.stringify(want)})`, () => {
        const doc = EXAMPLES[kind]() as Json;
        change(doc);
        const text = textOf(doc);
        const problem = validateDocument(kind, text).problems.find((p) => p.code === 'schema.enum');
        assert.ok(problem, 'no enum problem');
        assert.ok(problem.message.startsWith(label), problem.message);
        const fixed = JSON.parse(applyFix(text, problem)) as Json;
        const value = label
          .split(/[.[\]]+/)
          .filter(Boolean)
          .reduce<any>((o, k) => o[k], fixed); // eslint-disable-line @typescript-eslint/no-explicit-any -- walking a test document
        assert.equal(value, want);
        assert.deepEqual(
          validateDocument(kind, applyFix(text, problem)).problems.filter((p) => p.severity === 'error'),
          [],
        );
      });
    }

    it('a kind numbered 0 and 1 given as a boolean gets no guessed fix', () => {
      const doc = EXAMPLES.templategroup() as Json;
      doc.type = true;
      const problem = validateDocument('templategroup', textOf(doc)).problems.find((p) => p.code === 'schema.enum');
      assert.ok(problem);
      assert.equal(problem.fix, undefined);
    });

    it('ids separated by commas still become a list of ids', () => {
      const doc = EXAMPLES.transcode() as Json;
      doc.videoIds = `${HEX.video1},${HEX.video2}`;
      const problem = onlyProblem(validateDocument('transcode', textOf(doc)).problems, 'schema.type');
      assert.ok(problem.fix);
    });
  });

  describe('template group names', () => {
    const mp4Of720p = (): Json => ({
      ...(EXAMPLES.templategroup() as Json).transcodeTemplates[1],
      format: 1,
      encryptType: 0,
      defaultVideo: 0,
    });

    it('one rendition in HLS and in MP4 (same name and profile, two formats) is valid', () => {
      const doc = EXAMPLES.templategroup() as Json;
      doc.transcodeTemplates.push(mp4Of720p());
      assert.deepEqual(validateDocument('templategroup', textOf(doc)).problems, []);
    });

    it('a repeated name with the same format is an error naming both templates', () => {
      const doc = EXAMPLES.templategroup() as Json;
      doc.transcodeTemplates.push({ ...mp4Of720p(), format: 0 });
      const problem = onlyProblem(
        validateDocument('templategroup', textOf(doc)).problems,
        'templategroup.duplicateName',
      );
      assert.match(
        problem.message,
        /transcodeTemplates\[3\]\.name repeats the name "720p" of transcodeTemplates\[1\] with the same format/,
      );
    });

    it('a repeated name with another size is an error naming what differs', () => {
      const doc = EXAMPLES.templategroup() as Json;
      doc.transcodeTemplates.push({ ...mp4Of720p(), videoHeight: 540 });
      const problem = onlyProblem(
        validateDocument('templategroup', textOf(doc)).problems,
        'templategroup.duplicateName',
      );
      assert.match(problem.message, /but not its videoHeight/);
    });
  });

  describe('names the platform would refuse', () => {
    const NAMES: Array<[DocumentKind, (doc: Json, name: string) => void, string]> = [
      ['channel', (d, n) => (d.name = n), 'name'],
      ['templategroup', (d, n) => (d.name = n), 'name'],
      ['templategroup', (d, n) => (d.transcodeTemplates[0].name = n), 'transcodeTemplates[0].name'],
      ['transcode', (d, n) => (d.transcodeTemplates[0].name = n), 'transcodeTemplates[0].name'],
      ['logogroup', (d, n) => (d.name = n), 'name'],
      ['livetemplate', (d, n) => (d.displayName = n), 'displayName'],
      ['livelogo', (d, n) => (d.name = n), 'name'],
    ];
    for (const [kind, set, label] of NAMES) {
      it(`${kind}: ${label} of spaces only is one problem naming the field; an empty one stays one problem`, () => {
        for (const [name, code] of [
          ['   ', 'schema.pattern'],
          ['', 'schema.minLength'],
        ]) {
          const doc = EXAMPLES[kind]() as Json;
          set(doc, name);
          const text = textOf(doc);
          const there = validateDocument(kind, text).problems.filter((p) => covered(text, p) === JSON.stringify(name));
          assert.deepEqual(
            there.map((p) => p.code),
            [code],
            JSON.stringify(there.map((p) => p.message)),
          );
          assert.ok(there[0].message.startsWith(label), there[0].message);
        }
      });
    }
  });

  it('Open as File leaves out a liveType the response gives as null, so the file is valid', () => {
    const channel = {
      id: HEX.channel,
      name: 'Pull',
      signalType: '2',
      pullStream: 'rtmp://source.example/live/a',
      liveType: null,
      type: null,
      description: null,
      outputGroupList: [
        {
          id: HEX.group,
          protocolType: 1,
          isRecord: null,
          needToMp4: null,
          isTimeShift: null,
          timeShiftDuration: null,
          isLiveEncrypt: null,
          rotation: null,
          logoId: null,
          liveLogoId: null,
          rtmpThirdPartyOutputUrl: null,
          outputTemplateList: [{ id: HEX.t720, templateId: null, isDefault: null }],
          liveOutputs: [{ liveTemplateId: HEX.t720, isDefault: '1' }],
        },
      ],
    } as unknown as Channel;
    const doc = channelToDocument(channel);
    assert.equal('liveType' in doc, false);
    assert.deepEqual(validateDocument('channel', textOf(doc)).problems, []);
  });

  it('a trailing comma does not hide the other problems, and the document is still not taken as valid', () => {
    const doc = EXAMPLES.channel() as Json;
    doc.signalType = '2';
    const text = textOf(doc)
      .replace(/"name": "Morning news",/, '"name": "Morning news",\n  "tags": [],')
      .replace(/(\n\s*\]\n\}\n)$/, ',$1');
    const { value, problems } = validateDocument('channel', text);
    assert.equal(value, undefined);
    assert.deepEqual(problems.map((p) => p.code).sort(), [
      'channel.pullStreamMissing',
      'json.trailingComma',
      'schema.additionalProperties',
    ]);
  });

  it('advancedArguments is a flat object (the platform refuses nested values), in template groups and live templates', () => {
    const group = EXAMPLES.templategroup() as Json;
    group.transcodeTemplates[1].advancedArguments.extra = { deep: 1 };
    const inGroup = validateDocument('templategroup', textOf(group)).problems.filter((p) => p.severity === 'error');
    assert.deepEqual(
      inGroup.map((p) => p.code),
      ['schema.type'],
      JSON.stringify(inGroup.map((p) => p.message)),
    );
    assert.match(inGroup[0].message, /^transcodeTemplates\[1\]\.advancedArguments\.extra must be/);

    const live = EXAMPLES.livetemplate() as Json;
    live.advancedArguments.extra = [1];
    assert.deepEqual(
      validateDocument('livetemplate', textOf(live))
        .problems.filter((p) => p.severity === 'error')
        .map((p) => p.code),
      ['schema.type'],
    );
    live.advancedArguments.extra = 'passed on';
    assert.deepEqual(
      validateDocument('livetemplate', textOf(live)).problems.filter((p) => p.severity === 'error'),
      [],
    );
  });
});
