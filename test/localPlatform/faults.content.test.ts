/**
 * Content faults on the demo's live test pattern, over real HTTP: each fault is injected through `/_local/faults`
 * and the inspector (src/inspector inspect) run on the served address reports the finding that detects it
 * ("inject X, expect Y"; the table in src/localPlatform/README.md). Without a fault the same inspection reports
 * none of them, and the master declares CODECS and FRAME-RATE (no HLS-CODECS-MISSING).
 */
import * as assert from 'node:assert/strict';
import type { PlatformClient } from '../../src/api/client';
import type { FindingCode } from '../../src/inspector/findings';
import { inspect } from '../../src/inspector/inspect';
import type { Report } from '../../src/inspector/report';
import { nodeFetch } from '../../src/inspector/source';
import { DEMO_NAMES } from '../../src/localPlatform/demo/demo';
import { eventually } from '../helpers/eventually';
import { clearFaults, inject } from './faultsHelpers';
import { TestPlatform } from './harness';
import { httpGet, loadTools, startEncryptedPattern } from './live/media';

const PATTERN = DEMO_NAMES.channels.pattern;

/** The codes the content faults produce: none of them on the stream as served without a fault. */
const FAULT_CODES: FindingCode[] = [
  'HLS-LIVE-PLAYLIST-STALE',
  'HLS-MEDIA-SEQUENCE-REGRESSED',
  'HLS-TIMESTAMP-JUMP',
  'HLS-EXTINF-MISMATCH',
  'HLS-BANDWIDTH-MISMATCH',
  'HLS-SEGMENT-NOT-IDR-START',
  'HLS-CODECS-MISSING',
  'HLS-CODECS-MISMATCH',
  'HLS-FRAME-RATE-MISSING',
  'HLS-AUDIO-GAP',
];

function codes(report: Report): string[] {
  return report.findings.map((f) => f.code);
}

describe('local platform: stream content faults, seen by the inspector (real ffmpeg)', function () {
  this.timeout(120_000);
  let p: TestPlatform;
  let client: PlatformClient;
  let master: string;

  before(async () => {
    await loadTools();
    p = await TestPlatform.start({ demo: true, live: { npmFallback: true, rtmpPort: 0 } });
    client = p.client();
    const channels = (await client.liveGetChannelsByPage({ number: 50 })).channels;
    const pattern = channels.find((c) => c.name === PATTERN)!;
    const [urls] = await client.liveGetChannelsPlayUrl(pattern.id);
    master = urls.playUrl;
    await eventually('the test pattern plays', async () => (await httpGet(master)).status === 200, 60_000);
  });
  after(async () => {
    await p?.close();
  });
  afterEach(async () => {
    await clearFaults(p.platform.baseUrl);
  });

  const inspectLive = (liveSeconds: number): Promise<Report> =>
    inspect(master, { fetch: nodeFetch, liveSeconds, deadlineSeconds: liveSeconds + 40 });

  it('without a fault: none of the faults findings, and the master declares CODECS and FRAME-RATE', async () => {
    const text = (await httpGet(master)).body.toString();
    // 854x480 at 25 fps is H.264 level 3.0 (40,500 macroblocks/s); x264 High profile; AAC-LC audio.
    assert.match(text, /FRAME-RATE=25\.000,CODECS="avc1\.64001e,mp4a\.40\.2"/);
    const found = codes(await inspectLive(6));
    for (const code of FAULT_CODES) assert.ok(!found.includes(code), `${code} without a fault: ${found.join(', ')}`);
  });

  const cases: { fault: Record<string, unknown>; expect: FindingCode; liveSeconds: number }[] = [
    { fault: { fault: 'playlist-stall' }, expect: 'HLS-LIVE-PLAYLIST-STALE', liveSeconds: 6 },
    { fault: { fault: 'sequence-regress', by: 3 }, expect: 'HLS-MEDIA-SEQUENCE-REGRESSED', liveSeconds: 6 },
    { fault: { fault: 'segment-drop', segmentIndex: 2 }, expect: 'HLS-TIMESTAMP-JUMP', liveSeconds: 0 },
    { fault: { fault: 'extinf-lie', factor: 0.5 }, expect: 'HLS-EXTINF-MISMATCH', liveSeconds: 0 },
    { fault: { fault: 'bandwidth-lie', factor: 0.25 }, expect: 'HLS-BANDWIDTH-MISMATCH', liveSeconds: 0 },
    {
      fault: { fault: 'timestamp-jump', mediaSequence: { every: 3 }, seconds: 10 },
      expect: 'HLS-TIMESTAMP-JUMP',
      liveSeconds: 0,
    },
    { fault: { fault: 'no-idr-start' }, expect: 'HLS-SEGMENT-NOT-IDR-START', liveSeconds: 0 },
    { fault: { fault: 'audio-gap', ms: 500 }, expect: 'HLS-AUDIO-GAP', liveSeconds: 0 },
  ];
  for (const c of cases) {
    it(`${String(c.fault.fault)}: the inspector reports ${c.expect}`, async () => {
      await inject(p.platform.baseUrl, [{ target: PATTERN, ...c.fault }]);
      const found = codes(await inspectLive(c.liveSeconds));
      assert.ok(found.includes(c.expect), `${c.expect} expected, found: ${found.join(', ')}`);
    });
  }

  it('key-404 on an encrypted live channel: its key answers 404 and the inspector reports HLS-KEY-UNAVAILABLE', async () => {
    const { channelId, master: encrypted, child, playlist } = await startEncryptedPattern(client, 'Encrypted live');
    try {
      const keyUrl = new URL(/#EXT-X-KEY:METHOD=AES-128,URI="([^"]+)"/.exec(playlist)![1]!, child).toString();
      const keyFound = async (): Promise<string[]> =>
        codes(await inspect(encrypted, { fetch: nodeFetch, liveSeconds: 0, deadlineSeconds: 40 }));
      assert.equal((await httpGet(keyUrl)).status, 200);
      assert.ok(!(await keyFound()).includes('HLS-KEY-UNAVAILABLE'), 'the key answers without the fault');
      await inject(p.platform.baseUrl, [{ target: 'Encrypted live', fault: 'key-404' }]);
      assert.equal((await httpGet(keyUrl)).status, 404);
      assert.ok((await keyFound()).includes('HLS-KEY-UNAVAILABLE'));
    } finally {
      await client.liveStopChannel(channelId);
    }
  });

  it('a fault turned off while the channel is live: the stream is served as before', async () => {
    await inject(p.platform.baseUrl, [{ target: PATTERN, fault: 'no-idr-start' }]);
    assert.ok(codes(await inspectLive(0)).includes('HLS-SEGMENT-NOT-IDR-START'));
    await clearFaults(p.platform.baseUrl);
    assert.ok(!codes(await inspectLive(0)).includes('HLS-SEGMENT-NOT-IDR-START'));
  });
});
