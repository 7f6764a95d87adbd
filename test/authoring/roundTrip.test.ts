/**
 * Create, then update, from documents against the real local platform (127.0.0.1, port 0) through
 * PlatformClient, exactly as the "Create or Update on the Platform" command does: validate, toRequest,
 * sendRequest, write the returned id into the text, and send the same file again as an update.
 */
import * as assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors';
import { Codes } from '../../src/api/errorCodes';
import type { DocumentKind } from '../../src/authoring/documentKind';
import { applyTextEdits, hasErrors } from '../../src/authoring/problems';
import { fetchReferenceList } from '../../src/authoring/referenceLists';
import type { ReferenceLists } from '../../src/authoring/references';
import { sendRequest, type SendOutcome } from '../../src/authoring/send';
import { DocumentInvalidError, toRequest, type DocumentRequest } from '../../src/authoring/toRequest';
import { validateDocument } from '../../src/authoring/validate';
import { channelDocumentText } from '../../src/authoring/channelDocument';
import { completionCandidates, referenceSiteAt } from '../../src/authoring/completion';
import { idWriteBackEdits } from '../../src/authoring/writeBack';
import { startLocalPlatform, type LocalPlatform } from '../../src/localPlatform/server';
import { EXAMPLES, textOf } from './fixtures';

const ACCOUNT = { accessKey: 'authoring-test-key', secretKey: 'authoring-Secret-5c4d3e' };

