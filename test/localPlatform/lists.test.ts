/** Channel list and video list: pages, sort, order, search, filters, counts (seeded directly in the store). */
import * as assert from 'node:assert/strict';
import type { PlatformClient } from '../../src/api/client';
import { Codes } from '../../src/api/errorCodes';
import { accountDir } from '../../src/localPlatform/accounts';
import { newId } from '../../src/localPlatform/store/ids';
import {
  newChannelRecord,
  newVideoRecord,
  type ChannelRec,
  type VideoRec,
} from '../../src/localPlatform/store/records';
import { AccountStore, Tx } from '../../src/localPlatform/store/store';
import { ACCOUNT, apiError, raw, removeDir, tempDir, TestPlatform } from './harness';

const T0 = Date.UTC(2026, 0, 1);

function channel(i: number): ChannelRec {
  return newChannelRecord({
    id: newId(),
    name: `Channel ${String(i).padStart(2, '0')}${i % 5 === 0 ? ' sports' : ''}`,
    authCode: 'a'.repeat(16),
    type: i % 3 === 0 ? 'c'.repeat(32) : null,
    typeName: i % 3 === 0 ? 'Concerts' : null,
    stream: `s${i}`,
    status: ([0, 1, 2] as const)[i % 3],
    streamStatus: i % 2 === 0 ? 1 : 2,
    createTime: T0 + i * 1000,
  });
}

function video(i: number): VideoRec {
  return newVideoRecord({
    id: newId(),
    fileName: `v${i}.mp4`,
    title: `Video ${String(i).padStart(2, '0')}${i % 4 === 0 ? ' goal' : ''}`,
    width: 1280,
    height: 720,
    bitrate: 2000,
    audioBitrate: 128,
    duration: 60_000,
    size: 1000 + ((i * 37) % 50) * 10,
    categoryId: (i % 3) + 1,
    status: (i % 8) as VideoRec['status'],
    uploadTime: T0 + i * 1000,
    tag: i % 6 === 0 ? 'goal,match' : i % 2 === 0 ? 'interview' : null,
    videoType: i % 10 === 9 ? 1 : 0,
  });
}

