/**
 * Authoring in another language: every problem, quick-fix title, hover and send summary a user reads goes
 * through the translator. A pseudo-language puts each translated text in «», so English left outside is seen;
 * what the document, the account or the platform says (names, ids, field paths, the platform's refusal) is
 * data and is shown as it is.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PlatformClient } from '../../src/api/client';
import { Codes, explainCode } from '../../src/api/errorCodes';
import { DOCUMENT_KINDS, type DocumentKind } from '../../src/authoring/documentKind';
import { hoverMarkdown, idAt } from '../../src/authoring/hover';
import { platformProblem } from '../../src/authoring/platformProblem';
import type { Problem } from '../../src/authoring/problems';
import { fetchReferenceList } from '../../src/authoring/referenceLists';
import {
  REFERENCE_SITES,
  type ReferenceKind,
  type ReferenceList,
  type ReferenceLists,
} from '../../src/authoring/references';
import { sendRequest, type SendOutcome } from '../../src/authoring/send';
import { allSnippets, snippetDescription } from '../../src/authoring/snippets';
import { DocumentInvalidError, toRequest } from '../../src/authoring/toRequest';
import { validateDocument } from '../../src/authoring/validate';
import { fillPlaceholders, setTranslator } from '../../src/l10n/l10n';
import { dataTexts, markingTranslator, untranslated } from '../helpers/untranslated';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from '../app/helpers/platform';
import { EXAMPLES, HEX, ROOT, textOf } from './fixtures';

type Json = Record<string, unknown>;

/** What a user reads of a problem: its message and the titles of its quick fixes. */
function shownOf(problem: Problem): string[] {
  return [problem.message, problem.fix?.title ?? '', ...(problem.alternatives ?? []).map((fix) => fix.title)];
}

/** Documents of a kind broken in many ways: each field missing, of another type, out of range, misspelt. */
function brokenDocuments(kind: DocumentKind): Json[] {
  const example = EXAMPLES[kind];
  const broken: Json[] = [];
  const wrongValues: unknown[] = [{}, 'x', 99999999, -1, true, [], ''];
  const mutate = (edit: (doc: Json) => void): void => {
    const doc = example();
    edit(doc);
    broken.push(doc);
  };
  const visit = (path: Array<string | number>, value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => visit([...path, index], item));
      mutate((doc) => setAt(doc, path, [...value, ...value]));
      return;
    }
    if (!value || typeof value !== 'object') return;
    for (const key of Object.keys(value)) {
      mutate((doc) => delete (at(doc, path) as Json)[key]);
      for (const wrong of wrongValues) mutate((doc) => ((at(doc, path) as Json)[key] = wrong));
      visit([...path, key], (value as Json)[key]);
    }
    mutate((doc) => ((at(doc, path) as Json).nmae = 'x'));
    mutate((doc) => ((at(doc, path) as Json).zzzUnknown = 1));
  };
  visit([], example());
  return broken;
}

function at(doc: unknown, path: ReadonlyArray<string | number>): unknown {
  return path.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], doc);
}

function setAt(doc: Json, path: ReadonlyArray<string | number>, value: unknown): void {
  if (path.length === 0) return;
  (at(doc, path.slice(0, -1)) as Record<string | number, unknown>)[path[path.length - 1]!] = value;
}

/** Reference lists that know none of the examples' ids, and one record whose name is an example's id. */
const EMPTY_LISTS: ReferenceLists = Object.fromEntries(
  (['liveTemplates', 'liveLogos', 'logoGroups', 'categories', 'templateGroups', 'channels', 'videos'] as const).map(
    (ref) => [ref, { items: [{ id: 'abc', name: HEX.t720 }], complete: true }],
  ),
);

