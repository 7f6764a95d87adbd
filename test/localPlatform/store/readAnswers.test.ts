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
import { ReadAnswers, answerKey, storeStamp } from '../../../src/localPlatform/store/readAnswers';
import { newChannelRecord, newVideoRecord } from '../../../src/localPlatform/store/records';
import { AccountStore, Tx } from '../../../src/localPlatform/store/store';
import { ACCOUNT, raw, removeDir, send, signed, tempDir, TestPlatform } from '../harness';

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
