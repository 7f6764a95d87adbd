/**
 * Whole answers of the list reads (store/readAnswers.ts): served again only for the same parameters (the signing
 * ones aside) while nothing changed, never past a write, a refusal of the request itself or a thumbnail that came
 * or went; bounded in bytes.
 */
import * as assert from 'node:assert/strict';
import type { PlatformClient } from '../../../src/api/client';
import { Codes } from '../../../src/api/errorCodes';
import { accountDir } from '../../../src/localPlatform/accounts';
import { makeOrigin } from '../../../src/localPlatform/http/addresses';
import { channelList } from '../../../src/localPlatform/http/serialize';
import { newId } from '../../../src/localPlatform/store/ids';
import { queryVideo } from '../../../src/localPlatform/actions/videos';
import { Fields } from '../../../src/localPlatform/actions/fields';
import { success } from '../../../src/localPlatform/http/answer';
import { JsonList } from '../../../src/localPlatform/store/answerCache';
import {
  READ_ANSWER_BYTES,
  ReadAnswers,
  answerKey,
  readAnswersOf,
  storeStamp,
} from '../../../src/localPlatform/store/readAnswers';
import { newChannelRecord, newVideoRecord, type VideoRec } from '../../../src/localPlatform/store/records';
import { AccountStore, Tx } from '../../../src/localPlatform/store/store';
import { Transcoder, renditionsFor } from '../../../src/localPlatform/transcoder';
import { ACCOUNT, raw, removeDir, send, signed, tempDir, TestPlatform } from '../harness';
import { RENDITION_720P, videoFields } from '../../../bench/platformServer';

/** A list fragment as the answer caches make them: a comma and the JSON. */
const fragment = (value: unknown): Buffer => Buffer.from(`,${JSON.stringify(value)}`);

/** A video as the benchmarks' large account has them (bench/platformServer.ts): one in 8 with a rendition. */
function benchVideo(i: number): VideoRec {
  const id = `${String(i).padStart(8, '0')}${'0'.repeat(24)}`;
  return newVideoRecord({
    id,
    ...videoFields(i, 1_700_000_000_000),
    streams: i % 8 === 2 ? renditionsFor(`e${id.slice(1)}`, [{ ...RENDITION_720P }], 0, id, 60_000) : [],
  });
}

/** The key of parameters given as an object (names and values in its order). */
const keyOf = (params: Record<string, string>, hostName: string | undefined): string =>
  answerKey(Object.keys(params), Object.values(params), hostName);

const answer = (text: string) => {
  const body = Buffer.from(text);
  return { body, headers: ['Content-Type', 'application/json', 'Content-Length', String(body.length)] };
};

