/** The tag index answers what a scan of every video answers, after every kind of write. */
import * as assert from 'node:assert/strict';
import { newVideoRecord, type VideoRec } from '../../../src/localPlatform/store/records';
import { AccountStore, Tx } from '../../../src/localPlatform/store/store';
import { videosTagged } from '../../../src/localPlatform/store/videoIndex';
import { removeDir, tempDir } from '../harness';

const WORDS = ['News', 'sport', 'MUSIC', 'talk', 'kids'];

function video(i: number, tag: string | null): VideoRec {
  return newVideoRecord({
    id: `v${String(i).padStart(5, '0')}`,
    fileName: `f${i}.mp4`,
    title: `clip ${i}`,
    width: 640,
    height: 360,
    bitrate: 800,
    audioBitrate: 128,
    duration: 1000,
    playNum: 0,
    size: 1,
    categoryId: 1,
    status: 2,
    uploadTime: i,
    tag,
    streams: [],
  });
}

function scan(store: AccountStore, keyword: string): string[] {
  return [...store.values('videos')]
    .filter((v) => v.tag?.toLowerCase().includes(keyword))
    .map((v) => v.id)
    .sort();
}

function indexed(store: AccountStore, keyword: string): string[] | undefined {
  return videosTagged(store, keyword, Infinity)
    ?.map((v) => v.id)
    .sort();
}

describe('local platform: video tag index', () => {
  let dir: string | undefined;
  let store: AccountStore | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
    await removeDir(dir);
    dir = undefined;
  });

  it('matches part of the tag text, any case, and follows additions, changes and deletions', async () => {
    dir = await tempDir();
    const s = (store = await AccountStore.open(dir));
    const seed = new Tx();
    for (let i = 0; i < 300; i++)
      seed.put('videos', video(i, i % 7 === 0 ? null : `${WORDS[i % 5]},${WORDS[(i * 3) % 5]}`));
    await s.commit(seed);
    const keywords = ['news', 'music,', 'ort', 'k', 'rare', 'news,talk'];
    for (const k of keywords) assert.deepEqual(indexed(s, k), scan(s, k), k);
    for (let round = 0; round < 20; round++) {
      const tx = new Tx();
      tx.put('videos', video(1000 + round, round % 2 ? 'Rare,news' : 'rare'));
      tx.put('videos', video(round * 11, `talk,${round}`));
      tx.del('videos', `v${String(round * 13 + 1).padStart(5, '0')}`);
      await s.commit(tx);
      for (const k of keywords) assert.deepEqual(indexed(s, k), scan(s, k), `${k}, round ${round}`);
    }
    assert.equal(indexed(s, 'rare')?.length, 20);
  });

  it('says when more videos match than the caller wants to sort', async () => {
    dir = await tempDir();
    const s = (store = await AccountStore.open(dir));
    const seed = new Tx();
    for (let i = 0; i < 50; i++) seed.put('videos', video(i, i < 3 ? 'few' : 'many'));
    await s.commit(seed);
    assert.equal(videosTagged(s, 'many', 10), undefined);
    assert.deepEqual(videosTagged(s, 'few', 10)?.length, 3);
  });

  it('is rebuilt when more changed than the store remembers', async () => {
    dir = await tempDir();
    const s = (store = await AccountStore.open(dir));
    await s.commit(new Tx().put('videos', video(0, 'old')));
    assert.equal(indexed(s, 'old')?.length, 1);
    for (let i = 1; i < 2500; i++) await s.commit(new Tx().put('videos', video(i, `t${i}`)));
    await s.commit(new Tx().del('videos', 'v00000'));
    assert.deepEqual(indexed(s, 'old'), []);
    assert.deepEqual(indexed(s, 't249'), scan(s, 't249'));
  });
});