describe('local platform: channel and video lists', () => {
  let dir: string;
  let p: TestPlatform;
  let client: PlatformClient;
  const channels = Array.from({ length: 40 }, (_, i) => channel(i + 1));
  const videos = Array.from({ length: 60 }, (_, i) => video(i + 1));

  before(async () => {
    dir = await tempDir();
    // Seed through the store before the platform opens the folder.
    const store = await AccountStore.open(accountDir(dir, ACCOUNT.accessKey));
    const tx = new Tx();
    for (const ch of channels) tx.put('channels', ch);
    for (const v of videos) tx.put('videos', v);
    for (const [id, name] of [
      [1, 'Tutorials'],
      [2, 'Highlights'],
      [3, 'Archive'],
    ] as const)
      tx.put('videoCategories', { id, name });
    await store.commit(tx);
    await store.close();
    p = await TestPlatform.start({}, dir);
    client = p.client();
  });
  after(async () => {
    await p.close();
    await removeDir(dir);
  });

  it('pages the channel list from 1 with 15 by default, newest first, count = all matches', async () => {
    const page = await client.liveGetChannelsByPage();
    assert.equal(page.count, 40);
    assert.equal(page.channels.length, 15);
    assert.equal(page.channels[0].name, 'Channel 40 sports');
    const third = await client.liveGetChannelsByPage({ start: 3 });
    assert.deepEqual(
      third.channels.map((c) => c.name),
      Array.from(
        { length: 10 },
        (_, i) => `Channel ${String(10 - i).padStart(2, '0')}${(10 - i) % 5 === 0 ? ' sports' : ''}`,
      ),
    );
    const beyond = await client.liveGetChannelsByPage({ start: 9 });
    assert.deepEqual(beyond.channels, []);
    assert.equal(beyond.count, 40);
  });

  it('puts count at the top level of the envelope beside result', async () => {
    const answer = await raw(p, 'liveGetChannelsByPage', { start: '1', number: '2' });
    assert.deepEqual(Object.keys(answer.json), ['code', 'message', 'result', 'success', 'count']);
    assert.equal(answer.json.count, 40);
  });

  it('sorts channels by name, status, streamStatus, type and createTime, both orders', async () => {
    const byName = await client.liveGetChannelsByPage({ sort: 'name', order: 'asc', number: 3 });
    assert.deepEqual(
      byName.channels.map((c) => c.name),
      ['Channel 01', 'Channel 02', 'Channel 03'],
    );
    const byNameDesc = await client.liveGetChannelsByPage({ sort: 'name', order: 'desc', number: 1 });
    assert.equal(byNameDesc.channels[0].name, 'Channel 40 sports');
    const byStatus = await client.liveGetChannelsByPage({ sort: 'status', order: 'desc', number: 40 });
    const statuses = byStatus.channels.map((c) => c.status);
    assert.deepEqual(
      statuses,
      [...statuses].sort((a, b) => b - a),
    );
    const byStream = await client.liveGetChannelsByPage({ sort: 'streamStatus', order: 'asc', number: 40 });
    assert.deepEqual(
      byStream.channels.map((c) => c.streamStatus),
      [...Array(20).fill(1), ...Array(20).fill(2)],
    );
    const byType = await client.liveGetChannelsByPage({ sort: 'type', order: 'asc', number: 13 });
    assert.ok(byType.channels.every((c) => c.typeName === 'Concerts'));
    const oldest = await client.liveGetChannelsByPage({ sort: 'createTime', order: 'asc', number: 1 });
    assert.equal(oldest.channels[0].name, 'Channel 01');
  });

  it('searches channels by name, type or both, counting matches', async () => {
    const byName = await client.liveGetChannelsByPage({ searchType: 'name', keyword: 'SPORTS', number: 100 });
    assert.equal(byName.count, 8);
    assert.ok(byName.channels.every((c) => c.name.endsWith('sports')));
    const byType = await client.liveGetChannelsByPage({ searchType: 'type', keyword: 'concert' });
    assert.equal(byType.count, 13);
    const all = await client.liveGetChannelsByPage({ searchType: 'all', keyword: 'chan', number: 2 });
    assert.equal(all.count, 40);
    assert.equal(all.channels.length, 2);
    const both = await client.liveGetChannelsByPage({ searchType: 'all', keyword: 'sports' });
    assert.equal(both.count, 8);
  });

  it('refuses bad channel list parameters naming the field', async () => {
    await apiError(
      client.liveGetChannelsByPage({ sort: 'size' as never }),
      Codes.sortTypeIncorrect,
      'sort must be one of name, type, status, streamStatus, createTime',
    );
    await apiError(
      client.liveGetChannelsByPage({ order: 'up' as never }),
      Codes.parameterInvalid,
      'order must be one of asc, desc',
    );
    await apiError(
      client.liveGetChannelsByPage({ searchType: 'tag' as never, keyword: 'x' }),
      Codes.searchTypeIncorrect,
      'searchType must be one of name, type, all',
    );
    await apiError(
      client.liveGetChannelsByPage({ searchType: 'name' }),
      Codes.parameterMissing,
      'keyword is required when searchType is given',
    );
    const negative = await raw(p, 'liveGetChannelsByPage', { start: '-1' });
    assert.equal(negative.json.code, Codes.parameterInvalid);
    assert.match(negative.json.message, /start must be between 0 and/);
    // 0 is "not given" for these optional integers: page 1 of 15.
    const zero = await raw(p, 'liveGetChannelsByPage', { start: '0', number: '0' });
    const defaults = await client.liveGetChannelsByPage();
    assert.deepEqual(
      (zero.json.result as Array<{ id: string }>).map((c) => c.id),
      defaults.channels.map((c) => c.id),
    );
    assert.equal((zero.json.result as unknown[]).length, 15);
    const huge = await raw(p, 'liveGetChannelsByPage', { number: '5000' });
    assert.match(huge.json.message, /number must be between 0 and 1000/);
    const text = await raw(p, 'liveGetChannelsByPage', { number: 'ten' });
    assert.match(text.json.message, /number must be an integer/);
  });

  it('pages videos from 1, sorted by every key, in both orders', async () => {
    const first = await client.queryVideo({ start: 1, number: 5, sort: 'uploadTime', order: 'desc' });
    assert.deepEqual(
      first.map((v) => v.title),
      ['Video 60 goal', 'Video 58', 'Video 57', 'Video 56 goal', 'Video 55'],
    );
    const second = await client.queryVideo({ start: 2, number: 5, sort: 'uploadTime', order: 'desc' });
    assert.equal(second[0].title, 'Video 54');
    for (const sort of ['title', 'size', 'category', 'uploadTime', 'status', 'tag'] as const) {
      const asc = await client.queryVideo({ start: 1, number: 100, sort, order: 'asc' });
      const desc = await client.queryVideo({ start: 1, number: 100, sort, order: 'desc' });
      assert.equal(asc.length, 54, 'videoType defaults to 0 (normal videos only)');
      assert.deepEqual(
        desc.map((v) => v.id),
        asc.map((v) => v.id).reverse(),
        `desc is asc reversed for ${sort}`,
      );
      const key = (v: (typeof asc)[number]): string | number =>
        sort === 'category'
          ? (v.category ?? '')
          : sort === 'tag'
            ? (v.tag ?? '\uffff')
            : sort === 'title'
              ? v.title.toLowerCase()
              : v[sort];
      for (let i = 1; i < asc.length; i++) assert.ok(key(asc[i - 1]) <= key(asc[i]), `${sort} ascending at ${i}`);
    }
  });

  it('searches videos by title, tag or both, and filters by category, type and status', async () => {
    const byTitle = await client.queryVideo({
      start: 1,
      number: 100,
      sort: 'title',
      order: 'asc',
      searchType: 'title',
      keyword: 'GOAL',
    });
    assert.ok(byTitle.length > 0 && byTitle.every((v) => v.title.includes('goal')));
    const byTag = await client.queryVideo({
      start: 1,
      number: 100,
      sort: 'title',
      order: 'asc',
      searchType: 'tag',
      keyword: 'goal',
    });
    assert.ok(byTag.length > 0 && byTag.every((v) => v.tag?.includes('goal')));
    const all = await client.queryVideo({
      start: 1,
      number: 100,
      sort: 'title',
      order: 'asc',
      searchType: 'all',
      keyword: 'goal',
    });
    assert.equal(all.length, new Set([...byTitle, ...byTag].map((v) => v.id)).size);
    const cat = await client.queryVideo({ start: 1, number: 100, sort: 'title', order: 'asc', categoryId: 2 });
    assert.ok(cat.length > 0 && cat.every((v) => v.categoryId === 2 && v.category === 'Highlights'));
    // Category ids start at 1; 0 (an integer field left at its default) lists every category.
    const zero = await raw(p, 'queryVideo', {
      start: '1',
      number: '100',
      sort: 'title',
      order: 'asc',
      categoryId: '0',
    });
    const unfiltered = await client.queryVideo({ start: 1, number: 100, sort: 'title', order: 'asc' });
    assert.deepEqual(
      (zero.json.result as Array<{ id: string }>).map((v) => v.id),
      unfiltered.map((v) => v.id),
    );
    const vr = await client.queryVideo({ start: 1, number: 100, sort: 'title', order: 'asc', videoType: 1 });
    assert.equal(vr.length, 6);
    const queued = await client.queryVideo({ start: 1, number: 100, sort: 'title', order: 'asc', status: 7 });
    assert.ok(queued.length > 0 && queued.every((v) => v.status === 7));
  });

  it('refuses bad video queries: 10013 sort, 10018 searchType, 10901 missing, 10902 out of range', async () => {
    await apiError(
      client.queryVideo({ start: 1, number: 5, sort: 'name' as never, order: 'asc' }),
      Codes.sortTypeIncorrect,
      'sort must be one of title, size, category, uploadTime, status, tag',
    );
    await apiError(
      client.queryVideo({
        start: 1,
        number: 5,
        sort: 'title',
        order: 'asc',
        searchType: 'name' as never,
        keyword: 'x',
      }),
      Codes.searchTypeIncorrect,
      'searchType must be one of title, tag, all',
    );
    await apiError(
      client.queryVideo({ start: 1, number: 5, sort: 'title', order: 'asc', searchType: 'title' }),
      Codes.parameterMissing,
      'keyword is required',
    );
    await apiError(
      client.queryVideo({ start: 1, number: 5, sort: 'title', order: 'asc', status: 9 as never }),
      Codes.parameterInvalid,
      'status must be one of 0, 1, 2, 3, 4, 5, 6, 7',
    );
    for (const name of ['start', 'number', 'sort', 'order']) {
      const params: Record<string, string> = { start: '1', number: '5', sort: 'title', order: 'asc' };
      delete params[name];
      const answer = await raw(p, 'queryVideo', params);
      assert.equal(answer.json.code, Codes.parameterMissing, answer.text);
      assert.match(answer.json.message, new RegExp(`${name} is required`));
    }
  });

  it('keeps accounts apart: the other account sees none of these', async () => {
    const other = p.client({ accessKey: 'lp-test-key-2', secretKey: 'lp-Secret-Two-1a2b3c' });
    assert.equal((await other.liveGetChannelsByPage()).count, 0);
    assert.deepEqual(await other.queryVideo({ start: 1, number: 10, sort: 'title', order: 'asc' }), []);
    await apiError(other.getVideoInfo(videos[0].id), Codes.videoNotExists);
    await apiError(other.liveGetChannelById(channels[0].id), Codes.channelNotExists);
  });

  it('keeps sorted and searched lists exact while channels are created, renamed, started and deleted', async function () {
    this.timeout(30_000);
    const fresh = await TestPlatform.start();
    try {
      const c = fresh.client();
      const t = await c.liveTemplateCreate({ displayName: 'T', videoWidth: 640, videoHeight: 360, videoBitrate: 500 });
      const def = (name: string) => ({
        name,
        signalType: '1' as const,
        outputGroupList: [
          { protocolType: 1 as const, outputTemplateList: [{ templateId: t.id, isDefault: '1' as const }] },
        ],
      });
      const model = new Map<string, { id: string; name: string; status: number }>();
      let seed = 99;
      const rand = (n: number): number => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed % n;
      };
      const words = ['Alpha', 'beta', 'Gamma', 'delta', 'alpha', 'BETA'];
      const byName = (a: { id: string; name: string }, b: { id: string; name: string }): number => {
        const x = a.name.toLowerCase();
        const y = b.name.toLowerCase();
        return x < y ? -1 : x > y ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1;
      };
      for (let step = 0; step < 120; step++) {
        const ids = [...model.keys()];
        const op = ids.length < 5 ? 0 : rand(4);
        if (op === 0) {
          const ch = await c.liveCreateChannel(def(`${words[rand(6)]} ${rand(50)}`));
          model.set(ch.id, { id: ch.id, name: ch.name, status: ch.status });
        } else if (op === 1) {
          const id = ids[rand(ids.length)];
          if (model.get(id)!.status === 2) continue;
          const ch = await c.liveUpdate({ ...def(`${words[rand(6)]} ${rand(50)}`), id });
          model.set(id, { ...model.get(id)!, name: ch.name });
        } else if (op === 2) {
          const id = ids[rand(ids.length)];
          const ch = model.get(id)!.status === 2 ? await c.liveStopChannel(id) : await c.liveStartChannel(id);
          model.set(id, { ...model.get(id)!, status: ch.status });
        } else {
          const id = ids[rand(ids.length)];
          if (model.get(id)!.status === 2) await c.liveStopChannel(id);
          await c.liveDelete([id]);
          model.delete(id);
        }
        if (step % 6 === 5) {
          const listed = await c.liveGetChannelsByPage({ sort: 'name', order: 'asc', number: 1000 });
          assert.deepEqual(
            listed.channels.map((x) => x.id),
            [...model.values()].sort(byName).map((x) => x.id),
            `name order after step ${step}`,
          );
          const word = words[rand(6)].toLowerCase();
          const found = await c.liveGetChannelsByPage({
            sort: 'name',
            order: 'desc',
            number: 1000,
            searchType: 'name',
            keyword: word,
          });
          const expected = [...model.values()]
            .filter((x) => x.name.toLowerCase().includes(word))
            .sort(byName)
            .reverse();
          assert.deepEqual(
            found.channels.map((x) => x.id),
            expected.map((x) => x.id),
            `search ${word} after step ${step}`,
          );
          assert.equal(found.count, expected.length);
          const live = await c.liveGetChannelsByPage({ sort: 'status', order: 'desc', number: 1000 });
          assert.deepEqual(
            live.channels.map((x) => x.status),
            [...model.values()].map((x) => x.status).sort((a, b) => b - a),
          );
        }
      }
    } finally {
      await fresh.close();
    }
  });
});
