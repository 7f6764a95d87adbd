/**
 * Bounds on the encoding work a request sets up (issue 22, item 3), over real HTTP: template groups,
 * ad-hoc transcodings and live channels with more than 10 renditions, or more than one 8K rendition
 * at 100 Mbit/s of pixels x bitrate, are refused with 10902 naming the field and the limit, and
 * nothing is stored.
 */
import * as assert from 'node:assert/strict';
import type { PlatformClient } from '../../src/api/client';
import { Codes } from '../../src/api/errorCodes';
import type { TemplateGroupItem } from '../../src/api/types';
import { apiError, TestPlatform } from './harness';

function item(i: number, width: number, height: number, kbps: number): TemplateGroupItem {
  return {
    name: `r${i}`,
    videoWidth: width,
    videoHeight: height,
    videoBitrate: kbps,
    audioBitrate: 64000,
    format: 0,
    encryptType: 0,
    defaultVideo: i === 0 ? 1 : 0,
  };
}

describe('local platform security: bounded encoding work', function () {
  let tp: TestPlatform;
  let c: PlatformClient;

  before(async () => {
    // The demo data: videos to transcode (simulated media).
    tp = await TestPlatform.start({ demo: true });
    c = tp.client();
  });
  after(async () => tp?.close());

  it('refuses a template group of more than 10 renditions, or of too many pixels x kbps', async () => {
    const before = (await c.templateGroupList()).length;
    const group = { name: 'huge', type: 0 as const, trailor: false, trailorDuration: 0, logoGroupId: 0 };
    const twenty = Array.from({ length: 20 }, (_, i) => item(i, 7680, 4320, 100_000 - i));
    await apiError(
      c.templateGroup({ ...group, transcodeTemplates: twenty }),
      Codes.parameterInvalid,
      'transcodeTemplates asks for 20 renditions: the limit is 10 renditions',
    );
    const two8k = [item(0, 7680, 4320, 100_000), item(1, 7680, 4320, 90_000)];
    await apiError(
      c.templateGroup({ ...group, transcodeTemplates: two8k }),
      Codes.parameterInvalid,
      'transcodeTemplates asks for',
      'pixels x kbps in all: the limit is',
    );
    assert.equal((await c.templateGroupList()).length, before, 'nothing stored');
    const fine = await c.templateGroup({
      ...group,
      transcodeTemplates: [item(0, 7680, 4320, 100_000), item(1, 1280, 720, 3000)].slice(0, 1),
    });
    assert.ok(fine > 0);
  });

  it('refuses an ad-hoc transcoding of more than 10 renditions', async () => {
    const templates = Array.from({ length: 11 }, (_, i) => ({
      name: `t${i}`,
      videoWidth: 640,
      videoHeight: 360,
      videoBitrate: 500 + i,
      audioBitrate: 64000,
      hls: true,
      mp4: false,
      flv: false,
    }));
    const videos = await c.queryVideo({ start: 1, number: 100, sort: 'uploadTime', order: 'asc' });
    const video = videos.find((v) => v.status === 2)!;
    const [result] = await c.secondTranscodeV2({ videoIds: [video.id], replace: true, transcodeTemplates: templates });
    assert.equal(result.code, Codes.parameterInvalid, JSON.stringify(result));
    assert.match(JSON.stringify(result), /transcodeTemplates asks for 11 renditions: the limit is 10 renditions/);
    assert.equal((await c.getVideoInfo(video.id)).status, 2, 'not queued');
  });

  it('refuses a live channel whose groups add up to more than 10 renditions', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 11; i++) {
      ids.push(
        (await c.liveTemplateCreate({ displayName: `L${i}`, videoWidth: 640, videoHeight: 360, videoBitrate: 500 + i }))
          .id,
      );
    }
    const group = (list: string[]) => ({
      protocolType: 1 as const,
      outputTemplateList: list.map((templateId, i) => ({
        templateId,
        isDefault: i === 0 ? ('1' as const) : ('0' as const),
      })),
    });
    await apiError(
      c.liveCreateChannel({
        name: 'Wide',
        signalType: '1',
        outputGroupList: [group(ids.slice(0, 6)), group(ids.slice(6))],
      }),
      Codes.parameterInvalid,
      'outputGroupList asks for 11 renditions: the limit is 10 renditions',
    );
    const ok = await c.liveCreateChannel({
      name: 'Fine',
      signalType: '1',
      outputGroupList: [group(ids.slice(0, 5)), group(ids.slice(5, 10))],
    });
    assert.ok(ok.id);
  });
});
