/**
 * The document layer without a platform: kinds by file name, syntax errors located in the text,
 * toRequest (operation by `id`, flags as text, JSON values kept), id write-back edits, a channel
 * as an "Open as File" document, reference checks and completion sites from given lists.
 */
import { Codes } from '../../src/api/errorCodes';
import * as assert from 'node:assert/strict';
import type { Channel } from '../../src/api/types';
import { channelDocumentFileName, channelToDocument } from '../../src/authoring/channelDocument';
import { completionCandidates, referenceSiteAt } from '../../src/authoring/completion';
import { documentKind } from '../../src/authoring/documentKind';
import { applyTextEdits } from '../../src/authoring/problems';
import type { ReferenceLists } from '../../src/authoring/references';
import { parseFieldPath, platformProblem } from '../../src/authoring/platformProblem';
import { DocumentInvalidError, toRequest } from '../../src/authoring/toRequest';
import { validateDocument } from '../../src/authoring/validate';
import { idWriteBackEdits, pickCreatedLogoGroup } from '../../src/authoring/writeBack';
import { applyFix, covered, EXAMPLES, HEX, onlyProblem, problemsOf, textOf } from './fixtures';

describe('authoring documents', () => {
  it('documentKind recognises the six suffixes, in any case, and nothing else', () => {
    assert.equal(documentKind('/w/news.channel.json'), 'channel');
    assert.equal(documentKind('C:\\w\\Ladder.TemplateGroup.JSON'), 'templategroup');
    assert.equal(documentKind('x.logogroup.json'), 'logogroup');
    assert.equal(documentKind('x.transcode.json'), 'transcode');
    assert.equal(documentKind('x.livetemplate.json'), 'livetemplate');
    assert.equal(documentKind('x.livelogo.json'), 'livelogo');
    assert.equal(documentKind('channel.json'), undefined);
    assert.equal(documentKind('x.channel.jsonc'), undefined);
    assert.equal(documentKind('package.json'), undefined);
  });

  describe('syntax', () => {
    it('an empty file says so', () => {
      const [problem] = problemsOf('channel', '  \n');
      assert.equal(problem.code, 'json.empty');
      assert.match(problem.message, /empty/);
    });

    it('a missing comma is located where it is expected', () => {
      const text = '{\n  "name": "x"\n  "logos": []\n}';
      const { value, problems } = validateDocument('logogroup', text);
      assert.equal(value, undefined);
      assert.equal(problems.length, 1);
      assert.equal(problems[0].code, 'json.syntax');
      assert.match(problems[0].message, /comma is expected/);
      assert.equal(problems[0].range.offset, text.indexOf('"logos"'));
    });

    it('an unclosed string is reported in plain words', () => {
      const problems = problemsOf('livelogo', '{ "name": "abc }');
      assert.ok(problems.some((p) => /not closed with a double quote/.test(p.message)));
    });

    it('comments are tolerated (they never reach the platform)', () => {
      const text = `// my logo\n${textOf(EXAMPLES.livelogo())}`;
      assert.deepEqual(problemsOf('livelogo', text), []);
    });
  });

  describe('toRequest', () => {
    it('channel: create without id, update with id; flags go out as "0"/"1" text', () => {
      const create = toRequest('channel', EXAMPLES.channel());
      assert.equal(create.operation, 'liveCreateChannel');
      const group = create.input.outputGroupList[1];
      assert.equal(group.isRecord, '0');
      assert.deepEqual(group.outputTemplateList, [{ templateId: HEX.t720, isDefault: '1' }]);
      assert.equal(create.input.signalType, '1');

      const update = toRequest('channel', {
        ...EXAMPLES.channel(),
        id: HEX.channel,
        signalType: 2,
        pullStream: 'rtmp://s.example/a',
      });
      assert.equal(update.operation, 'liveUpdate');
      assert.equal(update.input.id, HEX.channel);
      assert.equal(update.input.signalType, '2');
    });

    it('template group: numeric id from text, templates and advancedArguments stay JSON values', () => {
      const request = toRequest('templategroup', { ...EXAMPLES.templategroup(), id: '42' });
      assert.equal(request.operation, 'templateGroup');
      assert.equal(request.creates, false);
      assert.equal(request.input.id, 42);
      assert.deepEqual(request.input.transcodeTemplates, EXAMPLES.templategroup().transcodeTemplates);
      assert.equal(toRequest('templategroup', EXAMPLES.templategroup()).operation, 'templateGroup');
    });

    it('transcode: replace 1/0 becomes a boolean; the {logoGroupId, templates} form is kept', () => {
      const templates = { logoGroupId: 3, templates: EXAMPLES.transcode().transcodeTemplates };
      const request = toRequest('transcode', { videoIds: [HEX.video1], transcodeTemplates: templates, replace: 1 });
      assert.ok(request.operation === 'secondTranscodeV2');
      assert.equal(request.input.replace, true);
      assert.deepEqual(request.input.transcodeTemplates, templates);
      const saveAs = toRequest('transcode', { videoIds: [HEX.video1], transcodeTemplateGroupId: 2, replace: 0 });
      assert.ok(saveAs.operation === 'secondTranscodeV2');
      assert.equal(saveAs.input.replace, false);
    });

    it('live template: create without id, update with only the given fields', () => {
      assert.equal(toRequest('livetemplate', EXAMPLES.livetemplate()).operation, 'liveTemplateCreate');
      const update = toRequest('livetemplate', { id: HEX.t720, frameRate: 30 });
      assert.deepEqual(update, {
        kind: 'livetemplate',
        operation: 'liveTemplateUpdate',
        input: { id: HEX.t720, frameRate: 30 },
      });
    });

    it('refuses an invalid document with the problems named, and a live logo with an id', () => {
      const broken = EXAMPLES.channel() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- edited freely
      broken.outputGroupList[1].isTimeShift = '1';
      broken.name = '';
      assert.throws(
        () => toRequest('channel', broken),
        (e: unknown) =>
          e instanceof DocumentInvalidError &&
          /name must not be empty/.test(e.message) &&
          /outputGroupList\[1\]\.isTimeShift/.test(e.message) &&
          e.problems.length >= 2,
      );
      assert.throws(() => toRequest('livelogo', { ...EXAMPLES.livelogo(), id: HEX.logo }), /cannot be modified/);
    });
  });

  describe('id write-back', () => {
    it('puts id first and gives each new output group its id, keeping the indentation', () => {
      const text = JSON.stringify(EXAMPLES.channel(), null, 4);
      const after = applyTextEdits(text, idWriteBackEdits(text, { id: HEX.channel, groupIds: [HEX.group, HEX.t480] }));
      const doc = JSON.parse(after);
      assert.equal(Object.keys(doc)[0], 'id');
      assert.equal(doc.id, HEX.channel);
      assert.deepEqual(
        doc.outputGroupList.map((g: { id: string }) => g.id),
        [HEX.group, HEX.t480],
      );
      assert.equal(Object.keys(doc.outputGroupList[0])[0], 'id');
      assert.match(after, /\n {4}"id": "/);
      assert.deepEqual(
        { ...doc, id: undefined, outputGroupList: undefined },
        { ...EXAMPLES.channel(), id: undefined, outputGroupList: undefined },
      );
    });

    it('writes a numeric id as a number, and replaces an id already there', () => {
      const text = textOf({ id: 3, ...EXAMPLES.logogroup() });
      const doc = JSON.parse(applyTextEdits(text, idWriteBackEdits(text, { id: 17 })));
      assert.equal(doc.id, 17);
    });

    it('finds the created logo group among those listed after the call', () => {
      const group = (id: number, name: string) => ({ id, name, logos: [], userId: 1, createTime: 0, updateTime: null });
      const after = [group(1, 'A'), group(2, 'B'), group(3, 'B'), group(4, 'C')];
      assert.equal(pickCreatedLogoGroup(after, 'B', new Set([1, 2]))?.id, 3);
      assert.equal(pickCreatedLogoGroup(after, 'B', new Set([1, 2, 3])), undefined);
    });
  });

  describe('Open as File', () => {
    const channel = {
      id: HEX.channel,
      name: 'Morning: news/weather',
      description: null,
      type: HEX.category,
      typeName: 'News',
      signalType: '1',
      stream: 's1',
      pullStream: null,
      liveType: 0,
      status: 1,
      streamStatus: 1,
      outputGroupList: [
        {
          id: HEX.group,
          protocolType: 1,
          isRecord: '1',
          needToMp4: '0',
          isTimeShift: '1',
          timeShiftDuration: '3',
          isLiveEncrypt: '0',
          rotation: null,
          logoId: HEX.logo,
          liveLogoId: HEX.logo,
          rtmpThirdPartyOutputUrl: null,
          outputTemplateList: [
            { id: HEX.t720, templateId: null, isDefault: null },
            { id: HEX.t480, templateId: null, isDefault: null },
          ],
          liveOutputs: [
            { liveTemplateId: HEX.t720, isDefault: '0' },
            { liveTemplateId: HEX.t480, isDefault: '1' },
          ],
        },
        {
          id: HEX.video1,
          protocolType: 2,
          isRecord: '0',
          needToMp4: null,
          isTimeShift: '0',
          timeShiftDuration: null,
          isLiveEncrypt: '0',
          rotation: '90',
          logoId: null,
          liveLogoId: null,
          rtmpThirdPartyOutputUrl: 'rtmp://third.example/live',
          outputTemplateList: [{ id: HEX.t720, templateId: null, isDefault: null }],
          liveOutputs: [{ liveTemplateId: HEX.t720, isDefault: '1' }],
        },
      ],
    } as unknown as Channel;

    it('holds only what liveUpdate takes, with the ids, and the defaults from the outputs', () => {
      assert.deepEqual(channelToDocument(channel), {
        id: HEX.channel,
        name: 'Morning: news/weather',
        signalType: '1',
        liveType: 0,
        type: HEX.category,
        outputGroupList: [
          {
            id: HEX.group,
            protocolType: 1,
            isRecord: '1',
            needToMp4: '0',
            isTimeShift: '1',
            timeShiftDuration: '3',
            isLiveEncrypt: '0',
            logoId: HEX.logo,
            outputTemplateList: [
              { templateId: HEX.t720, isDefault: '0' },
              { templateId: HEX.t480, isDefault: '1' },
            ],
          },
          {
            id: HEX.video1,
            protocolType: 2,
            rtmpThirdPartyOutputUrl: 'rtmp://third.example/live',
            rotation: '90',
            isRecord: '0',
            outputTemplateList: [{ templateId: HEX.t720, isDefault: '1' }],
          },
        ],
      });
      assert.deepEqual(validateDocument('channel', textOf(channelToDocument(channel))).problems, []);
    });

    it('names the file after the channel, safely', () => {
      assert.equal(channelDocumentFileName(channel), 'Morning- news-weather.channel.json');
      assert.equal(channelDocumentFileName({ ...channel, name: '..' }), `${HEX.channel}.channel.json`);
    });
  });

  describe('references and completion (given lists)', () => {
    const lists: ReferenceLists = {
      liveTemplates: {
        complete: true,
        items: [
          { id: HEX.t720, name: '720p', detail: '1280x720' },
          { id: HEX.t480, name: '480p' },
        ],
      },
      liveLogos: { complete: true, items: [{ id: HEX.logo, name: 'Station' }] },
      categories: { complete: true, items: [{ id: HEX.category, name: 'News' }] },
      channels: { complete: false, items: [] },
      logoGroups: { complete: true, items: [{ id: 4, name: 'Corner' }] },
      templateGroups: { complete: true, items: [{ id: 9, name: 'Ladder' }] },
    };

    it('the example references only known objects; an incomplete list proves nothing', () => {
      const doc = { ...EXAMPLES.channel(), id: HEX.channel };
      const problems = validateDocument('channel', textOf(doc), lists).problems;
      // Only the note that groups without id are replaced by the update.
      assert.deepEqual(
        problems.map((p) => [p.code, p.severity]),
        [
          ['channel.groupReplaced', 'info'],
          ['channel.groupReplaced', 'info'],
        ],
      );
    });

    it('an unknown id is an error on that value; a name given for an id is fixed to the id', () => {
      const doc = EXAMPLES.channel() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- edited freely
      doc.outputGroupList[0].logoId = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
      const text = textOf(doc);
      const problem = onlyProblem(validateDocument('channel', text, lists).problems, 'reference.liveLogos');
      assert.equal(covered(text, problem), '"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"');
      assert.match(problem.message, /outputGroupList\[0\]\.logoId: this account has no live logo/);
      assert.equal(problem.fix, undefined);

      const byName = textOf({ ...EXAMPLES.templategroup(), logoGroupId: 5 });
      assert.ok(onlyProblem(validateDocument('templategroup', byName, lists).problems, 'reference.logoGroups'));
      const named = textOf({ ...EXAMPLES.templategroup(), id: 'Ladder' });
      const wrong = validateDocument('templategroup', named, lists).problems.find(
        (p) => p.code === 'reference.templateGroups',
      );
      assert.ok(wrong?.fix, 'a name where the id belongs');
      assert.equal(JSON.parse(applyFix(named, wrong)).id, 9);
    });

    it('logoGroupId 0 means none and is never checked', () => {
      assert.deepEqual(
        validateDocument('templategroup', textOf(EXAMPLES.templategroup()), {
          logoGroups: { complete: true, items: [] },
        }).problems,
        [],
      );
    });

    it('finds the site under the cursor and the range a candidate replaces', () => {
      const text = textOf(EXAMPLES.channel());
      const at = text.indexOf(HEX.t480) + 4;
      const site = referenceSiteAt('channel', text, at);
      assert.equal(site?.site.ref, 'liveTemplates');
      assert.equal(covered(text, { ...site!, message: '', severity: 'info' }), `"${HEX.t480}"`);
      assert.equal(referenceSiteAt('channel', text, text.indexOf('"name"') + 2), undefined, 'on a key: nothing');
      assert.equal(referenceSiteAt('channel', text, text.indexOf('Morning') + 2), undefined, 'not an id field');

      const empty = '{ "transcodeTemplateGroupId":  }';
      const numeric = referenceSiteAt('transcode', empty, empty.indexOf(':') + 2);
      assert.equal(numeric?.site.ref, 'templateGroups');
      assert.deepEqual(numeric?.range, { offset: empty.indexOf(':') + 2, length: 0 });
      const [candidate] = completionCandidates(numeric!.site, lists.templateGroups!.items);
      assert.deepEqual(candidate, { label: 'Ladder', description: '9', insertText: '9', filterText: 'Ladder 9' });
    });

    it('string ids are inserted quoted, with the name as the label', () => {
      const site = referenceSiteAt('livetemplate', '{ "id": "" }', 9);
      const candidates = completionCandidates(site!.site, lists.liveTemplates!.items);
      assert.deepEqual(candidates[0], {
        label: '720p',
        description: `${HEX.t720} · 1280x720`,
        insertText: `"${HEX.t720}"`,
        filterText: `"720p ${HEX.t720}`,
      });
    });
  });
});

describe('authoring platform refusals', () => {
  it('point at the field a "does not exist" code is about when the message names no field', () => {
    const doc = EXAMPLES.channel();
    const text = textOf(doc);
    const onLogo = platformProblem(
      text,
      {
        action: 'liveCreateChannel',
        code: Codes.liveLogoNotExists,
        platformMessage: 'logo_not_exists',
        explanation: '',
      },
      'channel',
    );
    assert.equal(covered(text, onLogo), `"${HEX.logo}"`);
    // Several templates: the one the message quotes.
    const templates = platformProblem(
      text,
      {
        action: 'liveCreateChannel',
        code: Codes.liveTemplateNotExists,
        platformMessage: `template ${HEX.t480} does not exist`,
        explanation: '',
      },
      'channel',
    );
    assert.equal(covered(text, templates), `"${HEX.t480}"`);
  });

  it('point at the item of a list the message quotes, and at a field named anywhere in the message', () => {
    const job = EXAMPLES.transcode();
    const text = textOf(job);
    const item = platformProblem(
      text,
      {
        action: 'secondTranscodeV2',
        code: Codes.videoNotExists,
        platformMessage: `videoIds lists ${HEX.video2}, which is not a video of this account`,
        explanation: '',
      },
      'transcode',
    );
    assert.equal(covered(text, item), `"${HEX.video2}"`);
    const anywhere = platformProblem(
      text,
      {
        action: 'secondTranscodeV2',
        code: Codes.parameterInvalid,
        platformMessage: 'the value of replace is invalid',
        explanation: '',
      },
      'transcode',
    );
    assert.equal(covered(text, anywhere), String((job as { replace?: unknown }).replace));
  });

  it('point at the field the platform names, or at the document start', () => {
    const text = textOf(EXAMPLES.channel());
    const named = platformProblem(text, {
      action: 'liveCreateChannel',
      code: Codes.liveLogoNotExists,
      platformMessage: `outputGroupList[0].logoId ${HEX.logo} is not a live logo of this account`,
      explanation: 'A referenced live logo does not exist in this account.',
    });
    assert.equal(covered(text, named), `"${HEX.logo}"`);
    assert.equal(named.code, `platform.${Codes.liveLogoNotExists}`);
    assert.match(
      named.message,
      new RegExp(
        `refused liveCreateChannel \\(code ${Codes.liveLogoNotExists}\\): outputGroupList\\[0\\]\\.logoId .* does not exist`,
      ),
    );

    const general = platformProblem(text, {
      action: 'liveUpdate',
      code: Codes.channelStateConflict,
      platformMessage: 'channel is live; stop it before updating it',
      explanation: 'The channel is in a state that does not allow this.',
    });
    assert.deepEqual(general.range, { offset: 0, length: 1 });
    assert.deepEqual(parseFieldPath('transcodeTemplates[1].advancedArguments.gopSize'), [
      'transcodeTemplates',
      1,
      'advancedArguments',
      'gopSize',
    ]);
  });
});