describe('local platform: whole answers of list reads', () => {
  it('keys a request by its host name and every parameter but signature and timestamp, unambiguously', () => {
    const base = { accessKey: 'k', action: 'queryVideo', version: '2.0', start: '1' };
    const one = keyOf({ ...base, timestamp: '1', signature: 'a'.repeat(64) }, '127.0.0.1');
    assert.equal(keyOf({ ...base, timestamp: '2', signature: 'b'.repeat(64) }, '127.0.0.1'), one);
    assert.notEqual(keyOf({ ...base, start: '2' }, '127.0.0.1'), one);
    assert.notEqual(keyOf(base, 'localhost'), one);
    assert.notEqual(keyOf(base, undefined), one);
    // A value holding what looks like the next parameter is not that parameter.
    assert.notEqual(keyOf({ a: 'x|1:b1:y' }, 'h'), keyOf({ a: 'x', b: 'y' }, 'h'));
    assert.notEqual(keyOf({ a: 'x1:b' }, 'h'), keyOf({ a: 'x', b: '' }, 'h'));
  });

  it('serves an answer only at the stamp, origin and outside state it was made with', () => {
    const cache = new ReadAnswers(10_000);
    const origin = {};
    const page = answer('{"page":1}');
    cache.keep('k', 5, origin, page, undefined, 5);
    assert.equal(cache.find('k', 5, origin), page);
    assert.equal(cache.find('k', 5, {}), undefined, 'another origin');
    cache.keep('k', 5, origin, page, undefined, 5);
    assert.equal(cache.find('k', 6, origin), undefined, 'the store changed');
    assert.equal(cache.bytesHeld, 0, 'a change of the store lets go of every kept answer');
    cache.keep('k', 6, origin, page, undefined, 7);
    assert.equal(cache.find('k', 7, origin), undefined, 'made while the store changed: not kept');
    let thumbnail = false;
    cache.keep('k', 7, origin, page, () => thumbnail === false, 7);
    assert.equal(cache.find('k', 7, origin), page);
    thumbnail = true;
    assert.equal(cache.find('k', 7, origin), undefined, 'what it read outside the store changed');
    thumbnail = false;
    assert.equal(cache.find('k', 7, origin), undefined, 'and it was dropped');
  });

  it('keeps at most its size in bytes, and keeps serving those that fit during a longer walk', () => {
    const cache = new ReadAnswers(1000);
    const origin = {};
    const pages = Array.from({ length: 12 }, (_, i) => answer(`{"page":${i},"pad":"${'x'.repeat(80)}"}`));
    let served = 0;
    for (let round = 0; round < 6; round++) {
      for (const [i, page] of pages.entries()) {
        const key = `page ${i}`;
        if (cache.find(key, 1, origin) === page) served++;
        else cache.keep(key, 1, origin, page, undefined, 1);
        assert.ok(cache.bytesHeld <= 1000, `${cache.bytesHeld} bytes held`);
      }
    }
    assert.ok(pages[0].body.length * 12 > 1000, 'the walk does not fit');
    assert.ok(served >= 5 * 6, `${served} of ${5 * 12} asks served from kept answers`);
    cache.keep('large', 1, origin, answer('x'.repeat(300)), undefined, 1);
    assert.equal(cache.find('large', 1, origin), undefined, 'an answer over a quarter of the bound is not kept');
  });

  it('answers with its chunks, not a joined copy, what it cannot keep: the same bytes, nothing kept', () => {
    const page = (title: string) => {
      const result = [{ id: 'a', title }, { id: 'b' }, { id: 'c', title: '渠道 "😀"' }];
      const fragments = result.map(fragment);
      const envelope = { code: 0, message: 'success', result: new JsonList(fragments), success: true };
      return { fragments, envelope, bytes: Buffer.from(JSON.stringify({ ...envelope, result })) };
    };
    const small = page('x'.repeat(300));
    const cache = new ReadAnswers(2000);
    const origin = {};
    const kept = cache.answer('one', 3, origin, small.envelope, 3);
    assert.ok('body' in kept, 'room for it: joined and kept');
    assert.deepEqual(kept.body, small.bytes);
    assert.deepEqual(kept.headers, [
      'Content-Type',
      'application/json;charset=UTF-8',
      'Content-Length',
      `${small.bytes.length}`,
    ]);
    assert.equal(cache.find('one', 3, origin), kept);
    // Over a quarter of the bound, and made while the store changed: written as the envelope's chunks.
    for (const [key, stamp, made] of [
      ['large', 3, page('x'.repeat(600))],
      ['changed', 2, small],
    ] as const) {
      const chunked = cache.answer(key, stamp, origin, made.envelope, 3);
      assert.ok('chunks' in chunked, `${key}: not kept, not joined`);
      assert.equal(chunked.chunks[2], made.fragments[1], 'a fragment is written as it is, not copied');
      assert.deepEqual(Buffer.concat(chunked.chunks), made.bytes);
      assert.deepEqual(chunked.headers.slice(2), ['Content-Length', `${made.bytes.length}`]);
      assert.equal(cache.find(key, 3, origin), undefined);
      assert.ok(cache.bytesHeld <= 2000);
    }
    assert.equal(cache.find('one', 3, origin), kept, 'what fits stays kept');
    assert.ok('chunks' in cache.answer('one', 4, origin, small.envelope, 5), 'the store changed while it was made');
    assert.equal(cache.find('one', 5, origin), undefined, 'nor is what was kept before the change served');
    assert.equal(cache.bytesHeld, 0);
  });

  it('takes new answers in once those it holds are no longer asked, answering the rest as chunks meanwhile', () => {
    const cache = new ReadAnswers(1000);
    const origin = {};
    const envelope = (i: number) => ({
      code: 0,
      message: 'success',
      result: new JsonList([fragment({ i, pad: 'x'.repeat(40) })]),
      success: true,
    });
    for (let i = 0; i < 12; i++) cache.answer(`old ${i}`, 1, origin, envelope(i), 1);
    // Another set asked again and again (the old ones never again): the refusals bring the sweep that lets it in.
    const fresh = Array.from({ length: 6 }, (_, i) => `fresh ${i}`);
    for (let round = 0; round < 10; round++) {
      for (const [i, key] of fresh.entries())
        if (!cache.find(key, 1, origin)) cache.answer(key, 1, origin, envelope(100 + i), 1);
      assert.ok(cache.bytesHeld <= 1000);
    }
    assert.deepEqual(
      fresh.map((key) => cache.find(key, 1, origin) !== undefined),
      fresh.map(() => true),
    );
  });

  it("keeps a small answer's body in a buffer of its own, not in a slab of Node's shared pool", () => {
    const envelope = { code: 0, message: 'success', result: new JsonList([fragment({ id: 'a' })]), success: true };
    const kept = new ReadAnswers(10_000).answer('k', 1, {}, envelope, 1);
    assert.ok('body' in kept);
    assert.equal(kept.body.buffer.byteLength, kept.body.length, 'a slice of the pool would hold its 8 KiB slab');
  });

  it('keeps a walk through 500 pages of 15 videos (queryVideo by size) whole at its bound', async () => {
    const dir = await tempDir();
    const store = await AccountStore.open(accountDir(dir, ACCOUNT.accessKey));
    const transcoder = new Transcoder(store, 1, () => undefined);
    try {
      const tx = new Tx();
      for (let c = 1; c <= 5; c++) tx.put('videoCategories', { id: c, name: `Category ${c}` });
      for (let i = 0; i < 7500; i++) tx.put('videos', benchVideo(i));
      await store.commit(tx);
      const account = { ...ACCOUNT, userId: 123456, store, transcoder };
      const view = { store, userId: account.userId, origin: makeOrigin('127.0.0.1', 8080), liveThumbnail: undefined };
      const answers = readAnswersOf(store);
      const stamp = storeStamp(store);
      const page = (start: number) => {
        const params = { action: 'queryVideo', start: String(start), number: '15', sort: 'size', order: 'desc' };
        return { key: keyOf(params, '127.0.0.1'), params };
      };
      let bytes = 0;
      for (let start = 1; start <= 500; start++) {
        const { key, params } = page(start);
        const outcome = await queryVideo({ params: new Fields(params), body: undefined, account, view, now: 0 });
        const made = answers.answer(key, stamp, view.origin, success(outcome), storeStamp(store));
        bytes += 'body' in made ? made.body.length : Buffer.concat(made.chunks).length;
      }
      // The pages are as large as the benchmarks' (17.5 KiB): together more than 8 MiB.
      assert.ok(bytes > 8 * 1024 * 1024, `${bytes} bytes`);
      assert.ok(bytes < READ_ANSWER_BYTES, `${bytes} bytes`);
      let kept = 0;
      for (let start = 1; start <= 500; start++) if (answers.find(page(start).key, stamp, view.origin)) kept++;
      assert.equal(kept, 500, 'every page of the walk asked again is kept');
      assert.ok(answers.bytesHeld <= READ_ANSWER_BYTES);
    } finally {
      transcoder.close();
      await store.close();
      await removeDir(dir);
    }
  });

  it("checks a channel page's live thumbnails again: one that comes or goes ends the kept answer", async () => {
    const dir = await tempDir();
    const store = await AccountStore.open(accountDir(dir, ACCOUNT.accessKey));
    try {
      const channels = [1, 2].map((n) => newChannelRecord({ id: newId(), name: `c${n}`, createTime: n }));
      const tx = new Tx();
      for (const ch of channels) tx.put('channels', ch);
      await store.commit(tx);
      const shown = new Set<string>();
      const view = {
        store,
        userId: 1,
        origin: makeOrigin('127.0.0.1', 1),
        liveThumbnail: (id: string) => shown.has(id),
      };
      const list = channelList(view, channels);
      assert.equal(list.stillSame?.(), true);
      shown.add(channels[1].id);
      assert.equal(list.stillSame?.(), false, 'a thumbnail came');
      assert.match(channelList(view, channels).text, /thumbnail/);
      assert.equal(channelList({ ...view, liveThumbnail: undefined }, channels).stillSame, undefined);
      assert.equal(storeStamp(store) > 0, true);
    } finally {
      await store.close();
      await removeDir(dir);
    }
  });
});

