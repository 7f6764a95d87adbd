/** Live channels through the project's client: rules, states, play addresses, update, delete. */
import * as assert from 'node:assert/strict';
import type { PlatformClient } from '../../src/api/client';
import { Codes } from '../../src/api/errorCodes';
import type { Channel, ChannelDefinition, LiveTemplate } from '../../src/api/types';
import { apiError, raw, TestPlatform } from './harness';
import {
  assertFields,
  CHANNEL_FIELDS,
  HEX32,
  LIVE_OUTPUT_FIELDS,
  OUTPUT_GROUP_FIELDS,
  OUTPUT_TEMPLATE_FIELDS,
  PLAY_URL_FIELDS,
  PLAY_URL_ITEM_FIELDS,
} from './specFields';

describe('local platform: live channels', () => {
  let p: TestPlatform;
  let client: PlatformClient;
  let hd: LiveTemplate;
  let sd: LiveTemplate;
  let logoId: string;
  let categoryId: string;

  before(async () => {
    p = await TestPlatform.start();
    client = p.client();
    hd = await client.liveTemplateCreate({ displayName: 'HD', videoWidth: 1280, videoHeight: 720, videoBitrate: 2000 });
    sd = await client.liveTemplateCreate({ displayName: 'SD', videoWidth: 640, videoHeight: 360, videoBitrate: 600 });
    logoId = (
      await client.liveLogoCreate({
        name: 'Bug',
        uri: 'img/bug.png',
        width: 100,
        height: 40,
        offsetWidth: 10,
        offsetHeight: 10,
      })
    ).id;
    categoryId = (await client.liveChannelTypeCreate('Shows')).id;
  });
  after(async () => {
    await p.close();
  });

  function definition(extra: Partial<ChannelDefinition> = {}): ChannelDefinition {
    return {
      name: 'Morning show',
      signalType: '1',
      outputGroupList: [
        {
          protocolType: 1,
          isRecord: '1',
          isTimeShift: '1',
          timeShiftDuration: '3',
          outputTemplateList: [
            { templateId: hd.id, isDefault: '1' },
            { templateId: sd.id, isDefault: '0' },
          ],
        },
        { protocolType: 2, rotation: '90', logoId, outputTemplateList: [{ templateId: sd.id, isDefault: '1' }] },
      ],
      ...extra,
    };
  }

  async function channelCount(): Promise<number> {
    return (await client.liveGetChannelsByPage({ number: 1 })).count;
  }

  it('creates a channel: status 0 / streamStatus 2, every listed field, no start or end time', async () => {
    const ch = await client.liveCreateChannel(definition({ type: categoryId }));
    assertFields(ch, CHANNEL_FIELDS, 'channel');
    assert.match(ch.id, HEX32);
    assert.equal(ch.status, 0);
    assert.equal(ch.streamStatus, 2);
    assert.equal(ch.startTime, null);
    assert.equal(ch.endTime, null);
    assert.equal(ch.signalType, '1');
    assert.equal(ch.typeName, 'Shows');
    assert.equal(ch.type, categoryId);
    assert.equal(typeof ch.userId, 'number');
    assert.equal(ch.outputGroupList.length, 2);
    for (const g of ch.outputGroupList) {
      assertFields(g, OUTPUT_GROUP_FIELDS, 'output group');
      assert.match(g.id, HEX32);
      assert.equal(g.channelId, ch.id);
      assert.equal(g.outputTemplateList.length, g.liveOutputs.length);
      for (const t of g.outputTemplateList) {
        assertFields(t, OUTPUT_TEMPLATE_FIELDS, 'output template');
        assert.equal(t.templateId, null);
        assert.equal(t.isDefault, null);
      }
      for (const o of g.liveOutputs) assertFields(o, LIVE_OUTPUT_FIELDS, 'live output');
    }
    const [hls, rtmp] = ch.outputGroupList;
    assert.equal(hls.isRecord, '1');
    assert.equal(hls.isTimeShift, '1');
    assert.equal(hls.timeShiftDuration, '3');
    assert.equal(hls.outputTemplateList[0].name, 'HD/2000kbps/1280x720');
    assert.equal(hls.liveOutputs[0].isDefault, '1');
    assert.equal(hls.liveOutputs[1].isDefault, '0');
    assert.equal(rtmp.rotation, '90');
    assert.equal(rtmp.logoId, logoId);
    assert.equal(rtmp.liveLogoId, logoId);
    assert.equal(rtmp.liveLogo?.name, 'Bug');
    assert.equal(hls.liveLogo, null);
    assert.match(ch.pushUrl, /^rtmp:\/\/127\.0\.0\.1:\d+\/live\//);
    assert.match(
      hls.liveOutputs[0].publicOutputUrl,
      new RegExp(`^${p.platform.baseUrl}/live/hls/${ch.id}/${hls.id}-1\\.m3u8$`),
    );
    assert.deepEqual(await client.liveGetChannelById(ch.id), ch);
  });

  it('takes a typeName instead of a type, and accepts numbers and booleans for flags', async () => {
    const ch = await client.liveCreateChannel({
      name: 'By name',
      signalType: 1,
      typeName: 'shows',
      outputGroupList: [
        {
          protocolType: 1,
          isRecord: 1,
          isLiveEncrypt: true,
          outputTemplateList: [{ templateId: hd.id, isDefault: 1 }],
        },
      ],
      fillInfo: { anything: true },
      isFastEdit: 0,
    } as unknown as ChannelDefinition);
    assert.equal(ch.type, categoryId);
    assert.equal(ch.typeName, 'Shows');
    assert.equal(ch.signalType, '1');
    assert.equal(ch.outputGroupList[0].isRecord, '1');
    assert.equal(ch.outputGroupList[0].isLiveEncrypt, '1');
    assert.ok(ch.outputGroupList[0].contentId, 'an encrypted group carries its content id');
  });

  it('follows the first template type for liveType when it is omitted', async () => {
    const vr = await client.liveTemplateCreate({
      displayName: 'VR',
      videoWidth: 3840,
      videoHeight: 1920,
      videoBitrate: 9000,
      transcodeType: 2,
    });
    const ch = await client.liveCreateChannel({
      name: 'VR show',
      signalType: '1',
      outputGroupList: [{ protocolType: 1, outputTemplateList: [{ templateId: vr.id, isDefault: '1' }] }],
    });
    assert.equal(ch.liveType, 2);
    const given = await client.liveCreateChannel({ ...definition(), liveType: 3 });
    assert.equal(given.liveType, 3);
  });

  const rules: Array<[string, (d: ChannelDefinition) => unknown, number, string]> = [
    ['name missing', (d) => ({ ...d, name: '' }), Codes.parameterMissing, 'name is required'],
    ['signalType missing', (d) => ({ ...d, signalType: undefined }), Codes.parameterMissing, 'signalType is required'],
    ['signalType 3', (d) => ({ ...d, signalType: '3' }), Codes.parameterInvalid, 'signalType must be one of 1, 2'],
    ['pull without pullStream', (d) => ({ ...d, signalType: '2' }), Codes.parameterMissing, 'pullStream is required'],
    [
      'pullStream not an address',
      (d) => ({ ...d, signalType: '2', pullStream: 'camera one' }),
      Codes.parameterInvalid,
      'pullStream must be a stream address',
    ],
    ['liveType 1', (d) => ({ ...d, liveType: 1 }), Codes.parameterInvalid, 'liveType must be one of 0, 2, 3, 4'],
    [
      'no output groups',
      (d) => ({ ...d, outputGroupList: [] }),
      Codes.parameterInvalid,
      'outputGroupList must hold at least one',
    ],
    [
      'outputGroupList missing',
      (d) => ({ ...d, outputGroupList: undefined }),
      Codes.parameterMissing,
      'outputGroupList is required',
    ],
    [
      'protocolType 3',
      (d) => ({ ...d, outputGroupList: [{ ...d.outputGroupList[0], protocolType: 3 }] }),
      Codes.parameterInvalid,
      'outputGroupList[0].protocolType must be one of 1, 2',
    ],
    [
      'rotation 45',
      (d) => ({ ...d, outputGroupList: [d.outputGroupList[0], { ...d.outputGroupList[1], rotation: '45' }] }),
      Codes.parameterInvalid,
      'outputGroupList[1].rotation must be one of 0, 90, 270',
    ],
    [
      'time shift on RTMP',
      (d) => ({ ...d, outputGroupList: [{ ...d.outputGroupList[1], isTimeShift: '1', timeShiftDuration: '2' }] }),
      Codes.parameterInvalid,
      'outputGroupList[0].isTimeShift can be 1 on HLS groups',
    ],
    [
      'encryption on RTMP',
      (d) => ({ ...d, outputGroupList: [{ ...d.outputGroupList[1], isLiveEncrypt: '1' }] }),
      Codes.parameterInvalid,
      'outputGroupList[0].isLiveEncrypt can be 1 on HLS groups',
    ],
    [
      'time shift without duration',
      (d) => ({ ...d, outputGroupList: [{ ...d.outputGroupList[0], timeShiftDuration: undefined }] }),
      Codes.parameterInvalid,
      'outputGroupList[0].timeShiftDuration is required when isTimeShift is 1',
    ],
    [
      'duration not a number',
      (d) => ({ ...d, outputGroupList: [{ ...d.outputGroupList[0], timeShiftDuration: 'two' }] }),
      Codes.parameterInvalid,
      'outputGroupList[0].timeShiftDuration must be an integer',
    ],
    [
      'flag 2',
      (d) => ({ ...d, outputGroupList: [{ ...d.outputGroupList[0], isRecord: '2' }] }),
      Codes.parameterInvalid,
      'outputGroupList[0].isRecord must be 0 or 1',
    ],
    [
      'no templates',
      (d) => ({ ...d, outputGroupList: [{ ...d.outputGroupList[0], outputTemplateList: [] }] }),
      Codes.parameterInvalid,
      'outputGroupList[0].outputTemplateList must hold at least one',
    ],
    [
      'templateId missing',
      (d) => ({ ...d, outputGroupList: [{ ...d.outputGroupList[0], outputTemplateList: [{ isDefault: '1' }] }] }),
      Codes.parameterMissing,
      'outputGroupList[0].outputTemplateList[0].templateId is required',
    ],
    [
      'isDefault missing',
      (d) => ({ ...d, outputGroupList: [{ ...d.outputGroupList[0], outputTemplateList: [{ templateId: hd.id }] }] }),
      Codes.parameterMissing,
      'outputGroupList[0].outputTemplateList[0].isDefault is required',
    ],
    [
      'two defaults',
      (d) => ({
        ...d,
        outputGroupList: [
          {
            ...d.outputGroupList[0],
            outputTemplateList: [
              { templateId: hd.id, isDefault: '1' },
              { templateId: sd.id, isDefault: '1' },
            ],
          },
        ],
      }),
      Codes.parameterInvalid,
      'at most one template with isDefault 1',
    ],
    [
      'unknown template',
      (d) => ({
        ...d,
        outputGroupList: [
          { ...d.outputGroupList[0], outputTemplateList: [{ templateId: 'f'.repeat(32), isDefault: '1' }] },
        ],
      }),
      Codes.liveTemplateNotExists,
      'outputGroupList[0].outputTemplateList[0].templateId',
    ],
    [
      'unknown logo',
      (d) => ({ ...d, outputGroupList: [{ ...d.outputGroupList[1], logoId: 'e'.repeat(32) }] }),
      Codes.liveLogoNotExists,
      'outputGroupList[0].logoId',
    ],
    ['unknown category', (d) => ({ ...d, type: 'd'.repeat(32) }), Codes.channelCategoryNotExists, 'type'],
    ['unknown category name', (d) => ({ ...d, typeName: 'Nope' }), Codes.channelCategoryNotExists, 'typeName Nope'],
    [
      'third-party URL on HLS',
      (d) => ({ ...d, outputGroupList: [{ ...d.outputGroupList[0], rtmpThirdPartyOutputUrl: 'rtmp://x/y' }] }),
      Codes.parameterInvalid,
      'rtmpThirdPartyOutputUrl applies to RTMP groups',
    ],
    [
      'group not an object',
      (d) => ({ ...d, outputGroupList: ['hls'] }),
      Codes.parameterInvalid,
      'outputGroupList[0] must be an object',
    ],
    ['name a number array', (d) => ({ ...d, name: ['x'] }), Codes.parameterInvalid, 'name must be text'],
  ];
  for (const [what, change, code, message] of rules) {
    it(`refuses ${what} with ${code}, naming the field, and creates nothing`, async () => {
      const before = await channelCount();
      await apiError(client.liveCreateChannel(change(definition()) as ChannelDefinition), code, message);
      assert.equal(await channelCount(), before);
    });
  }

  it('refuses a missing or non-object JSON body', async () => {
    const none = await raw(
      p,
      'liveCreateChannel',
      {},
      { method: 'POST', body: 'null', contentType: 'application/json' },
    );
    assert.equal(none.json.code, Codes.parameterMissing);
    assert.match(none.json.message, /channel definition/);
    const list = await raw(p, 'liveCreateChannel', {}, { body: '[1,2]', contentType: 'application/json' });
    assert.equal(list.json.code, Codes.parameterInvalid);
  });

  it('starts a channel (2/1, startTime, task ids) and stops it (1/1, endTime, empty task ids)', async () => {
    const created = await client.liveCreateChannel(definition());
    const started = await client.liveStartChannel(created.id);
    assert.equal(started.status, 2);
    assert.equal(started.streamStatus, 1);
    assert.ok(typeof started.startTime === 'number' && started.startTime >= created.createTime!);
    assert.equal(started.endTime, null);
    const [hls, rtmp] = started.outputGroupList;
    for (const g of started.outputGroupList) assert.match(g.taskId ?? '', HEX32);
    assert.match(hls.recordTaskId ?? '', HEX32, 'recording on: recordTaskId set');
    assert.match(hls.timeShiftTaskId ?? '', HEX32, 'time shift on: timeShiftTaskId set');
    assert.equal(rtmp.recordTaskId, null, 'recording off: no recordTaskId');
    assert.equal(typeof started.streamWidth, 'number');

    await apiError(client.liveStartChannel(created.id), Codes.channelStateConflict, 'already live');
    assert.equal((await client.liveGetChannelById(created.id)).status, 2);

    const stopped = await client.liveStopChannel(created.id);
    assert.equal(stopped.status, 1);
    assert.equal(stopped.streamStatus, 1);
    assert.ok(typeof stopped.endTime === 'number' && stopped.endTime >= started.startTime!);
    for (const g of stopped.outputGroupList) {
      assert.equal(g.taskId, '');
      assert.equal(g.timeShiftTaskId, '');
    }
    await apiError(client.liveStopChannel(created.id), Codes.channelStateConflict, 'not live');
    await apiError(
      client.liveStopChannel((await client.liveCreateChannel(definition())).id),
      Codes.channelStateConflict,
      'status 0',
    );

    const again = await client.liveStartChannel(created.id);
    assert.equal(again.status, 2);
    assert.equal(again.endTime, null);
  });

  it('answers 10907 for an unknown channel id', async () => {
    await apiError(client.liveGetChannelById('0'.repeat(32)), Codes.channelNotExists, 'id 000');
    await apiError(client.liveStartChannel('nope'), Codes.channelNotExists);
  });

  it('gives play addresses per output group, for several channels at once', async () => {
    const a = await client.liveCreateChannel(definition());
    const b = await client.liveCreateChannel({ ...definition(), outputGroupList: [definition().outputGroupList[1]] });
    const entries = await client.liveGetChannelsPlayUrl([a.id, b.id]);
    assert.equal(entries.length, 3);
    for (const e of entries) {
      assertFields(e, PLAY_URL_FIELDS, 'play url entry');
      for (const item of e.playUrlList) assertFields(item, PLAY_URL_ITEM_FIELDS, 'play url item');
    }
    const [hls, rtmpA, rtmpB] = entries;
    assert.equal(hls.channelId, a.id);
    assert.equal(hls.channelGroupType, 1);
    assert.equal(hls.playUrl, `${p.platform.baseUrl}/live/hls/${a.id}/${hls.channelGroupId}.m3u8`);
    assert.deepEqual(
      hls.playUrlList.map((i) => i.url),
      [1, 2].map((n) => `${p.platform.baseUrl}/live/hls/${a.id}/${hls.channelGroupId}-${n}.m3u8`),
    );
    assert.deepEqual(
      hls.playUrlList.map((i) => [i.width, i.height, i.videoBitrate, i.defaultVideo]),
      [
        [1280, 720, 2000, '1'],
        [640, 360, 600, '0'],
      ],
    );
    assert.equal(rtmpA.channelGroupType, 2);
    assert.match(rtmpA.playUrl, /^rtmp:\/\//);
    assert.equal(rtmpB.channelId, b.id);
    await apiError(
      client.liveGetChannelsPlayUrl([a.id, 'f'.repeat(32)]),
      Codes.channelNotExists,
      'channelId lists ffff',
    );
  });

  it('updates a channel: groups with an id keep id and addresses, groups without are replaced', async () => {
    const ch = await client.liveCreateChannel(definition());
    const [hls, rtmp] = ch.outputGroupList;
    const listed = async (): Promise<unknown> =>
      (await client.liveGetChannelsByPage({ number: 1000 })).channels.find((c) => c.id === ch.id);
    assert.deepEqual(await listed(), ch, 'the list answers the channel as created');
    const updated = await client.liveUpdate({
      id: ch.id,
      name: 'Renamed',
      signalType: '2',
      pullStream: 'srt://192.0.2.7:9000',
      outputGroupList: [
        { id: hls.id, protocolType: 1, outputTemplateList: [{ templateId: hd.id, isDefault: '1' }] },
        { protocolType: 2, outputTemplateList: [{ templateId: sd.id, isDefault: '1' }] },
      ],
    });
    assert.equal(updated.name, 'Renamed');
    assert.deepEqual(await listed(), updated, 'the list answers the channel as updated, not as first listed');
    assert.equal(updated.signalType, '2');
    assert.equal(updated.pullStream, 'srt://192.0.2.7:9000');
    assert.equal(updated.outputGroupList[0].id, hls.id);
    assert.equal(updated.outputGroupList[0].liveOutputs[0].publicOutputUrl, hls.liveOutputs[0].publicOutputUrl);
    assert.equal(updated.outputGroupList[0].liveOutputs.length, 1);
    assert.equal(updated.outputGroupList[0].isTimeShift, '0');
    assert.notEqual(updated.outputGroupList[1].id, rtmp.id);
    assert.notEqual(
      (await client.liveGetChannelsPlayUrl(ch.id))[1].playUrl,
      `rtmp://127.0.0.1:1935/live/${ch.stream}_${rtmp.id}`,
    );
    assert.equal(updated.createTime, ch.createTime);
    assert.ok(updated.updateTime);
    await apiError(
      client.liveUpdate({
        ...definition(),
        id: ch.id,
        outputGroupList: [{ ...definition().outputGroupList[0], id: 'a'.repeat(32) }],
      }),
      Codes.parameterInvalid,
      'outputGroupList[0].id',
    );
    await client.liveStartChannel(ch.id);
    await apiError(client.liveUpdate({ ...definition(), id: ch.id }), Codes.channelStateConflict, 'is live');
    assert.equal((await client.liveGetChannelById(ch.id)).name, 'Renamed');
  });

  it('deletes channels all or nothing, refusing a live one', async () => {
    const a = await client.liveCreateChannel(definition());
    const b = await client.liveCreateChannel(definition());
    await client.liveStartChannel(b.id);
    await apiError(client.liveDelete([a.id, b.id]), Codes.channelStateConflict, `channel ${b.id} is live`);
    await apiError(client.liveDelete([a.id, '9'.repeat(32)]), Codes.channelNotExists, 'ids lists 999');
    assert.equal((await client.liveGetChannelById(a.id)).id, a.id);
    await client.liveStopChannel(b.id);
    await client.liveDelete([a.id, b.id]);
    await apiError(client.liveGetChannelById(a.id), Codes.channelNotExists);
    await apiError(client.liveGetChannelById(b.id), Codes.channelNotExists);
  });

  it('keeps a valid state under parallel starts and stops of one channel', async () => {
    const ch = await client.liveCreateChannel(definition());
    const calls = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0 ? client.liveStartChannel(ch.id) : client.liveStopChannel(ch.id),
    );
    const outcomes = await Promise.allSettled(calls);
    const ok = outcomes
      .filter((o): o is PromiseFulfilledResult<Channel> => o.status === 'fulfilled')
      .map((o) => o.value);
    for (const o of outcomes) {
      if (o.status === 'rejected') assert.equal((o.reason as { code?: number }).code, Codes.channelStateConflict);
    }
    // Successful answers alternate start, stop, start... so the final state follows their count.
    const starts = ok.filter((c) => c.status === 2).length;
    const stops = ok.filter((c) => c.status === 1).length;
    assert.ok(starts - stops === 0 || starts - stops === 1, `${starts} starts, ${stops} stops`);
    const final = await client.liveGetChannelById(ch.id);
    assert.equal(final.status, starts > stops ? 2 : 1);
    for (const g of final.outputGroupList) {
      if (final.status === 2) assert.match(g.taskId ?? '', HEX32);
      else assert.equal(g.taskId, '');
    }
  });
});
