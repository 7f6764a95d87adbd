/**
 * Stored records share what they repeat (store/shared.ts: tag texts, template ids, the empty rendition list) and
 * the store's map keys are the records' own ids: the answers stay byte for byte what they were, pinned here as
 * the platform answered before that (commit f1a7f07), on a first start and after restarts (records read back from
 * the journal, then from the snapshot: where the sharing happens).
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { accountDir } from '../../../src/localPlatform/accounts';
import { newChannelRecord, newOutputGroupRecord, newVideoRecord } from '../../../src/localPlatform/store/records';
import type { LiveTemplateRec } from '../../../src/localPlatform/store/records';
import { AccountStore, Tx } from '../../../src/localPlatform/store/store';
import { renditionsFor } from '../../../src/localPlatform/transcoder';
import { ACCOUNT, raw, removeDir, tempDir, TestPlatform } from '../harness';
import { RENDITION_720P } from '../../../bench/platformServer';

const T0 = Date.UTC(2026, 0, 1);
const TEMPLATE = '7e000000000000000000000000000001';
const CHANNEL = 'c0000000000000000000000000000001';
const VIDEO_DONE = 'a0000000000000000000000000000001';
const VIDEO_NEW = 'a0000000000000000000000000000002';

const template: LiveTemplateRec = {
  id: TEMPLATE,
  displayName: 'T',
  type: 1,
  transcodeType: 0,
  videoWidth: 640,
  videoHeight: 360,
  videoBitrate: 500,
  audioBitrate: 128,
  frameRate: 25,
  videoCodec: 'h264',
  advanced: {
    rc: null,
    refFrame: null,
    gopSize: null,
    bframe: null,
    interlace: null,
    gopType: null,
    smartBorder: null,
  },
  createTime: T0,
  updateTime: null,
};

function channel(id: string, name: string): ReturnType<typeof newChannelRecord> {
  const group = (n: number, protocolType: 1 | 2) =>
    newOutputGroupRecord({
      id: `${id.slice(0, 31)}${n}`.replace(/^c/, 'b'),
      protocolType,
      createTime: T0,
      outputs: [
        {
          id: `${id.slice(0, 31)}${n}`.replace(/^c/, 'd'),
          templateId: TEMPLATE,
          isDefault: '1',
          createTime: T0,
          updateTime: null,
        },
      ],
    });
  return newChannelRecord({
    id,
    name,
    authCode: 'f00dfeedf00dfeed',
    typeName: 'News',
    createTime: T0,
    groups: [group(1, 1), group(2, 2)],
  });
}

function video(id: string, title: string, done: boolean): ReturnType<typeof newVideoRecord> {
  const streams = done ? renditionsFor('e0000000000000000000000000000001', [{ ...RENDITION_720P }], 0, id, 60_000) : [];
  return newVideoRecord({
    id,
    fileName: `${title}.mp4`,
    title,
    uploadTime: T0 + 1000,
    width: 1920,
    height: 1080,
    duration: 60_000,
    size: 123_456,
    categoryId: 1,
    status: done ? 2 : 0,
    tag: 'news,sport',
    streams,
  });
}

/**
 * The answers as the platform gave them before the records shared anything (BASE: the serving origin), written
 * by this test's own reads at commit f1a7f07.
 */
const PINNED = JSON.parse(readFileSync(join(__dirname, 'shared.answers.json'), 'utf8')) as {
  channel: string;
  videos: string;
};

describe('local platform: records share what they repeat, answers stay the same bytes', function () {
  this.timeout(60_000);
  let dir: string;

  before(async () => {
    dir = await tempDir();
    const store = await AccountStore.open(accountDir(dir, ACCOUNT.accessKey));
    const tx = new Tx().put('liveTemplates', template).put('videoCategories', { id: 1, name: 'Tutorials' });
    tx.put('channels', channel(CHANNEL, 'One')).put('channels', channel(CHANNEL.replace(/1$/, '2'), 'Two'));
    tx.put('videos', video(VIDEO_DONE, 'done', true)).put('videos', video(VIDEO_NEW, 'new', false));
    tx.put('videos', video(VIDEO_NEW.replace(/2$/, '3'), 'another new', false));
    await store.commit(tx);
    await store.close();
  });
  after(async () => {
    await removeDir(dir);
  });

  async function answers(): Promise<{ channel: string; videos: string }> {
    const p = await TestPlatform.start({}, dir);
    try {
      const base = p.platform.baseUrl.replace(/\/rest$/, '');
      const text = async (action: string, params: Record<string, string>): Promise<string> => {
        const answer = await raw(p, action, params);
        assert.equal(answer.json.code, 0, answer.text);
        return answer.text.split(base).join('BASE');
      };
      return {
        channel: await text('liveGetChannelById', { id: CHANNEL }),
        videos: await text('queryVideo', { sort: 'title', order: 'asc', start: '1', number: '10' }),
      };
    } finally {
      await p.close();
    }
  }

  it('answers a channel and a video list with the same bytes as before, first and after restarts', async () => {
    for (const start of ['first start', 'read back from the journal', 'read back from the snapshot']) {
      const got = await answers();
      assert.equal(got.channel, PINNED.channel, `channel, ${start}`);
      assert.equal(got.videos, PINNED.videos, `videos, ${start}`);
    }
  });

  it('keeps one empty rendition list for every video without renditions, which nothing can change', async () => {
    const store = await AccountStore.open(accountDir(dir, ACCOUNT.accessKey));
    try {
      const a = store.get('videos', VIDEO_NEW)!;
      const b = store.get('videos', VIDEO_NEW.replace(/2$/, '3'))!;
      assert.deepEqual(a.streams, []);
      assert.equal(a.streams, b.streams, 'one list');
      assert.throws(() => (a.streams as unknown[]).push({}), TypeError);
      assert.equal(store.get('videos', VIDEO_DONE)!.streams.length, 1);
    } finally {
      await store.close();
    }
  });
});
