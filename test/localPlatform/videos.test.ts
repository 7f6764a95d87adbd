/** Demo data, videos, playback addresses and the second transcoding lifecycle (fast simulated clock). */
import * as assert from 'node:assert/strict';
import type { PlatformClient } from '../../src/api/client';
import { Codes } from '../../src/api/errorCodes';
import type { AdHocTemplate, Video } from '../../src/api/types';
import { DEMO_NAMES } from '../../src/localPlatform/demo/demo';
import { accountDir } from '../../src/localPlatform/accounts';
import { newId } from '../../src/localPlatform/store/ids';
import { newVideoRecord } from '../../src/localPlatform/store/records';
import { AccountStore, Tx } from '../../src/localPlatform/store/store';
import { eventually } from '../helpers/eventually';
import { ACCOUNT, apiError, raw, removeDir, tempDir, TestPlatform } from './harness';
import {
  assertFields,
  CDN_FIELDS,
  HEX32,
  PLAYBACK_FIELDS,
  PLAYBACK_STREAM_FIELDS,
  STREAM_FIELDS,
  VIDEO_FIELDS,
} from './specFields';

describe('local platform: demo data, videos and transcoding', () => {
  let p: TestPlatform;
  let client: PlatformClient;
  let videos: Video[];

  const adHoc: AdHocTemplate[] = [
    {
      name: 'small',
      videoWidth: 640,
      videoHeight: 360,
      videoBitrate: 600,
      audioBitrate: 64000,
      hls: true,
      mp4: true,
      flv: false,
      defaultVideo: 1,
    },
    {
      name: 'tiny',
      videoWidth: 320,
      videoHeight: 180,
      videoBitrate: 200,
      audioBitrate: 32000,
      hls: false,
      mp4: false,
      flv: true,
      ts: true,
    },
  ];

  async function all(): Promise<Video[]> {
    return client.queryVideo({ start: 1, number: 100, sort: 'uploadTime', order: 'asc' });
  }
  function byTitle(title: string, list = videos): Video {
    const v = list.find((x) => x.title === title && x.parentId === null);
    assert.ok(v, `demo video ${title}`);
    return v;
  }

  before(async () => {
    // Clock speed 25: queued for 80 ms, transcoding for 320 ms, so each status can be seen.
    p = await TestPlatform.start({ demo: true, clockSpeed: 25 });
    client = p.client();
    videos = await all();
  });
  after(async () => {
    await p.close();
  });

  it('seeds videos in every status 0-7 with every listed field, renditions where done', async () => {
    assert.deepEqual([...new Set(videos.map((v) => v.status))].sort(), [0, 1, 2, 3, 4, 5, 6, 7]);
    for (const v of videos) {
      assertFields(v, VIDEO_FIELDS, `video ${v.title}`);
      assert.match(v.id, HEX32);
      assert.ok(Number.isInteger(v.categoryId));
      assert.ok(DEMO_NAMES.videoCategories.includes(v.category as never));
      for (const s of v.transcodedVideoList) assertFields(s, STREAM_FIELDS, 'output stream');
    }
    const done = byTitle('Welcome tour');
    assert.equal(done.status, 2);
    assert.ok(done.transcodedVideoList.length >= 2);
    const s = done.transcodedVideoList[0];
    assert.match(s.hlsUrl ?? '', new RegExp(`^${p.platform.baseUrl}/vod/${done.id}/.+\\.m3u8$`));
    assert.ok(s.hlsSize > 0 && s.mp4Size > 0);
    assert.equal(s.flvUrl, null);
    assert.equal(s.flvSize, 0);
    assert.equal(done.transcodedVideoList.filter((x) => x.defaultVideo === 1).length, 1);
    assert.equal(byTitle('Raw upload').transcodedVideoList.length, 0);
    const child = videos.find((v) => v.parentId === done.id);
    assert.ok(child, 'a saved-as child video of Welcome tour');
  });

  it('seeds live channels in every state with HLS and RTMP groups, recording and time shift', async () => {
    const { channels } = await client.liveGetChannelsByPage({ number: 50 });
    const named = (name: string) => channels.find((c) => c.name === name)!;
    const live = named(DEMO_NAMES.channels.live);
    assert.deepEqual([live.status, live.streamStatus], [2, 1]);
    assert.ok(
      live.outputGroupList.some(
        (g) =>
          g.protocolType === 1 && g.isRecord === '1' && g.isTimeShift === '1' && g.recordTaskId && g.timeShiftTaskId,
      ),
    );
    assert.ok(live.outputGroupList.some((g) => g.protocolType === 2));
    const stopped = named(DEMO_NAMES.channels.stopped);
    assert.deepEqual([stopped.status, stopped.streamStatus, stopped.signalType], [1, 1, '2']);
    assert.ok(stopped.endTime && stopped.pullStream);
    const fresh = named(DEMO_NAMES.channels.fresh);
    assert.deepEqual([fresh.status, fresh.streamStatus, fresh.startTime], [0, 2, null]);
    assert.deepEqual(
      (await client.liveChannelTypeList()).map((c) => c.name),
      [...DEMO_NAMES.categories],
    );
    assert.deepEqual(
      (await client.liveGetTemplates()).map((t) => t.displayName),
      [...DEMO_NAMES.liveTemplates],
    );
    assert.deepEqual(
      (await client.liveLogoList()).map((l) => l.name),
      [...DEMO_NAMES.liveLogos],
    );
    assert.deepEqual(
      (await client.getLogoGroupList()).map((g) => g.name),
      [...DEMO_NAMES.logoGroups],
    );
    assert.equal(
      (await client.templateGroupList()).find((g) => g.defaultGroup)?.name,
      DEMO_NAMES.templateGroups.standard,
    );
  });

  it('gives playback addresses per format for transcoded videos, nulls for unknown ids', async () => {
    const done = byTitle('Match highlights');
    const unknown = 'f'.repeat(32);
    const [info, none] = await client.getTranscodedVideos([done.id, unknown]);
    assertFields(info, PLAYBACK_FIELDS, 'playback');
    assert.equal(info.id, done.id);
    assert.equal(info.videoType, 0);
    assert.equal(info.cdns?.length, 1);
    const cdn = info.cdns![0];
    assertFields(cdn, CDN_FIELDS, 'cdn');
    assert.equal(cdn.defaultCdn, 1);
    assert.equal(cdn.hls?.list.length, 2);
    assert.equal(cdn.mp4?.list.length, 2);
    assert.equal(cdn.flv, null);
    for (const s of cdn.hls!.list) assertFields(s, PLAYBACK_STREAM_FIELDS, 'playback stream');
    assert.deepEqual(
      cdn.hls!.list.map((s) => s.url),
      done.transcodedVideoList.map((s) => s.hlsUrl),
    );
    assert.deepEqual(none, { id: unknown, videoType: null, cdns: null, comments: null });
  });

  it('moves a video 7 -> 6 -> 2 with the default group, replacing earlier renditions', async () => {
    const raw0 = byTitle('Raw upload');
    const [result] = await client.secondTranscodeV2({ videoIds: [raw0.id], replace: true });
    assert.deepEqual(result, { id: raw0.id, code: 0, message: 'success' });
    // Each status seen, in order, until done: the platform's clock runs fast here, so a busy machine may miss one
    // (waiting passed between two reads), never see one out of order.
    const seen: number[] = [];
    const done = await eventually(
      'status 2',
      async () => {
        const v = await client.getVideoInfo(raw0.id);
        if (seen.at(-1) !== v.status) seen.push(v.status);
        return v.status === 2 ? v : undefined;
      },
      3000,
    );
    // In the order 7 (waiting), 6 (second transcoding), 2 (done); at least one before done.
    const order = [7, 6, 2];
    assert.ok(
      seen.length >= 2 && seen.every((status, i) => i === 0 || order.indexOf(status) > order.indexOf(seen[i - 1]!)),
      `statuses seen: ${seen.join(' -> ')}`,
    );
    assert.ok(order.includes(seen[0]!), `statuses seen: ${seen.join(' -> ')}`);
    // The demo default group: 1080p HLS, 720p HLS + MP4 (merged into one rendition per profile).
    assert.deepEqual(
      done.transcodedVideoList.map((s) => [s.name, !!s.hlsUrl, !!s.mp4Url]),
      [
        ['1080p', true, false],
        ['720p', true, true],
      ],
    );
    assert.equal(done.transcodedVideoList.find((s) => s.defaultVideo === 1)?.name, '720p');
    assert.equal(done.logoGroupId, (await client.getLogoGroupList())[0].id, 'the group logo group is recorded');
    const expected = Math.round((((4500 * 1000 + 128000) * done.duration) / 8000) * 1.04);
    assert.equal(done.transcodedVideoList[0].hlsSize, expected);
  });

  it('replace=true swaps the renditions for the new ones; ad-hoc templates win over a group id', async () => {
    const source = byTitle('Welcome tour');
    const oldTask = source.transcodedVideoList[0].taskId;
    const [r] = await client.secondTranscodeV2({
      videoIds: [source.id],
      replace: true,
      transcodeTemplates: adHoc,
      transcodeTemplateGroupId: 999999,
    });
    assert.equal(r.code, 0);
    const done = await eventually(
      'replaced renditions',
      async () => {
        const v = await client.getVideoInfo(source.id);
        return v.status === 2 && v.transcodedVideoList[0]?.taskId !== oldTask ? v : undefined;
      },
      3000,
    );
    assert.deepEqual(
      done.transcodedVideoList.map((s) => s.name),
      ['small', 'tiny'],
    );
    const tiny = done.transcodedVideoList[1];
    assert.deepEqual(
      [tiny.hlsUrl, tiny.mp4Url, !!tiny.flvUrl, !!tiny.tsUrl, tiny.audioBitrate],
      [null, null, true, true, 32000],
    );
  });

  it('replace=false adds a new video item (parentId = source) and leaves the source renditions', async () => {
    const source = byTitle('Match highlights');
    const before = source.transcodedVideoList.map((s) => s.hlsUrl);
    const [r] = await client.secondTranscodeV2({
      videoIds: [source.id],
      replace: false,
      transcodeTemplates: { logoGroupId: (await client.getLogoGroupList())[1].id, templates: [adHoc[0]] },
      trailor: true,
      trailorDuration: 10,
    });
    assert.equal(r.code, 0);
    const child = await eventually(
      'the new video item',
      async () => (await all()).find((v) => v.parentId === source.id),
      3000,
    );
    assert.equal(child.status, 2);
    assert.equal(child.title, source.title);
    assert.deepEqual(
      child.transcodedVideoList.map((s) => [s.name, s.type]),
      [
        ['small', 0],
        ['small', 1],
      ],
      'a preview clip too',
    );
    assert.ok(child.transcodedVideoList[1].mp4Size < child.transcodedVideoList[0].mp4Size);
    assert.equal(child.logoGroupId, (await client.getLogoGroupList())[1].id);
    const after = await eventually(
      'the transcoding to complete',
      async () => {
        const v = await client.getVideoInfo(source.id);
        return v.status === 2 ? v : undefined;
      },
      5000,
    );
    assert.deepEqual(
      after.transcodedVideoList.map((s) => s.hlsUrl),
      before,
    );
  });

  it('answers per video: 10033 running, 10067 queued, 10012 unknown, 0 for the rest', async () => {
    const running = byTitle('Keynote');
    const second = byTitle('Product demo');
    const queued = byTitle('Queued interview');
    const failed = byTitle('Broken encode');
    const unknown = '0'.repeat(32);
    const results = await client.secondTranscodeV2({
      videoIds: [running.id, second.id, queued.id, unknown, failed.id],
      replace: true,
      transcodeTemplateGroupId: 1,
    });
    assert.deepEqual(
      results.map((r) => [r.id, r.code]),
      [
        [running.id, Codes.transcodeRunning],
        [second.id, Codes.transcodeRunning],
        [queued.id, Codes.videoInWaitingList],
        [unknown, Codes.videoNotExists],
        [failed.id, 0],
      ],
    );
    assert.match(results[2].message, /^video_is_in_transcode_waitting_list/);
    const again = await client.secondTranscodeV2({ videoIds: [failed.id], replace: true, transcodeTemplateGroupId: 1 });
    assert.ok([Codes.videoInWaitingList, Codes.transcodeRunning].includes(again[0].code as never));
  });

  it('answers code 0 at the top with the outcome of each video: unknown video, unknown group, bad templates', async () => {
    const id = byTitle('Meeting notes').id;
    const unknown = '1'.repeat(32);
    const only = async (job: Parameters<typeof client.secondTranscodeV2>[0], code: number, detail: string) => {
      // The raw envelope: top-level code 0, the refusal in the video's own result.
      const results = await client.secondTranscodeV2(job);
      assert.equal(results.length, job.videoIds.length);
      for (const r of results) {
        if (r.id === unknown) continue;
        assert.equal(r.code, code, r.message);
        assert.ok(r.message.includes(detail), `"${r.message}" should mention "${detail}"`);
      }
      return results;
    };
    const none = await client.secondTranscodeV2({ videoIds: [unknown], replace: true, transcodeTemplateGroupId: 1 });
    assert.deepEqual(none, [
      { id: unknown, code: Codes.videoNotExists, message: 'video_not_exists: not a video of this account' },
    ]);
    const mixed = await only(
      { videoIds: [unknown, id], replace: true, transcodeTemplateGroupId: 4242 },
      Codes.templateGroupNotExist,
      'transcodeTemplateGroupId 4242',
    );
    assert.equal(mixed[0].code, Codes.videoNotExists);
    await only(
      { videoIds: [id], replace: true, transcodeTemplates: [{ ...adHoc[0], hls: false, mp4: false }] },
      Codes.transcodeTemplateNotCorrect,
      'transcodeTemplates[0].hls or mp4, flv or ts must be true',
    );
    await only(
      { videoIds: [id], replace: true, transcodeTemplates: [{ ...adHoc[0], hlsEncryptType: 5 as never }] },
      Codes.transcodeTemplateNotCorrect,
      'transcodeTemplates[0].hlsEncryptType must be one of 0, 6, 7',
    );
    await only(
      { videoIds: [id], replace: true, transcodeTemplates: [adHoc[0], adHoc[0]] },
      Codes.transcodeTemplateNotCorrect,
      'at most one template with defaultVideo 1',
    );
    await only(
      {
        videoIds: [id],
        replace: true,
        transcodeTemplates: { logoGroupId: 0, templates: [{ ...adHoc[0], videoWidth: undefined as never }] },
      },
      Codes.transcodeTemplateNotCorrect,
      'transcodeTemplates.templates[0].videoWidth is required',
    );
    const envelope = await raw(
      p,
      'secondTranscodeV2',
      { videoIds: id, replace: 'true', transcodeTemplateGroupId: '4242' },
      { method: 'POST' },
    );
    assert.equal(envelope.json.code, 0, envelope.text);
    assert.equal(envelope.json.success, true);
    const noReplace = await raw(
      p,
      'secondTranscodeV2',
      { videoIds: id, transcodeTemplateGroupId: '1' },
      { method: 'POST' },
    );
    assert.equal(noReplace.json.code, Codes.parameterMissing);
    assert.match(noReplace.json.message, /replace is required/);
    const oneZero = await raw(
      p,
      'secondTranscodeV2',
      { videoIds: id, transcodeTemplateGroupId: '1', replace: 'maybe' },
      { method: 'POST' },
    );
    assert.match(oneZero.json.message, /replace must be true or false/);
    // Meeting notes is an unknown file type: no task can be created for it.
    const [r] = await client.secondTranscodeV2({ videoIds: [id], replace: true, transcodeTemplateGroupId: 1 });
    assert.equal(r.code, Codes.createTranscodeTaskFailed);
  });

  it('answers noUserTranscodeTemplate for each video when the account has no default group and none is given', async () => {
    // Without demo data an account has only the built-in groups, none of them its default.
    const dir = await tempDir();
    const store = await AccountStore.open(accountDir(dir, ACCOUNT.accessKey));
    const video = newVideoRecord({
      id: newId(),
      fileName: 'a.mp4',
      title: 'A',
      width: 1280,
      height: 720,
      bitrate: 2000,
      audioBitrate: 128,
      duration: 60_000,
      size: 1000,
      categoryId: 1,
      status: 2,
      uploadTime: Date.now(),
      tag: null,
      videoType: 0,
    });
    await store.commit(new Tx().put('videos', video));
    await store.close();
    const bare = await TestPlatform.start({}, dir);
    try {
      const [r] = await bare.client().secondTranscodeV2({ videoIds: [video.id], replace: true });
      assert.equal(r.code, Codes.noUserTranscodeTemplate, r.message);
      assert.match(r.message, /no default template group/);
    } finally {
      await bare.close();
      await removeDir(dir);
    }
  });

  it('accepts replace as 1/0 and booleans as text', async () => {
    const v = byTitle('Broken encode');
    await eventually(
      'previous run done',
      async () => ((await client.getVideoInfo(v.id)).status === 2 ? true : undefined),
      3000,
    );
    const answer = await raw(
      p,
      'secondTranscodeV2',
      { videoIds: v.id, replace: '0', transcodeTemplateGroupId: '2' },
      { placement: 'form' },
    );
    assert.equal(answer.json.code, 0, answer.text);
    assert.deepEqual(answer.json.result, [{ id: v.id, code: 0, message: 'success' }]);
  });

  it('gets one video by id and deletes videos all or nothing', async () => {
    const v = byTitle('Interrupted upload');
    assert.deepEqual(await client.getVideoInfo(v.id), v);
    await apiError(client.getVideoInfo('2'.repeat(32)), Codes.videoNotExists, 'videoId 2222');
    await apiError(client.deleteVideo([v.id, '3'.repeat(32)]), Codes.videoNotExists, 'videoIds lists 3333');
    assert.equal((await client.getVideoInfo(v.id)).id, v.id);
    await client.deleteVideo([v.id]);
    await apiError(client.getVideoInfo(v.id), Codes.videoNotExists);
  });
});