describe('local platform: whole answers of list reads, over HTTP', function () {
  this.timeout(60_000);
  let p: TestPlatform;
  let client: PlatformClient;
  let templateId: string;
  const definition = (name: string) => ({
    name,
    signalType: '1' as const,
    outputGroupList: [{ protocolType: 1 as const, outputTemplateList: [{ templateId, isDefault: '1' as const }] }],
  });
  let timestamp = Date.now();
  /** The same read signed anew each time (a later timestamp, so another signature), as a client asks it. */
  const read = async (action: string, params: Record<string, string>) => {
    // Later than the last one, and near the clock however late the suite runs this file.
    timestamp = Math.max(timestamp + 1, Date.now());
    const answered = await raw(p, action, { ...params, timestamp: String(timestamp) });
    assert.equal(answered.json.code, 0, answered.text);
    return answered;
  };

  before(async () => {
    const dir = await tempDir();
    const store = await AccountStore.open(accountDir(dir, ACCOUNT.accessKey));
    const tx = new Tx();
    for (let i = 0; i < 12; i++) {
      tx.put(
        'videos',
        newVideoRecord({
          id: newId(),
          fileName: `v${i}.mp4`,
          title: `Video ${String(i).padStart(2, '0')}`,
          uploadTime: i,
          status: 2,
        }),
      );
    }
    await store.commit(tx);
    await store.close();
    p = await TestPlatform.start({}, dir);
    client = p.client();
    templateId = (
      await client.liveTemplateCreate({ displayName: 'T', videoWidth: 640, videoHeight: 360, videoBitrate: 500 })
    ).id;
    for (let i = 0; i < 5; i++) await client.liveCreateChannel(definition(`Channel ${i}`));
  });
  after(async () => {
    const dir = p?.dataDir;
    await p?.close();
    await removeDir(dir);
  });

  it('answers a channel page read again after a write with the write in it', async () => {
    const params = { sort: 'name', order: 'asc', number: '3' };
    const first = await read('liveGetChannelsByPage', params);
    assert.equal((await read('liveGetChannelsByPage', params)).text, first.text, 'unchanged: the same answer');
    const [top] = first.json.result as Array<{ id: string; name: string }>;
    await client.liveUpdate({ ...definition('Channel 0 renamed'), id: top.id });
    const renamed = await read('liveGetChannelsByPage', params);
    assert.equal((renamed.json.result as Array<{ name: string }>)[0].name, 'Channel 0 renamed');
    await client.liveCreateChannel(definition('A channel'));
    const created = await read('liveGetChannelsByPage', params);
    assert.equal(created.json.count, 6);
    assert.equal((created.json.result as Array<{ name: string }>)[0].name, 'A channel');
    // A write to another collection the page shows (the outputs' template name).
    await client.liveTemplateUpdate({
      id: templateId,
      displayName: 'U',
      videoWidth: 640,
      videoHeight: 360,
      videoBitrate: 500,
    });
    assert.match((await read('liveGetChannelsByPage', params)).text, /"U\/\d+kbps\/640x360"/);
    assert.notEqual(
      (await read('liveGetChannelsByPage', { ...params, start: '2' })).text,
      created.text,
      'another parameter: another page',
    );
  });

  it('answers a video page read again after a write with the write in it', async () => {
    const params = { sort: 'title', order: 'asc', start: '1', number: '5' };
    const first = await read('queryVideo', params);
    assert.equal((await read('queryVideo', params)).text, first.text);
    const [gone] = first.json.result as Array<{ id: string }>;
    await client.deleteVideo([gone.id]);
    const after = await read('queryVideo', params);
    assert.ok(!after.text.includes(gone.id), 'a deleted video is not listed');
    assert.equal((after.json.result as unknown[]).length, 5);
  });

  it('refuses a request for a kept answer as it refuses any: signature, timestamp, replay', async () => {
    const params = { sort: 'name', order: 'desc' };
    await read('liveGetChannelsByPage', params);
    const forged = await raw(p, 'liveGetChannelsByPage', params, {
      tamper: (all) => (all.signature = '0'.repeat(64)),
    });
    assert.equal(forged.json.code, Codes.signatureIncorrect);
    const stale = await raw(p, 'liveGetChannelsByPage', { ...params, timestamp: String(Date.now() - 3_600_000) });
    assert.equal(stale.json.code, Codes.timestampExpired);
    const guarded = await TestPlatform.start({ replayGuard: true }, undefined);
    try {
      const once = signed('liveGetChannelsByPage', params);
      const path = `/rest?${new URLSearchParams(once).toString()}`;
      assert.equal((await send(guarded.platform.port, 'GET', path)).json.code, 0);
      assert.equal((await send(guarded.platform.port, 'GET', path)).json.code, Codes.requestReplayed);
    } finally {
      await guarded.close();
    }
  });
});

