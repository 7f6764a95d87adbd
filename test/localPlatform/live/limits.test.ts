/**
 * The limit on live channels counts only channels whose ffmpeg runs (a source pushed or pulled): a pushed
 * channel with no encoder and the looped test pattern run nothing and do not count, and a pushed channel's
 * ladder runs only while its encoder is connected.
 */
import * as assert from 'node:assert/strict';
import type { PlatformClient } from '../../../src/api/client';
import { Codes } from '../../../src/api/errorCodes';
import type { Channel, ChannelDefinition } from '../../../src/api/types';
import { apiError, TestPlatform } from '../harness';
import { eventually } from '../../helpers/eventually';
import { commandsWith, httpGet, loadTools, probeUrl, pushTestPattern, type Encoder } from './media';

/** Ladder processes of a channel (its encoder's command line names the stream too, without a filter graph). */
const ladders = (stream: string): string[] => commandsWith(stream).filter((c) => c.includes('-filter_complex'));

describe('local platform: the live limit counts channels with a source (real ffmpeg)', function () {
  this.timeout(90_000);
  let p: TestPlatform;
  let client: PlatformClient;
  let templateId = '';
  const encoders: Encoder[] = [];

  before(async () => {
    await loadTools();
    p = await TestPlatform.start({ live: { npmFallback: true, rtmpPort: 0, maxLiveChannels: 1 } });
    client = p.client();
    templateId = (
      await client.liveTemplateCreate({ displayName: 'T', videoWidth: 160, videoHeight: 90, videoBitrate: 150 })
    ).id;
  });
  after(async () => {
    for (const e of encoders) await e.kill();
    await p.close();
  });

  const create = (name: string, fields: Partial<ChannelDefinition>, protocolType: 1 | 2 = 1): Promise<Channel> =>
    client.liveCreateChannel({
      name,
      signalType: '1',
      outputGroupList: [{ protocolType, outputTemplateList: [{ templateId, isDefault: '1' }] }],
      ...fields,
    });
  const get = (id: string): Promise<Channel> => client.liveGetChannelById(id);

  it('refuses a second pulled source at a limit of 1, starts the looped pattern and a pushed channel beside it', async () => {
    // An RTMP group: the pattern goes through a relay and a ladder (not looped).
    const relayed = await create('Relayed', { signalType: '2', pullStream: 'testsrc://160x90' }, 2);
    const second = await create('Second', { signalType: '2', pullStream: 'testsrc://160x90' }, 2);
    const looped = await create('Looped', { signalType: '2', pullStream: 'testsrc://160x90' });
    const pushed = await create('Pushed', {});
    await client.liveStartChannel(relayed.id);
    await apiError(client.liveStartChannel(second.id), Codes.channelStateConflict, 'the limit is 1');
    assert.equal((await get(second.id)).status, 0, 'nothing changed');
    await client.liveStartChannel(looped.id);
    await client.liveStartChannel(pushed.id);
    await eventually(
      'looped pattern live',
      async () => ((await get(looped.id)).streamStatus === 1 ? true : undefined),
      30_000,
    );
    await eventually(
      'pushed channel ready',
      async () => ((await get(pushed.id)).status === 2 ? true : undefined),
      30_000,
    );
    assert.deepEqual(ladders(pushed.stream), [], 'no source, no ladder');

    // At the limit, the pushed channel's encoder is turned away and no ladder starts.
    const refused = pushTestPattern(pushed.pushUrl, 10);
    encoders.push(refused);
    assert.notEqual(await refused.exited, 0, 'the push beyond the limit is refused');
    assert.equal((await get(pushed.id)).streamStatus, 2);
    assert.deepEqual(ladders(pushed.stream), []);

    // Room again once the relayed channel stops: the push is taken and its ladder runs.
    await client.liveStopChannel(relayed.id);
    const encoder = pushTestPattern(pushed.pushUrl, 12);
    encoders.push(encoder);
    await eventually(
      'source present',
      async () => ((await get(pushed.id)).streamStatus === 1 ? true : undefined),
      30_000,
    );
    // The ladder starts once the incoming stream is probed.
    await eventually('one ladder', async () => (ladders(pushed.stream).length === 1 ? true : undefined), 20_000);
    const [urls] = await client.liveGetChannelsPlayUrl(pushed.id);
    await eventually('playlist', async () => ((await httpGet(urls.playUrl)).status === 200 ? true : undefined), 20_000);
    const probed = await probeUrl(urls.playUrl);
    assert.equal(probed.streams.find((s) => s.codec_type === 'video')?.height, 90);

    // The source goes: the ladder goes with it; the channel stays started, waiting for its encoder.
    await encoder.kill();
    await eventually('no source', async () => ((await get(pushed.id)).streamStatus === 2 ? true : undefined), 15_000);
    await eventually('ladder gone', async () => (ladders(pushed.stream).length === 0 ? true : undefined), 10_000);
    assert.equal((await get(pushed.id)).status, 2);
    await client.liveStopChannel(pushed.id);
    await client.liveStopChannel(looped.id);
  });

  it('leaves no relay running for a pulled channel stopped right after its start', async () => {
    // The start prepares the channel's folder and record before its relay: a stop meanwhile must still stop it.
    const quick = await create('Quick', { signalType: '2', pullStream: 'testsrc://160x90' }, 2);
    for (let round = 0; round < 3; round++) {
      await client.liveStartChannel(quick.id);
      await client.liveStopChannel(quick.id);
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));
    assert.deepEqual(commandsWith(`/live/${quick.stream}?`), [], 'no relay after the stop');
    assert.equal((await get(quick.id)).status, 1);
  });
});
