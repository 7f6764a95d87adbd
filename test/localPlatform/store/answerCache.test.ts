/** Ready JSON is written into answers exactly as JSON.stringify would, and is made again when what it shows changes. */
import * as assert from 'node:assert/strict';
import { cp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { PlatformClient } from '../../../src/api/client';
import { accountDir } from '../../../src/localPlatform/accounts';
import { AnswerCache, JsonList, envelopeChunks, joinedAnswer } from '../../../src/localPlatform/store/answerCache';
import { newId } from '../../../src/localPlatform/store/ids';
import { newVideoRecord } from '../../../src/localPlatform/store/records';
import { AccountStore, Tx } from '../../../src/localPlatform/store/store';
import { ACCOUNT, raw, removeDir, tempDir, TestPlatform } from '../harness';

const envelopeText = (envelope: { result: unknown }): string => Buffer.concat(envelopeChunks(envelope)).toString();
/** A list fragment as AnswerCache makes them: a comma and the JSON. */
const fragment = (value: unknown): Buffer => Buffer.from(`,${JSON.stringify(value)}`);

describe('local platform: answer cache', () => {
  it('writes ready fragments into the envelope as JSON.stringify writes the value', () => {
    const result = [{ id: 'a', name: 'say "result":[] here', n: 1 }, { id: 'b' }, { id: 'é', name: '渠道 "😀"' }];
    const ready = new JsonList(result.map(fragment));
    for (const envelope of [
      { code: 0, message: 'success', result: ready, success: true },
      { code: 0, message: 'success', result: ready, success: true, count: 3 },
    ]) {
      assert.equal(envelopeText(envelope), JSON.stringify({ ...envelope, result }));
      assert.equal(JSON.stringify(envelope), JSON.stringify({ ...envelope, result }), 'toJSON gives the same JSON');
    }
    const empty = { code: 0, message: 'success', result: new JsonList([]), success: true, count: 0 };
    assert.equal(envelopeText(empty), JSON.stringify({ ...empty, result: [] }));
    const plain = { code: 10001, message: 'no "result":[] here', result: null, success: false };
    assert.equal(envelopeText(plain), JSON.stringify(plain));
    assert.equal(new JsonList([fragment(1), fragment('x')]).text, '[1,"x"]');
  });

  it('joins a page into one buffer with the bytes JSON.stringify makes, and its Content-Length', () => {
    const a = fragment({ id: 'a' });
    const b = fragment({ id: 'b' });
    const page = (fragments: Buffer[], count: number) => ({
      code: 0,
      message: 'success',
      result: new JsonList(fragments),
      success: true,
      count,
    });
    const cases: Array<[{ result: unknown }, string]> = [
      [page([a, b], 2), '{"code":0,"message":"success","result":[{"id":"a"},{"id":"b"}],"success":true,"count":2}'],
      [page([a, b], 3), '{"code":0,"message":"success","result":[{"id":"a"},{"id":"b"}],"success":true,"count":3}'],
      [page([a], 2), '{"code":0,"message":"success","result":[{"id":"a"}],"success":true,"count":2}'],
      [page([], 0), '{"code":0,"message":"success","result":[],"success":true,"count":0}'],
    ];
    const plain = { code: 10001, message: 'no "result":[] here', result: null, success: false };
    cases.push([plain, JSON.stringify(plain)]);
    for (const [envelope, text] of cases) {
      const answer = joinedAnswer(envelope);
      assert.equal(answer.body.toString(), text);
      assert.deepEqual(answer.headers, [
        'Content-Type',
        'application/json;charset=UTF-8',
        'Content-Length',
        String(Buffer.byteLength(text)),
      ]);
    }
  });

  it('makes the chunks of an envelope: head, each fragment as it is, tail', () => {
    const fragments = [fragment({ id: 'a' }), fragment({ id: 'b' })];
    const envelope = { code: 0, message: 'success', result: new JsonList(fragments), success: true, count: 2 };
    const chunks = envelopeChunks(envelope);
    assert.equal(chunks.length, 4, 'head, two fragments, tail');
    assert.equal(chunks[1].buffer, fragments[0].buffer, 'the first fragment without its comma, same memory');
    assert.equal(chunks[1].toString(), '{"id":"a"}');
    assert.equal(chunks[2], fragments[1], 'the next fragments as they are');
    const recountedEnvelope = { ...envelope, count: 3 };
    assert.equal(
      envelopeText(recountedEnvelope),
      '{"code":0,"message":"success","result":[{"id":"a"},{"id":"b"}],"success":true,"count":3}',
    );
  });

  it('makes the bytes once per record, key and extra, again for a new record, key or extra', () => {
    const cache = new AnswerCache<{ name: string }>(1000);
    let made = 0;
    const make = (r: { name: string }, key: string, extra = ''): string =>
      cache
        .bytes(r, key, extra, () => {
          made++;
          return { name: r.name, key, extra };
        })
        .toString();
    const one = { name: 'one' };
    assert.equal(make(one, 'k'), ',{"name":"one","key":"k","extra":""}');
    assert.equal(make(one, 'k'), ',{"name":"one","key":"k","extra":""}');
    assert.equal(made, 1);
    assert.equal(make(one, 'other origin'), ',{"name":"one","key":"other origin","extra":""}');
    assert.equal(make(one, 'other origin', 'News'), ',{"name":"one","key":"other origin","extra":"News"}');
    const changed = { name: 'one, renamed' }; // a write puts a new record object
    assert.equal(make(changed, 'other origin'), ',{"name":"one, renamed","key":"other origin","extra":""}');
    assert.equal(made, 4);
  });

  it('keeps at most its size in bytes, dropping fragments not read since they were made first', () => {
    const cache = new AnswerCache<{ i: number }>(100);
    const records = Array.from({ length: 20 }, (_, i) => ({ i }));
    let made = 0;
    const make = (r: { i: number }): Buffer =>
      cache.bytes(r, '', '', () => {
        made++;
        return { i: r.i, pad: 'é' }; // 2 bytes in UTF-8: the bound counts bytes, not characters
      });
    make(records[0]);
    for (const r of records) {
      make(r);
      make(records[0]); // kept in use
      assert.ok(cache.bytesHeld <= 100, `${cache.bytesHeld} bytes held`);
    }
    assert.equal(made, 20);
    made = 0;
    make(records[0]);
    make(records[19]);
    assert.equal(made, 0, 'fragments in use stay');
    make(records[1]);
    assert.equal(made, 1, 'an old one was dropped');
    // Each fragment has memory of its own: a slice of Node's shared pool would keep a whole slab alive.
    assert.equal(make(records[2]).buffer.byteLength, make(records[2]).length);
  });
});

describe('local platform: list pages from ready JSON, over HTTP', function () {
  this.timeout(60_000);
  const T0 = Date.UTC(2026, 0, 1);
  let dir: string;
  let copyDir: string | undefined;
  let p: TestPlatform;
  let client: PlatformClient;
  let templateId: string;
  const definition = (name: string) => ({
    name,
    signalType: '1' as const,
    outputGroupList: [
      { protocolType: 1 as const, outputTemplateList: [{ templateId, isDefault: '1' as const }] },
      { protocolType: 2 as const, outputTemplateList: [{ templateId, isDefault: '1' as const }] },
    ],
  });

  before(async () => {
    dir = await tempDir();
    // Videos are seeded through the store (uploads need ffmpeg); status 0, so that each can be transcoded.
    const store = await AccountStore.open(accountDir(dir, ACCOUNT.accessKey));
    const tx = new Tx();
    for (let i = 0; i < 30; i++) {
      tx.put(
        'videos',
        newVideoRecord({
          id: newId(),
          fileName: `v${i}.mp4`,
          title: `Video ${String(i).padStart(2, '0')} "é"`,
          uploadTime: T0 + i * 1000,
          size: 1000 + ((i * 37) % 50) * 10,
          status: 0,
          categoryId: (i % 2) + 1,
        }),
      );
    }
    tx.put('videoCategories', { id: 1, name: 'Tutorials' });
    tx.put('videoCategories', { id: 2, name: 'Highlights' });
    await store.commit(tx);
    await store.close();
    // A simulated transcoding takes about 100 ms at this clock speed: statuses move between two reads.
    p = await TestPlatform.start({ clockSpeed: 100 }, dir);
    client = p.client();
    const t = await client.liveTemplateCreate({
      displayName: 'T',
      videoWidth: 640,
      videoHeight: 360,
      videoBitrate: 500,
    });
    templateId = t.id;
    for (let i = 0; i < 20; i++) await client.liveCreateChannel(definition(`Channel ${String(i).padStart(2, '0')}`));
  });
  after(async () => {
    await p?.close();
    await removeDir(dir);
    await removeDir(copyDir);
  });

  /** Pages of every sort, both orders, a search: asked before and after each change. */
  function pages(): Array<[string, Record<string, string>]> {
    const asked: Array<[string, Record<string, string>]> = [];
    for (const sort of ['name', 'status', 'createTime', 'type'])
      for (const order of ['asc', 'desc'])
        for (const start of ['1', '2', '3']) asked.push(['liveGetChannelsByPage', { sort, order, start, number: '7' }]);
    asked.push(['liveGetChannelsByPage', { searchType: 'name', keyword: 'channel 1', number: '5' }]);
    for (const sort of ['title', 'size', 'status', 'uploadTime', 'category'])
      for (const order of ['asc', 'desc'])
        for (const start of ['1', '2', '3', '4', '5']) asked.push(['queryVideo', { sort, order, start, number: '7' }]);
    asked.push(['queryVideo', { sort: 'title', order: 'asc', start: '1', number: '10', status: '2' }]);
    return asked;
  }

  async function askAll(on: TestPlatform = p): Promise<string[]> {
    const texts: string[] = [];
    for (const [action, params] of pages()) {
      const answer = await raw(on, action, params);
      assert.equal(answer.json.code, 0, answer.text);
      texts.push(answer.text);
    }
    return texts;
  }

  /** Every record listed in every page is as its own read (never cached) shows it now. */
  async function listedAsRead(transcoding: ReadonlySet<string> = new Set()): Promise<void> {
    for (const [action, params] of pages()) {
      const answer = await raw(p, action, params);
      const listed = answer.json.result as Array<{ id: string; status: number }>;
      for (const record of listed) {
        if (action === 'liveGetChannelsByPage') {
          assert.deepEqual(record, await client.liveGetChannelById(record.id), `channel ${record.id}`);
        } else if (transcoding.has(record.id)) {
          // The simulated clock may move the status between the page and the read: never the status before.
          assert.notEqual(record.status, 0, `video ${record.id} listed with its status before the transcoding`);
        } else {
          assert.deepEqual(record, await client.getVideoInfo(record.id), `video ${record.id}`);
        }
      }
    }
  }

  it('never lists a changed record as it was, in any page asked before', async () => {
    await askAll();
    await askAll(); // answered from ready JSON now
    await listedAsRead();
    const all = await client.liveGetChannelsByPage({ sort: 'name', order: 'asc', number: 100 });
    const [renamed, started, deleted, stopped] = all.channels;

    await client.liveUpdate({ ...definition('Zulu renamed'), id: renamed.id });
    await listedAsRead();
    const afterRename = await client.liveGetChannelsByPage({ sort: 'name', order: 'desc', number: 1 });
    assert.equal(afterRename.channels[0].name, 'Zulu renamed');

    await client.liveStartChannel(started.id);
    await client.liveStartChannel(stopped.id);
    await listedAsRead();
    await client.liveStopChannel(stopped.id);
    await listedAsRead();

    await client.liveDelete([deleted.id]);
    await listedAsRead();
    for (const text of await askAll()) assert.ok(!text.includes(deleted.id), 'a deleted channel is never listed');

    // A template's new name shows in every channel's outputs (the channels themselves did not change).
    await client.liveTemplateUpdate({
      id: templateId,
      displayName: 'Renamed T',
      videoWidth: 640,
      videoHeight: 360,
      videoBitrate: 500,
    });
    await listedAsRead();
    assert.ok((await askAll()).some((text) => text.includes('Renamed T/500kbps/640x360')));

    const videos = await client.queryVideo({ sort: 'title', order: 'asc', start: 1, number: 3 });
    const ids = videos.map((v) => v.id);
    const results = await client.secondTranscodeV2({ videoIds: ids, replace: true, transcodeTemplateGroupId: 2 });
    assert.deepEqual(
      results.map((r) => r.code),
      [0, 0, 0],
    );
    await listedAsRead(new Set(ids));
    const deadline = Date.now() + 20_000;
    while ((await Promise.all(ids.map((id) => client.getVideoInfo(id)))).some((v) => v.status !== 2)) {
      assert.ok(Date.now() < deadline, 'the transcodings end');
      await listedAsRead(new Set(ids));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await listedAsRead();

    await client.deleteVideo([ids[0]]);
    await listedAsRead();
    for (const text of await askAll()) assert.ok(!text.includes(ids[0]), 'a deleted video is never listed');
  });

  it('answers pages with the bytes a platform that never served them makes', async () => {
    const warm = await askAll();
    // The same data opened by a second platform (its own store, nothing serialised yet).
    copyDir = await tempDir();
    await cp(dir, copyDir, { recursive: true });
    for (const lock of await readdir(join(copyDir, 'accounts'), { recursive: true }))
      if (lock.endsWith('lock')) await rm(join(copyDir, 'accounts', lock));
    const cold = await TestPlatform.start({ clockSpeed: 100 }, copyDir);
    try {
      const fresh = await askAll(cold);
      const port = (text: string, n: number): string => text.replaceAll(`:${n}/`, ':PORT/');
      assert.equal(fresh.length, warm.length);
      for (const [i, text] of fresh.entries())
        assert.equal(port(warm[i], p.platform.port), port(text, cold.platform.port), `page ${i}`);
    } finally {
      await cold.close();
    }
  });
});
