/**
 * Quick fixes: applying a problem's edits to the text removes that problem on re-validation and
 * changes exactly what the fix says (the document after the fix is compared with the expected one).
 */
import * as assert from 'node:assert/strict';
import type { DocumentKind } from '../../src/authoring/documentKind';
import { applyTextEdits } from '../../src/authoring/problems';
import { validateDocument } from '../../src/authoring/validate';
import { applyFix, covered, EXAMPLES, HEX, onlyProblem, problemsOf, textOf } from './fixtures';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test documents are changed freely

interface FixCase {
  kind: DocumentKind;
  title: string;
  /** Breaks the example. */
  change: (doc: Json) => void;
  code: string;
  /** Which of several problems with the code to fix (default the first). */
  pick?: number;
  /** The document the fix should produce, from the broken one. */
  want: (doc: Json) => void;
  /** Whether the fixed document is free of errors (false when the example stays broken elsewhere). */
  clean?: boolean;
}

const CASES: FixCase[] = [
  {
    kind: 'channel',
    title: 'remove time shift from an RTMP group',
    change: (d) => Object.assign(d.outputGroupList[1], { isTimeShift: '1', timeShiftDuration: '4' }),
    code: 'channel.timeShiftOnRtmp',
    want: (d) => (delete d.outputGroupList[1].isTimeShift, delete d.outputGroupList[1].timeShiftDuration),
  },
  {
    kind: 'channel',
    title: 'remove encryption from an RTMP group',
    change: (d) => (d.outputGroupList[1].isLiveEncrypt = '1'),
    code: 'channel.encryptionOnRtmp',
    want: (d) => delete d.outputGroupList[1].isLiveEncrypt,
  },
  {
    kind: 'channel',
    title: 'remove a third-party address from an HLS group',
    change: (d) => (d.outputGroupList[0].rtmpThirdPartyOutputUrl = 'rtmp://x.example/a'),
    code: 'channel.thirdPartyUrlOnHls',
    want: (d) => delete d.outputGroupList[0].rtmpThirdPartyOutputUrl,
  },
  {
    kind: 'channel',
    title: 'add the missing timeShiftDuration',
    change: (d) => delete d.outputGroupList[0].timeShiftDuration,
    code: 'channel.timeShiftDurationMissing',
    want: (d) => (d.outputGroupList[0].timeShiftDuration = '2'),
  },
  {
    kind: 'channel',
    title: 'remove a timeShiftDuration that does nothing',
    change: (d) => (d.outputGroupList[0].isTimeShift = '0'),
    code: 'channel.timeShiftDurationUnused',
    want: (d) => delete d.outputGroupList[0].timeShiftDuration,
  },
  {
    kind: 'channel',
    title: 'turn recording on for MP4 conversion',
    change: (d) => (d.outputGroupList[0].isRecord = '0'),
    code: 'channel.mp4WithoutRecording',
    want: (d) => (d.outputGroupList[0].isRecord = '1'),
  },
  {
    kind: 'channel',
    title: 'remove pullStream from a push channel',
    change: (d) => (d.pullStream = 'rtmp://source.example/live'),
    code: 'channel.pullStreamUnused',
    want: (d) => delete d.pullStream,
  },
  {
    kind: 'channel',
    title: 'remove a repeated template',
    change: (d) => d.outputGroupList[0].outputTemplateList.push({ templateId: HEX.t480, isDefault: '0' }),
    code: 'channel.duplicateTemplate',
    want: (d) => d.outputGroupList[0].outputTemplateList.pop(),
  },
  {
    kind: 'channel',
    title: 'set the only default output template',
    change: (d) => (d.outputGroupList[0].outputTemplateList[1].isDefault = '1'),
    code: 'channel.severalDefaults',
    pick: 1,
    want: (d) => (d.outputGroupList[0].outputTemplateList[0].isDefault = '0'),
  },
  {
    kind: 'channel',
    title: 'make the first output template the default (number flags stay numbers)',
    change: (d) => (d.outputGroupList[1].outputTemplateList[0].isDefault = 0),
    code: 'channel.noDefault',
    want: (d) => (d.outputGroupList[1].outputTemplateList[0].isDefault = 1),
  },
  {
    kind: 'templategroup',
    title: 'make the first template the default',
    change: (d) => (d.transcodeTemplates[1].defaultVideo = 0),
    code: 'templategroup.noDefault',
    want: (d) => (d.transcodeTemplates[0].defaultVideo = 1),
  },
  {
    kind: 'templategroup',
    title: 'set the only default template',
    change: (d) => (d.transcodeTemplates[2].defaultVideo = 1),
    code: 'templategroup.severalDefaults',
    pick: 1,
    want: (d) => (d.transcodeTemplates[1].defaultVideo = 0),
  },
  {
    kind: 'templategroup',
    title: 'use HLS for an AES template',
    change: (d) => (d.transcodeTemplates[2].encryptType = 6),
    code: 'templategroup.aesNotHls',
    want: (d) => (d.transcodeTemplates[2].format = 0),
  },
  {
    kind: 'templategroup',
    title: 'set trailorDuration to 0 without trailor',
    change: (d) => (d.trailor = false),
    code: 'templategroup.trailorDurationUnused',
    want: (d) => (d.trailorDuration = 0),
  },
  {
    kind: 'templategroup',
    title: 'audio bitrate from kbps to bits per second',
    change: (d) => (d.transcodeTemplates[0].audioBitrate = 96),
    code: 'bitrate.audioUnit',
    want: (d) => (d.transcodeTemplates[0].audioBitrate = 96000),
  },
  {
    kind: 'templategroup',
    title: 'video bitrate from bits per second to kbps',
    change: (d) => (d.transcodeTemplates[0].videoBitrate = 4500000),
    code: 'bitrate.videoUnit',
    want: (d) => (d.transcodeTemplates[0].videoBitrate = 4500),
  },
  {
    kind: 'templategroup',
    title: 'rename a misspelt advanced argument',
    change: (d) => (d.transcodeTemplates[0].advancedArguments = { refframe: 2 }),
    code: 'advancedArguments.unknownKey',
    want: (d) => (d.transcodeTemplates[0].advancedArguments = { refFrame: 2 }),
  },
  {
    kind: 'livetemplate',
    title: 'live audio bitrate from bits per second to kbps',
    change: (d) => (d.audioBitrate = 64000),
    code: 'bitrate.audioUnit',
    want: (d) => (d.audioBitrate = 64),
  },
  {
    kind: 'transcode',
    title: 'remove an ignored template group id',
    change: (d) => (d.transcodeTemplateGroupId = 7),
    code: 'transcode.groupIgnored',
    want: (d) => delete d.transcodeTemplateGroupId,
  },
  {
    kind: 'transcode',
    title: 'remove videoType when a template group is used',
    change: (d) => (
      delete d.transcodeTemplates,
      delete d.trailor,
      delete d.trailorDuration,
      (d.transcodeTemplateGroupId = 7)
    ),
    code: 'transcode.onlyWithTemplates',
    want: (d) => delete d.videoType,
  },
  {
    kind: 'transcode',
    title: 'remove trailorDuration without trailor',
    change: (d) => (d.trailor = false),
    code: 'transcode.trailorDurationUnused',
    want: (d) => delete d.trailorDuration,
  },
  {
    kind: 'transcode',
    title: 'produce HLS when no format is chosen',
    change: (d) => Object.assign(d.transcodeTemplates[0], { hls: false, mp4: false, hlsEncryptType: 0 }),
    code: 'transcode.noFormat',
    want: (d) => (d.transcodeTemplates[0].hls = true),
  },
  {
    kind: 'transcode',
    title: 'remove encryption of a format not produced',
    change: (d) => (d.transcodeTemplates[1].mp4EncryptType = 7),
    code: 'transcode.encryptionWithoutFormat',
    want: (d) => delete d.transcodeTemplates[1].mp4EncryptType,
  },
  {
    kind: 'transcode',
    title: 'set the only default ad-hoc template',
    change: (d) => (d.transcodeTemplates[1].defaultVideo = 1),
    code: 'transcode.severalDefaults',
    want: (d) => (d.transcodeTemplates[1].defaultVideo = 0),
  },
  {
    kind: 'transcode',
    title: 'video ids given as comma text become a list',
    change: (d) => (d.videoIds = `${HEX.video1}, ${HEX.video2}`),
    code: 'schema.type',
    want: (d) => (d.videoIds = [HEX.video1, HEX.video2]),
  },
  {
    kind: 'transcode',
    title: 'remove a repeated video id',
    change: (d) => d.videoIds.push(HEX.video1),
    code: 'schema.uniqueItems',
    want: (d) => d.videoIds.pop(),
  },
  {
    kind: 'templategroup',
    title: 'templates given as JSON text become a list',
    change: (d) => (d.transcodeTemplates = JSON.stringify(d.transcodeTemplates)),
    code: 'schema.type',
    want: (d) => (d.transcodeTemplates = JSON.parse(d.transcodeTemplates as string)),
  },
  {
    kind: 'templategroup',
    title: 'a width given as text becomes a number',
    change: (d) => (d.transcodeTemplates[0].videoWidth = '1920'),
    code: 'schema.type',
    want: (d) => (d.transcodeTemplates[0].videoWidth = 1920),
  },
  {
    kind: 'channel',
    title: 'rotation given as a number becomes text',
    change: (d) => (d.outputGroupList[0].rotation = 90),
    code: 'schema.enum',
    want: (d) => (d.outputGroupList[0].rotation = '90'),
  },
  {
    kind: 'channel',
    title: 'protocolType given as text becomes a number',
    change: (d) => (d.outputGroupList[0].protocolType = '1'),
    code: 'schema.enum',
    want: (d) => (d.outputGroupList[0].protocolType = 1),
  },
  {
    kind: 'channel',
    title: 'a misspelt field is renamed',
    change: (d) => (
      (d.outputGroupList[0].rotaton = d.outputGroupList[0].rotation),
      delete d.outputGroupList[0].rotation
    ),
    code: 'schema.additionalProperties',
    want: (d) => ((d.outputGroupList[0].rotation = d.outputGroupList[0].rotaton), delete d.outputGroupList[0].rotaton),
  },
  {
    kind: 'livelogo',
    title: 'remove the id of a created logo',
    change: (d) => (d.id = HEX.logo),
    code: 'livelogo.cannotUpdate',
    want: (d) => delete d.id,
  },
];