describe('Authoring in another language: every word a user reads goes through the translator', () => {
  let restore: () => void;
  before(() => {
    restore = setTranslator(markingTranslator);
  });
  after(() => restore());

  for (const kind of DOCUMENT_KINDS) {
    it(`${kind}: problems and quick fixes of documents broken in many ways`, () => {
      const codes = new Set<string>();
      for (const doc of brokenDocuments(kind)) {
        const text = textOf(doc);
        for (const problem of validateDocument(kind, text, EMPTY_LISTS).problems) {
          codes.add(problem.code ?? '');
          for (const shown of shownOf(problem))
            assert.deepEqual(untranslated(shown, dataTexts(doc)), [], `${problem.code}: ${shown}`);
        }
      }
      // The documents reach the schema's checks, the kind's rules and the account's references.
      assert.ok(codes.size >= 6, [...codes].join(', '));
      // (The examples of live templates and logos have no id, the only field they refer by.)
      if (REFERENCE_SITES[kind].some((site) => site.pattern[0] !== 'id'))
        assert.ok(
          [...codes].some((code) => code.startsWith('reference.')),
          [...codes].join(', '),
        );
    });
  }

  it('channel: the rules of groups and templates, and a document that cannot be sent', () => {
    const doc = EXAMPLES.channel() as Json & { outputGroupList: Json[] };
    doc.signalType = '2';
    Object.assign(doc.outputGroupList[1]!, { isTimeShift: '1', isLiveEncrypt: '1' });
    Object.assign(doc.outputGroupList[0]!, {
      rtmpThirdPartyOutputUrl: 'rtmp://x.example/a',
      needToMp4: '1',
      isRecord: '0',
      outputTemplateList: [
        { templateId: HEX.t720, isDefault: '1' },
        { templateId: HEX.t720, isDefault: '1' },
      ],
    });
    doc.id = HEX.channel;
    delete doc.outputGroupList[1]!.id;
    const text = textOf(doc);
    const problems = validateDocument('channel', text).problems;
    const codes = problems.map((problem) => problem.code);
    for (const code of ['channel.pullStreamMissing', 'channel.timeShiftOnRtmp', 'channel.duplicateTemplate'])
      assert.ok(codes.includes(code), `${code} in ${codes.join(', ')}`);
    for (const problem of problems)
      for (const shown of shownOf(problem)) assert.deepEqual(untranslated(shown, dataTexts(doc)), [], shown);
    const refused = (() => {
      try {
        toRequest('channel', doc);
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    assert.ok(refused instanceof DocumentInvalidError);
    assert.deepEqual(untranslated(refused.message, dataTexts(doc)), [], refused.message);
  });

  it("quotes the schemas' sentences translated: a rule, the meaning of each allowed value, a required field's purpose", () => {
    const doc = EXAMPLES.channel() as Json & { outputGroupList: Json[] };
    doc.outputGroupList[0]!.protocolType = 5;
    doc.signalType = 'x';
    delete doc.name;
    const problems = validateDocument('channel', textOf(doc)).problems;
    const protocol = problems.find((problem) => problem.message.startsWith('«outputGroupList[0].protocolType'))!;
    assert.ok(protocol.message.includes('«Use 1 (HLS) or 2 (RTMP).»'), protocol.message);
    const signal = problems.find((problem) => problem.message.startsWith('«signalType'))!;
    assert.ok(
      signal.alternatives?.some((fix) => fix.title === '«Use "1" («push»)»'),
      JSON.stringify(signal.alternatives),
    );
    const name = problems.find((problem) => problem.code === 'schema.required')!;
    assert.ok(name.message.includes('«Channel name, shown in the channel list.»'), name.message);
  });

  it('reads as Simplified Chinese with the zh-cn bundle: a problem, with the field paths as written', () => {
    const chinese = JSON.parse(readFileSync(join(ROOT, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<
      string,
      string
    >;
    const restoreChinese = setTranslator((message, args) => fillPlaceholders(chinese[message] ?? message, args));
    try {
      const doc = EXAMPLES.channel() as Json & { outputGroupList: Json[] };
      doc.outputGroupList[0]!.protocolType = 5;
      delete doc.name;
      const messages = validateDocument('channel', textOf(doc)).problems.map((problem) => problem.message);
      assert.ok(
        messages.includes('outputGroupList[0].protocolType：请使用 1（HLS）或 2（RTMP）。实际为数字 5。'),
        messages.join('\n'),
      );
      assert.ok(messages.includes('文档缺少必填字段 "name"（频道名称，显示在频道列表中）'), messages.join('\n'));
    } finally {
      restoreChinese();
    }
  });

  it("the snippets' descriptions", () => {
    assert.ok(allSnippets().length > 5);
    for (const snippet of allSnippets())
      assert.deepEqual(untranslated(snippetDescription(snippet), []), [], snippetDescription(snippet));
  });

  it('JSON text: empty, broken, a trailing comma and a repeated key', () => {
    for (const text of [
      '',
      '{',
      '{"name": "a",}',
      '[1, 2,]',
      '{"name": "a", "name": "b"}',
      '{"name": tru}',
      '{"a" 1}',
    ]) {
      const problems = validateDocument('channel', text).problems;
      assert.ok(problems.length > 0, text);
      for (const problem of problems)
        for (const shown of shownOf(problem)) assert.deepEqual(untranslated(shown, ['name']), [], `${text}: ${shown}`);
    }
  });

  it("a platform refusal: the platform's own words kept as they are, inside a translated frame", () => {
    const doc = EXAMPLES.channel();
    const refusal = {
      action: 'liveCreateChannel',
      code: Codes.liveLogoNotExists,
      platformMessage: 'outputGroupList[0].logoId is not a live logo of this account',
      explanation: explainCode(Codes.liveLogoNotExists),
    };
    const problem = platformProblem(textOf(doc), refusal, 'channel');
    assert.ok(problem.message.includes(refusal.platformMessage), problem.message);
    assert.deepEqual(
      untranslated(problem.message, [refusal.platformMessage, 'liveCreateChannel']),
      [],
      problem.message,
    );
    const silent = platformProblem(
      textOf(doc),
      { action: 'liveUpdate', code: 99999, platformMessage: '', explanation: explainCode(99999) },
      'channel',
    );
    assert.deepEqual(untranslated(silent.message, ['liveUpdate']), [], silent.message);
  });

  describe('with an account (the local platform)', () => {
    let platform: TestPlatform;
    let client: PlatformClient;
    before(async () => {
      platform = await startTestPlatform();
      client = new PlatformClient({ baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
    });
    after(async () => {
      await client.close();
      await platform.close();
    });

    it('hovers on ids: the record with its main fields, an id the account does not have, no account', async () => {
      const refs: ReferenceKind[] = [
        'liveTemplates',
        'liveLogos',
        'logoGroups',
        'categories',
        'templateGroups',
        'channels',
        'videos',
      ];
      const lists = new Map<ReferenceKind, ReferenceList>();
      for (const ref of refs) lists.set(ref, await fetchReferenceList(client, ref));
      let hovered = 0;
      for (const kind of DOCUMENT_KINDS) {
        const text = textOf(EXAMPLES[kind]());
        for (const site of REFERENCE_SITES[kind]) {
          const key = `"${site.pattern[site.pattern.length - 1]}": `;
          const offset = text.indexOf(key);
          if (offset < 0) continue;
          const cursor = idAt(kind, text, offset + key.length + 1);
          if (!cursor) continue;
          for (const record of lists.get(site.ref)!.items) {
            const shown = hoverMarkdown(cursor, { record });
            assert.deepEqual(
              untranslated(
                shown,
                dataTexts(record.fields?.map(([, value]) => value) ?? []).concat(dataTexts([record.name, record.id])),
              ),
              [],
              shown,
            );
            hovered++;
          }
          for (const known of [true, false]) {
            const shown = hoverMarkdown(cursor, { record: undefined, known });
            assert.deepEqual(untranslated(shown, [String(cursor.id)]), [], shown);
          }
        }
      }
      assert.ok(hovered > 5, `${hovered} records hovered`);
    });

    it('send summaries: created, updated, and a transcode job the platform partly refuses (its words kept)', async () => {
      const summaries: Array<{ shown: string; data: string[] }> = [];
      const send = async (kind: DocumentKind, doc: Json): Promise<SendOutcome> => {
        const outcome = await sendRequest(client, toRequest(kind, doc));
        summaries.push({ shown: outcome.summary, data: dataTexts(doc).concat(dataTexts(outcome.created ?? {})) });
        return outcome;
      };
      await send('livelogo', EXAMPLES.livelogo());
      await send('logogroup', EXAMPLES.logogroup());
      const created = await client.liveTemplateCreate({
        displayName: 'Ladder 720',
        type: 1,
        transcodeType: 0,
        videoWidth: 1280,
        videoHeight: 720,
        videoBitrate: 2000,
        audioBitrate: 128,
        frameRate: 25,
      });
      await send('livetemplate', { id: created.id, displayName: 'Ladder 720 again', videoBitrate: 2200 });
      const videos = await client.queryVideo({ start: 1, number: 1, sort: 'uploadTime', order: 'desc' });
      assert.ok(videos.length > 0, 'the test platform has a video');
      const job = { ...EXAMPLES.transcode(), videoIds: [videos[0]!.id, HEX.video2] };
      const partly = await send('transcode', job);
      assert.equal(summaries.length, 4);
      for (const { shown, data } of summaries) assert.deepEqual(untranslated(shown, data), [], shown);
      // The platform's answer for the unknown video is kept as it came.
      assert.ok(partly.partial, partly.summary);
      const refused = partly.videos!.find((video) => video.id === HEX.video2)!;
      assert.ok(refused.message, 'the platform says why');
      assert.ok(partly.summary.includes(`${HEX.video2}: ${refused.message} (`), partly.summary);
    });
  });
});