/** What the command does with a document's text: validate, build the request, send, write back. */
async function run(
  client: PlatformClient,
  kind: DocumentKind,
  text: string,
): Promise<{ request: DocumentRequest; outcome: SendOutcome; text: string }> {
  const { value, problems } = validateDocument(kind, text);
  assert.equal(hasErrors(problems), false, JSON.stringify(problems.map((p) => p.message)));
  const request = toRequest(kind, value);
  const outcome = await sendRequest(client, request);
  const after = outcome.created ? applyTextEdits(text, idWriteBackEdits(text, outcome.created)) : text;
  return { request, outcome, text: after };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- documents are edited freely
function edit(text: string, change: (doc: Record<string, any>) => void): string {
  const doc = JSON.parse(text) as Record<string, unknown>;
  change(doc);
  return textOf(doc);
}

describe('authoring round trip against the local platform', function () {
  let dataDir: string;
  let platform: LocalPlatform;
  let client: PlatformClient;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'authoring-test-'));
    platform = await startLocalPlatform({
      dataDir,
      accounts: [ACCOUNT],
      host: '127.0.0.1',
      port: 0,
      demo: true,
      clockSpeed: 1000,
    });
    client = new PlatformClient({
      baseUrl: platform.baseUrl,
      accessKey: ACCOUNT.accessKey,
      secretKey: ACCOUNT.secretKey,
      retry: { attempts: 1 },
    });
  });

  after(async () => {
    await client?.close();
    await platform?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  // Ids created along the way, used by later documents.
  let logoGroupId = 0;
  let liveTemplateId = '';
  let liveLogoId = '';

  it('logo group: create writes the new id, the same file then updates', async () => {
    const first = await run(client, 'logogroup', textOf(EXAMPLES.logogroup()));
    assert.equal(first.request.operation, 'logoGroup');
    assert.ok(first.outcome.created, first.outcome.summary);
    logoGroupId = Number(first.outcome.created.id);
    assert.equal(JSON.parse(first.text).id, logoGroupId);
    assert.match(first.outcome.summary, /Created logo group "Corner logos"/);

    const second = await run(
      client,
      'logogroup',
      edit(first.text, (d) => (d.name = 'Corner logos v2')),
    );
    assert.equal(second.outcome.created, undefined);
    assert.match(second.outcome.summary, /Updated logo group "Corner logos v2"/);
    const listed = (await client.getLogoGroupList()).find((g) => g.id === logoGroupId);
    assert.equal(listed?.name, 'Corner logos v2');
    assert.equal(listed?.logos.length, 2);
  });

  it('template group: create (templates and advancedArguments as JSON values), then update by id', async () => {
    const doc = { ...EXAMPLES.templategroup(), logoGroupId };
    const first = await run(client, 'templategroup', textOf(doc));
    assert.equal(first.request.operation, 'templateGroup');
    const input = (first.request as Extract<DocumentRequest, { operation: 'templateGroup' }>).input;
    assert.ok(Array.isArray(input.transcodeTemplates));
    assert.equal(
      typeof input.transcodeTemplates[1].advancedArguments,
      'object',
      'the client serialises, not the document layer',
    );
    const groupId = Number(first.outcome.created?.id);
    assert.ok(groupId > 0);
    assert.equal(JSON.parse(first.text).id, groupId);

    const second = await run(
      client,
      'templategroup',
      edit(first.text, (d) => ((d.name = 'HLS ladder (edited)'), (d.trailorDuration = 45))),
    );
    assert.equal(second.outcome.created, undefined);
    const listed = (await client.templateGroupList()).find((g) => g.id === groupId);
    assert.equal(listed?.name, 'HLS ladder (edited)');
    assert.equal(listed?.trailorDuration, 45);
    assert.equal(listed?.logoGroupId, logoGroupId);
  });

  it('live template: create writes the id, the update changes the bitrate', async () => {
    const first = await run(client, 'livetemplate', textOf(EXAMPLES.livetemplate()));
    assert.equal(first.request.operation, 'liveTemplateCreate');
    liveTemplateId = String(first.outcome.created?.id);
    assert.match(liveTemplateId, /^[0-9a-f]{32}$/);

    const second = await run(
      client,
      'livetemplate',
      edit(first.text, (d) => (d.videoBitrate = 1800)),
    );
    assert.equal(second.request.operation, 'liveTemplateUpdate');
    const stored = (await client.liveGetTemplates()).find((t) => t.id === liveTemplateId);
    assert.equal(stored?.videoBitrate, 1800);
    assert.equal(stored?.displayName, '720p');
  });

  it('live logo: create writes the id; the file with an id is then refused (logos cannot change)', async () => {
    const first = await run(client, 'livelogo', textOf(EXAMPLES.livelogo()));
    liveLogoId = String(first.outcome.created?.id);
    assert.ok((await client.liveLogoList({ id: liveLogoId })).some((l) => l.name === 'Station logo'));
    const { value } = validateDocument('livelogo', first.text);
    assert.throws(
      () => toRequest('livelogo', value),
      (e: unknown) => e instanceof DocumentInvalidError && /cannot be modified/.test(e.message),
    );
  });

  it('channel: create writes channel and group ids; the update keeps the groups and their play addresses', async () => {
    const category = await client.liveChannelTypeCreate('Authoring tests');
    const doc = EXAMPLES.channel() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- edited freely
    doc.type = category.id;
    doc.outputGroupList[0].logoId = liveLogoId;
    doc.outputGroupList[0].outputTemplateList = [{ templateId: liveTemplateId, isDefault: '1' }];
    doc.outputGroupList[1].outputTemplateList = [{ templateId: liveTemplateId, isDefault: 1 }];

    const first = await run(client, 'channel', textOf(doc));
    assert.equal(first.request.operation, 'liveCreateChannel');
    const written = JSON.parse(first.text);
    const channelId = String(first.outcome.created?.id);
    assert.equal(written.id, channelId);
    assert.equal(first.outcome.reveal?.id, channelId);
    const created = await client.liveGetChannelById(channelId);
    assert.deepEqual(
      written.outputGroupList.map((g: { id: string }) => g.id),
      created.outputGroupList.map((g) => g.id),
    );
    assert.equal(created.outputGroupList[0].isTimeShift, '1');
    assert.equal(created.outputGroupList[1].isRecord, '0', 'number flags went out as the platform expects');
    const playBefore = await client.liveGetChannelsPlayUrl(channelId);

    const second = await run(
      client,
      'channel',
      edit(first.text, (d) => ((d.name = 'Morning news (edited)'), (d.outputGroupList[0].timeShiftDuration = '6'))),
    );
    assert.equal(second.request.operation, 'liveUpdate');
    const updated = await client.liveGetChannelById(channelId);
    assert.equal(updated.name, 'Morning news (edited)');
    assert.equal(updated.outputGroupList[0].timeShiftDuration, '6');
    assert.deepEqual(await client.liveGetChannelsPlayUrl(channelId), playBefore);

    // "Open as File" of the updated channel gives a document that validates and sends back unchanged.
    const opened = channelDocumentText(updated);
    const reopened = validateDocument('channel', opened);
    assert.deepEqual(
      reopened.problems.filter((p) => p.severity !== 'info'),
      [],
    );
    await run(client, 'channel', opened);
    assert.deepEqual(await client.liveGetChannelsPlayUrl(channelId), playBefore);
  });

  it('transcode job: per-video outcomes, an unknown video named with the platform reason', async () => {
    const videos = await client.queryVideo({ start: 1, number: 50, sort: 'uploadTime', order: 'desc', status: 2 });
    assert.ok(videos.length > 0, 'demo data has transcoded videos');
    const unknown = 'ffffffffffffffffffffffffffffffff';
    const doc = { ...EXAMPLES.transcode(), videoIds: [videos[0].id, unknown] };
    const { outcome } = await run(client, 'transcode', textOf(doc));
    assert.deepEqual(
      outcome.videos?.map((v) => [v.id, v.code === 0]),
      [
        [videos[0].id, true],
        [unknown, false],
      ],
    );
    assert.equal(outcome.partial, true);
    assert.match(outcome.summary, /started for 1 of 2 videos/);
    assert.match(outcome.summary, new RegExp(`${unknown}: .*does not exist`));
    assert.deepEqual(outcome.reveal, { view: 'video', id: videos[0].id });
  });

  it('a platform refusal comes back as an ApiError with the code and the reason', async () => {
    const missing = 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
    const text = edit(textOf(EXAMPLES.channel()), (d) => {
      d.id = missing;
      delete d.type;
      d.outputGroupList[0].outputTemplateList = [{ templateId: liveTemplateId, isDefault: '1' }];
      d.outputGroupList[0].logoId = liveLogoId;
      d.outputGroupList[1].outputTemplateList = [{ templateId: liveTemplateId, isDefault: '1' }];
    });
    await assert.rejects(
      run(client, 'channel', text),
      (e: unknown) =>
        e instanceof ApiError &&
        e.code === Codes.channelNotExists &&
        e.message.includes('liveUpdate') &&
        !e.message.includes(ACCOUNT.secretKey),
    );
  });

  it("reference checks and completion use the account's real lists", async () => {
    const lists: ReferenceLists = {};
    for (const kind of ['liveTemplates', 'liveLogos', 'categories', 'channels'] as const)
      lists[kind] = await fetchReferenceList(client, kind);
    assert.ok(lists.liveTemplates?.items.some((t) => t.id === liveTemplateId && t.name === '720p'));

    const doc = EXAMPLES.channel() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- edited freely
    delete doc.type;
    doc.outputGroupList[0].logoId = liveLogoId;
    doc.outputGroupList[0].outputTemplateList = [
      { templateId: liveTemplateId, isDefault: '1' },
      { templateId: 'abababababababababababababababab', isDefault: '0' },
    ];
    doc.outputGroupList[1].outputTemplateList = [{ templateId: liveTemplateId, isDefault: '1' }];
    const text = textOf(doc);
    const problems = validateDocument('channel', text, lists).problems.filter((p) => p.code?.startsWith('reference.'));
    assert.equal(problems.length, 1, JSON.stringify(problems));
    assert.match(
      problems[0].message,
      /outputGroupList\[0\]\.outputTemplateList\[1\]\.templateId: this account has no live template with id "abab/,
    );

    const cursor = text.indexOf('"abababab') + 3;
    const site = referenceSiteAt('channel', text, cursor);
    assert.equal(site?.site.ref, 'liveTemplates');
    const candidates = completionCandidates(site!.site, lists.liveTemplates!.items);
    const mine = candidates.find((c) => c.insertText === JSON.stringify(liveTemplateId));
    assert.equal(mine?.label, '720p');
    assert.match(mine?.description ?? '', /1280x720, 1800 kbps/);
    const replaced = applyTextEdits(text, [{ ...site!.range, newText: mine!.insertText }]);
    assert.deepEqual(
      validateDocument('channel', replaced, lists).problems.filter((p) => p.code?.startsWith('reference.')),
      [],
    );
  });
});