describe('local platform: a list answer too large to keep, over HTTP', function () {
  this.timeout(60_000);
  let p: TestPlatform;

  before(async () => {
    const dir = await tempDir();
    const store = await AccountStore.open(accountDir(dir, ACCOUNT.accessKey));
    const tx = new Tx();
    // Ten videos of 400 KB each: a page of all ten is over a quarter of the kept answers' bound.
    for (let i = 0; i < 10; i++) {
      const title = `Video ${i} ${'渠道'.repeat(200_000 / 3)}`;
      tx.put('videos', newVideoRecord({ id: newId(), fileName: `v${i}.mp4`, title, uploadTime: i, status: 2 }));
    }
    await store.commit(tx);
    await store.close();
    p = await TestPlatform.start({}, dir);
  });
  after(async () => {
    const dir = p?.dataDir;
    await p?.close();
    await removeDir(dir);
  });

  it('is written whole, the bytes JSON.stringify makes, and made again each time', async () => {
    const params = { sort: 'title', order: 'asc', start: '1', number: '10' };
    const whole = await raw(p, 'queryVideo', params);
    assert.equal(whole.json.code, 0);
    assert.ok(Buffer.byteLength(whole.text) > READ_ANSWER_BYTES / 4, `${Buffer.byteLength(whole.text)} bytes`);
    assert.equal(whole.headers['content-length'], String(Buffer.byteLength(whole.text)));
    assert.equal(whole.text, JSON.stringify(whole.json));
    assert.equal((await raw(p, 'queryVideo', params)).text, whole.text, 'asked again: the same answer');
    const one = async (start: number) =>
      (await raw(p, 'queryVideo', { ...params, start: String(start), number: '1' })).json.result as unknown[];
    const pages = [];
    for (let start = 1; start <= 10; start++) pages.push(...(await one(start)));
    assert.deepEqual(whole.json.result, pages, 'the pages of one video each (kept) list the same videos');
  });
});
