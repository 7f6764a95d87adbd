/**
 * Two accounts on a platform bound to every interface (`--host 0.0.0.0`, issue 22, item 8): one
 * account cannot read, list, change, pull or play the other's media by any route: REST with its own
 * keys, the source or a key by a path built from the other's ids, a pull source naming the other's
 * files or the platform's own addresses.
 */
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import type { PlatformClient } from '../../src/api/client';
import { Codes } from '../../src/api/errorCodes';
import { accountDir } from '../../src/localPlatform/accounts';
import type { MediaTools } from '../../src/media/tools';
import { ACCOUNT, apiError, OTHER, removeDir, tempDir, TestPlatform } from './harness';
import { loadTools } from './live/media';
import { makeClip, mediaTools, uploadFile, SETTLED, waitForStatus } from './media/helpers';

describe('local platform security: accounts on 0.0.0.0 keep to their own media', function () {
  this.timeout(120_000);
  let tools: MediaTools;
  let clips: string;
  let tp: TestPlatform;
  let a: PlatformClient;
  let b: PlatformClient;
  let videoId: string;
  let hlsUrl: string;
  let channelId: string;

  before(async function () {
    const found = await mediaTools();
    if (!found) this.skip();
    tools = found;
    await loadTools();
    clips = await tempDir();
    tp = await TestPlatform.start({
      host: '0.0.0.0',
      media: { npmFallback: true },
      live: { npmFallback: true, rtmpPort: 0 },
    });
    a = tp.client(ACCOUNT);
    b = tp.client(OTHER);
    const token = (await a.getToken()).accessToken;
    const answer = await uploadFile(tp.platform.baseUrl, token, await makeClip(tools, clips, 'mine.mp4', 2, 160, 90), {
      isTranscoder: '0',
    });
    videoId = answer.result![0].videoId;
    const [queued] = await a.secondTranscodeV2({
      videoIds: [videoId],
      replace: true,
      transcodeTemplates: [
        {
          name: 'enc',
          videoWidth: 160,
          videoHeight: 90,
          videoBitrate: 150,
          audioBitrate: 32000,
          hls: true,
          mp4: true,
          flv: false,
          hlsEncryptType: 6,
          defaultVideo: 1,
        },
      ],
    });
    assert.equal(queued.code, 0);
    const video = await waitForStatus(a, videoId, SETTLED);
    hlsUrl = video.transcodedVideoList.find((s) => s.hlsUrl)!.hlsUrl!;
    const t = await a.liveTemplateCreate({ displayName: 'Tiny', videoWidth: 160, videoHeight: 90, videoBitrate: 150 });
    channelId = (
      await a.liveCreateChannel({
        name: 'Mine',
        signalType: '1',
        outputGroupList: [{ protocolType: 1, outputTemplateList: [{ templateId: t.id, isDefault: '1' }] }],
      })
    ).id;
  });
  after(async () => {
    await tp?.close();
    await removeDir(clips);
  });

  it('gives the other account nothing of the video over REST, and changes nothing', async () => {
    await apiError(b.getVideoInfo(videoId), Codes.videoNotExists);
    const listed = await b.queryVideo({ start: 1, number: 1000, sort: 'uploadTime', order: 'asc' });
    assert.ok(!listed.some((v) => v.id === videoId));
    const [again] = await b.secondTranscodeV2({ videoIds: [videoId], replace: true, transcodeTemplateGroupId: 1 });
    assert.equal(again.code, Codes.videoNotExists);
    await assert.rejects(b.deleteVideo([videoId]));
    await apiError(b.liveGetChannelById(channelId), Codes.channelNotExists);
    await assert.rejects(b.liveGetChannelsPlayUrl(channelId));
    await assert.rejects(b.liveStartChannel(channelId));
    const mine = await a.getVideoInfo(videoId);
    assert.equal(mine.status, 2, 'untouched');
  });

  it('serves neither the source nor a key by a path built from the ids', async () => {
    const base = tp.platform.baseUrl;
    assert.equal((await fetch(`${base}/vod/${videoId}/source`)).status, 404);
    assert.equal((await fetch(`${base}/vod/${videoId}/%2e%2e/${videoId}/source`)).status, 404);
    const playlist = await (await fetch(hlsUrl)).text();
    const keyName = /URI="([^"?]+)\?token=/.exec(playlist)![1];
    assert.equal((await fetch(new URL(keyName, hlsUrl))).status, 403);
  });

  it("refuses pull sources naming the other's files or the platform's own addresses", async () => {
    const t = await b.liveTemplateCreate({ displayName: 'Tiny', videoWidth: 160, videoHeight: 90, videoBitrate: 150 });
    const group = { protocolType: 1 as const, outputTemplateList: [{ templateId: t.id, isDefault: '1' as const }] };
    const source = join(accountDir(tp.dataDir, ACCOUNT.accessKey), 'media', videoId, 'source');
    const port = tp.platform.port;
    for (const pullStream of [
      `file://${source}`,
      `concat:${source}`,
      `http://127.0.0.1:${port}/vod/${videoId}/source`,
      `${hlsUrl}`,
      `http://localhost:${port}/vod/${videoId}/cover.jpg`,
      `rtmp://127.0.0.1:${new URL(tp.platform.rtmpUrl!.replace(/^rtmp:/, 'http:')).port}/live/anything`,
    ]) {
      await apiError(
        b.liveCreateChannel({ name: 'Theirs', signalType: '2', pullStream, outputGroupList: [group] }),
        Codes.parameterInvalid,
        'pullStream must',
      );
    }
    assert.equal((await b.liveGetChannelsByPage({ start: 1, number: 100 })).count, 0);
  });
});