describe('authoring quick fixes', () => {
  for (const c of CASES) {
    it(`${c.kind}: ${c.title}`, () => {
      const broken = EXAMPLES[c.kind]() as Json;
      c.change(broken);
      const text = textOf(broken);
      const problems = problemsOf(c.kind, text).filter((p) => p.code === c.code);
      const problem = problems[c.pick ?? 0];
      assert.ok(problem, `no ${c.code} problem`);

      const fixed = applyFix(text, problem);
      const result = validateDocument(c.kind, fixed);
      assert.deepEqual(
        result.problems.filter((p) => p.code === c.code),
        [],
        'the problem is gone after the fix',
      );
      if (c.clean !== false)
        assert.deepEqual(
          result.problems.filter((p) => p.severity === 'error'),
          [],
          'no error left',
        );

      const expected = structuredClone(broken);
      c.want(expected);
      assert.deepEqual(result.value, expected, 'the fix changes exactly what it says');
    });
  }

  it("keeps the file's tab indentation when inserting", () => {
    const doc = EXAMPLES.channel();
    delete (doc.outputGroupList as Json[])[0].timeShiftDuration;
    const text = JSON.stringify(doc, null, '\t');
    const fixed = applyFix(text, onlyProblem(problemsOf('channel', text), 'channel.timeShiftDurationMissing'));
    assert.match(fixed, /\n\t\t\t"timeShiftDuration": "2"/);
    assert.doesNotMatch(fixed, /\n {2}"/);
  });

  it('removes a trailing comma', () => {
    const text = '{\n  "name": "x",\n  "logos": [],\n}';
    const problem = onlyProblem(problemsOf('logogroup', text), 'json.trailingComma');
    assert.equal(covered(text, problem), ',');
    assert.equal(problem.range.offset, text.lastIndexOf(','));
    const fixed = applyFix(text, problem);
    assert.deepEqual(JSON.parse(fixed), { name: 'x', logos: [] });
  });

  it('removes the earlier of two repeated fields', () => {
    const text = '{\n  "name": "first",\n  "uri": "a.png",\n  "name": "second"\n}';
    const problem = onlyProblem(problemsOf('livelogo', text), 'json.duplicateKey');
    assert.equal(covered(text, problem), '"name"');
    assert.equal(problem.range.offset, text.indexOf('"name"'));
    assert.match(problem.message, /"name" appears more than once/);
    const fixed = applyFix(text, problem);
    assert.deepEqual(JSON.parse(fixed), { uri: 'a.png', name: 'second' });
  });

  it('offers each allowed value of a field out of range, with its meaning', () => {
    const doc = EXAMPLES.templategroup();
    doc.type = 3;
    const text = textOf(doc);
    const problem = onlyProblem(problemsOf('templategroup', text), 'schema.enum');
    assert.deepEqual(
      problem.alternatives?.map((fix) => fix.title),
      ['Use 0 (normal video)', 'Use 1 (VR video)'],
    );
    const fixed = applyTextEdits(text, problem.alternatives![1]!.edits);
    assert.equal((JSON.parse(fixed) as Json).type, 1);
    assert.deepEqual(
      problemsOf('templategroup', fixed).filter((p) => p.code === 'schema.enum'),
      [],
    );
  });

  it('keeps the allowed values on offer where a rule words the problem', () => {
    const doc = EXAMPLES.channel();
    (doc.outputGroupList as Json[])[0].protocolType = 7;
    const problems = problemsOf('channel', textOf(doc)).filter((p) => covered(textOf(doc), p) === '7');
    assert.equal(problems.length, 1, JSON.stringify(problems));
    assert.ok(
      (problems[0]!.alternatives ?? []).some((fix) => /^Use 1\b/.test(fix.title)),
      JSON.stringify(problems[0]),
    );
  });

  it('adds a missing required field with its default or an empty value of its type', () => {
    for (const [kind, field, value] of [
      ['livelogo', 'name', ''],
      ['channel', 'signalType', undefined],
      ['templategroup', 'transcodeTemplates', []],
    ] as const) {
      const doc = EXAMPLES[kind]() as Json;
      delete doc[field];
      const text = textOf(doc);
      const problem = problemsOf(kind, text).find(
        (p) => p.code === 'schema.required' && p.message.includes(`"${field}"`),
      );
      assert.ok(problem, `${kind}: no missing ${field}`);
      assert.match(problem.fix!.title, new RegExp(`^Add "${field}": `));
      const fixed = JSON.parse(applyFix(text, problem)) as Json;
      assert.ok(field in fixed, `${kind}: ${field} added`);
      if (value !== undefined) assert.deepEqual(fixed[field], value);
      assert.deepEqual(
        problemsOf(kind, JSON.stringify(fixed)).filter((p) => p.code === 'schema.required'),
        [],
        `${kind}: nothing missing any more`,
      );
    }
  });

  it('puts the cursor in the value a missing-field fix added (inside the quotes of an empty string)', () => {
    for (const [kind, field, selected] of [
      ['livelogo', 'name', ''],
      ['templategroup', 'transcodeTemplates', '[]'],
    ] as const) {
      const doc = EXAMPLES[kind]() as Json;
      delete doc[field];
      const text = textOf(doc);
      const problem = problemsOf(kind, text).find(
        (p) => p.code === 'schema.required' && p.message.includes(`"${field}"`),
      )!;
      const fixed = applyFix(text, problem);
      const select = problem.fix!.select;
      assert.ok(select, `${kind}: the fix says where the cursor goes`);
      assert.equal(fixed.slice(select.offset, select.offset + select.length), selected, kind);
      const before = fixed.slice(0, select.offset);
      assert.match(before, new RegExp(`"${field}": ${selected === '' ? '"' : ''}$`), `${kind}: right after the key`);
    }
  });

  it('selects the hours a time-shift fix added, so that the user types over them', () => {
    const doc = EXAMPLES.channel() as Json;
    (doc.outputGroupList as Json[])[0] = { ...(doc.outputGroupList as Json[])[0], isTimeShift: '1' };
    delete (doc.outputGroupList as Json[])[0].timeShiftDuration;
    const text = textOf(doc);
    const problem = problemsOf('channel', text).find((p) => p.code === 'channel.timeShiftDurationMissing')!;
    const fixed = applyFix(text, problem);
    const select = problem.fix!.select!;
    assert.equal(fixed.slice(select.offset, select.offset + select.length), '2');
    assert.match(fixed.slice(0, select.offset), /"timeShiftDuration": "$/);
  });

  it('marks and fixes each of many problems in its own template (more than are placed by scanning)', () => {
    // 40 templates, each AES with the MP4 format: 40 problems, past the lookups placed by scanning the text.
    const doc = EXAMPLES.templategroup() as Json;
    const template = (doc.transcodeTemplates as Json[])[1];
    doc.transcodeTemplates = Array.from({ length: 40 }, (_, i) => ({
      ...template,
      name: `r${i}`,
      videoBitrate: 500 + i,
      format: 1,
      encryptType: 6,
      defaultVideo: i === 0 ? 1 : 0,
    }));
    const text = textOf(doc);
    const problems = problemsOf('templategroup', text).filter((p) => p.code === 'templategroup.aesNotHls');
    assert.equal(problems.length, 40);
    // The n-th problem marks the n-th template's encryptType value.
    const keys = [...text.matchAll(/"encryptType": 6/g)].map((m) => m.index + '"encryptType": '.length);
    assert.deepEqual(
      problems.map((p) => p.range.offset),
      keys,
    );
    for (const pick of [0, 17, 39]) {
      const fixed = JSON.parse(applyFix(text, problems[pick]!)) as Json;
      const formats = (fixed.transcodeTemplates as Json[]).map((t) => t.format as number);
      assert.deepEqual(
        formats,
        formats.map((_, i) => (i === pick ? 0 : 1)),
        `the fix of problem ${pick} changes its own template's format only`,
      );
    }
  });

  it('applyTextEdits refuses overlapping edits', () => {
    assert.throws(
      () =>
        applyTextEdits('abcdef', [
          { offset: 1, length: 3, newText: '' },
          { offset: 2, length: 1, newText: 'x' },
        ]),
      /overlapping/,
    );
  });
});
