/**
 * Picture addresses (a video's `cover` and `thumbnail`, a channel's `thumbnailUrl`) are listed only when they
 * are served; "" otherwise. Simulated media has no pictures at all; records stored by versions without the
 * `covers` flag get it from the disk once, on the first start that reads them. (Real media: media/*.test.ts.)
 */
import * as assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { accountDir } from '../../src/localPlatform/accounts';
import { videoDir } from '../../src/localPlatform/media/files';
import { newVideoRecord, type VideoRec } from '../../src/localPlatform/store/records';
import { AccountStore, Tx } from '../../src/localPlatform/store/store';
import { ACCOUNT, removeDir, tempDir, TestPlatform } from './harness';
import { checkPictures, rawGet } from './media/helpers';

/** The start of a JPEG file: the platform serves it by its name, it never decodes it. */
const JPEG = Buffer.from('ffd8ffe000104a46494600', 'hex');

describe('local platform: picture addresses', function () {
  this.timeout(30_000);

  it('with simulated media lists "" for every picture of the demo data, and the previews name no cover', async () => {
    const tp = await TestPlatform.start({ demo: true });
    try {
      const client = tp.client();
      const videos = [
        ...(await client.queryVideo({ start: 1, number: 100, sort: 'title', order: 'asc' })),
        ...(await client.queryVideo({ start: 1, number: 100, sort: 'title', order: 'asc', videoType: 1 })),
      ];
      assert.deepEqual([...new Set(videos.map((v) => v.status))].sort(), [0, 1, 2, 3, 4, 5, 6, 7]);
      for (const v of videos) {
        assert.equal(await checkPictures(tp.platform.port, v), false, v.title);
        const info = await client.getVideoInfo(v.id);
        assert.equal(info.cover, '', v.title);
        const preview = await rawGet(tp.platform.port, new URL(v.playCode.previewUrl).pathname);
        assert.doesNotMatch(preview.body.toString('utf8'), /cover\.jpg/, v.title);
      }
      // Simulated live: nothing serves /live/, so no channel (the live ones included) lists a thumbnail.
      const { channels } = await client.liveGetChannelsByPage({ number: 50 });
      assert.ok(channels.some((ch) => ch.status === 2));
      for (const ch of channels) assert.equal(ch.thumbnailUrl, '', ch.name);
      assert.equal((await client.liveGetChannelById(channels[0]!.id)).thumbnailUrl, '');
    } finally {
      await tp.close();
    }
  });

  it('gives videos stored without the covers flag (older versions) the flag from the disk, once', async () => {
    const dataDir = await tempDir();
    try {
      const dir = accountDir(dataDir, ACCOUNT.accessKey);
      // Two videos as an older version stored them: no `covers` field; one has its pictures on disk.
      const older = (id: string, title: string): VideoRec => {
        const { covers: _, ...rest } = newVideoRecord({
          id,
          fileName: `${title}.mp4`,
          title,
          uploadTime: 1,
          status: 2,
        });
        return rest as VideoRec;
      };
      const pictured = 'a'.repeat(32);
      const bare = 'b'.repeat(32);
      const store = await AccountStore.open(dir);
      await store.commit(new Tx().put('videos', older(pictured, 'pictured')).put('videos', older(bare, 'bare')));
      await store.close();
      await mkdir(videoDir(dir, pictured), { recursive: true });
      for (const name of ['cover.jpg', 'thumbnail.jpg']) await writeFile(join(videoDir(dir, pictured), name), JPEG);
      // An empty file is no picture (a capture that failed half-way).
      await mkdir(videoDir(dir, bare), { recursive: true });
      await writeFile(join(videoDir(dir, bare), 'cover.jpg'), '');

      const listed = async (): Promise<Map<string, { cover: string; thumbnail: string }>> => {
        const tp = await TestPlatform.start({}, dataDir);
        try {
          const videos = await tp.client().queryVideo({ start: 1, number: 10, sort: 'title', order: 'asc' });
          for (const v of videos) await checkPictures(tp.platform.port, v);
          return new Map(videos.map((v) => [v.id, { cover: v.cover, thumbnail: v.thumbnail }]));
        } finally {
          await tp.close();
        }
      };
      const first = await listed();
      assert.match(first.get(pictured)!.cover, new RegExp(`^http://127\\.0\\.0\\.1:\\d+/vod/${pictured}/cover\\.jpg$`));
      assert.match(first.get(pictured)!.thumbnail, new RegExp(`/vod/${pictured}/thumbnail\\.jpg$`));
      assert.deepEqual(first.get(bare), { cover: '', thumbnail: '' });
      // Stored at once (a snapshot): the next start reads the flags instead of looking again.
      const snapshot = await readFile(join(dir, 'snapshot.jsonl'), 'utf8');
      assert.match(snapshot, new RegExp(`"id":"${pictured}"[^\\n]*"covers":true`));
      assert.match(snapshot, new RegExp(`"id":"${bare}"[^\\n]*"covers":false`));
      assert.ok((await readdir(dir)).every((name) => !name.includes('damaged')));
      const second = await listed();
      assert.deepEqual(
        [...second.values()].map((v) => v.cover === ''),
        [...first.values()].map((v) => v.cover === ''),
      );
    } finally {
      await removeDir(dataDir);
    }
  });
});
