/**
 * Tooltip stills: the workbench shows only https: and data: pictures in a hover, and the local platform serves
 * covers over http:, so the tooltip embeds the picture it downloaded (bounded, cached), or has none.
 */
import * as assert from 'node:assert/strict';
import { PlatformClient } from '../../src/api/client';
import type { Video } from '../../src/api/types';
import { ProxyFetch } from '../../src/app/inspect/proxyFetch';
import { VideoNode } from '../../src/app/tree/nodes';
import { STILL_LIMITS, Stills, type StillGet } from '../../src/app/tree/stills';
import { videoView } from '../../src/app/tree/videoPresentation';
import { eventually } from '../helpers/eventually';
import { removeDir, tempDir } from '../localPlatform/harness';
import { makeClip, mediaTools, uploadFile } from '../localPlatform/media/helpers';
import { createHarness, type Harness } from './helpers/harness';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from './helpers/platform';

const EMBEDDED = /\n\n!\[still\]\(data:image\/jpeg;base64,([A-Za-z0-9+/=]+)\|width=240\)$/;

describe('Tooltip stills (real media)', function () {
  this.timeout(90_000);
  let dir: string | undefined;
  let platform: TestPlatform | undefined;
  let client: PlatformClient;
  let harness: Harness;
  let video: Video;
  const fetcher = new ProxyFetch(() => ({}));
  let gets = 0;
  const get: StillGet = (url, signal) => {
    gets++;
    return fetcher.get(url, signal);
  };

  before(async function () {
    const tools = await mediaTools();
    if (!tools) this.skip();
    dir = await tempDir();
    const clip = await makeClip(tools, dir, 'still.mp4', 2, 320, 180);
    platform = await startTestPlatform({ media: { npmFallback: true } });
    client = new PlatformClient({ baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
    const token = await client.getToken();
    const answer = await uploadFile(platform.platform.baseUrl, token.accessToken, clip, { isTranscoder: '0' });
    assert.equal(answer.code, 0, answer.message);
    const id = answer.result![0]!.videoId;
    video = await eventually('the cover to be listed', async () => {
      const current = await client.getVideoInfo(id);
      return current.cover ? current : undefined;
    });
    harness = await createHarness({
      account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
    });
  });
  after(async () => {
    await harness?.dispose();
    await client?.close();
    await fetcher.close();
    await platform?.close();
    if (dir) await removeDir(dir);
  });

  it('embeds the cover the platform serves over http: as a data: picture, the bytes it serves', async () => {
    assert.match(video.cover, /^http:\/\/127\.0\.0\.1:\d+\//);
    const node = (await harness.videos.getChildren()).find(
      (candidate): candidate is VideoNode => candidate instanceof VideoNode && candidate.video.id === video.id,
    );
    assert.ok(node, 'the uploaded video is listed');
    const view = node.view();
    assert.equal(view.still, video.cover);
    assert.doesNotMatch(
      view.tooltip ?? '',
      /!\[still\]|http:\/\/[^`]*cover/,
      'no http: picture a hover would break on',
    );

    const tooltip = await harness.ctx.stills.tooltip(view);
    const embedded = EMBEDDED.exec(tooltip ?? '');
    assert.ok(embedded, tooltip?.slice(-200));
    assert.ok(tooltip!.startsWith(view.tooltip!), 'the text of the tooltip first, then the picture');
    const served = Buffer.from(await (await fetch(video.cover)).arrayBuffer());
    assert.deepEqual(Buffer.from(embedded[1]!, 'base64'), served);
    assert.deepEqual([...served.subarray(0, 2)], [0xff, 0xd8], 'a JPEG');
  });

  it('downloads a picture once while it is remembered, and again after', async () => {
    let now = 0;
    const stills = new Stills(get, STILL_LIMITS, () => now);
    gets = 0;
    const first = await stills.dataUri(video.cover);
    assert.match(first ?? '', /^data:image\/jpeg;base64,/);
    assert.equal(await stills.dataUri(video.cover), first);
    assert.equal(gets, 1, 'the second hover is answered from the cache');
    now += STILL_LIMITS.ttlMs;
    await stills.dataUri(video.cover);
    assert.equal(gets, 2, 'a live thumbnail changes: read again after a while');
  });

  it('keeps only the most recently used pictures', async () => {
    const stills = new Stills(get, { ...STILL_LIMITS, entries: 2 });
    const [a, b, c] = ['?a', '?b', '?c'].map((query) => `${video.cover}${query}`);
    gets = 0;
    await stills.dataUri(a!);
    await stills.dataUri(b!);
    await stills.dataUri(a!);
    await stills.dataUri(c!);
    assert.equal(gets, 3);
    await stills.dataUri(a!);
    assert.equal(gets, 3, 'a was used last but one: kept');
    await stills.dataUri(b!);
    assert.equal(gets, 4, 'b was the least recently used: dropped');
  });

  it('shows no picture when it is too large, not a picture, or not answered', async () => {
    const served = (await (await fetch(video.cover)).arrayBuffer()).byteLength;
    const small = new Stills(get, { ...STILL_LIMITS, maxBytes: served - 1 });
    const view = { ...videoView(video) };
    assert.equal(await small.tooltip(view), view.tooltip, 'larger than the bound: no picture');
    const stills = new Stills(get, { ...STILL_LIMITS, timeoutMs: 2_000 });
    const page = `${platform!.platform.baseUrl}/player?src=x`;
    assert.equal(await stills.dataUri(page), undefined, 'a page is no picture');
    assert.equal(await stills.dataUri(`${platform!.platform.baseUrl}/vod/nothing/cover.jpg`), undefined, 'a 404');
    // A port nobody listens on (the platform's, closed below would race other tests): 1 is never served here.
    assert.equal(await stills.dataUri('http://127.0.0.1:1/cover.jpg'), undefined, 'unreachable');
  });
});
