import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TranscodedStream } from '../../src/api/types';
// The command table's handlers (loaded on first use: src/app/commands/inspectCommands.ts), as the user runs them.
import { inspectStream, openPlayerInBrowser, previewStream } from '../../src/app/commands/inspectCommands';
import type { InspectSession } from '../../src/app/inspect/inspectStream';
import { ChannelNode, RenditionNode, VideoNode } from '../../src/app/tree/nodes';
import { readMedia } from '../../src/media/read';
import type { MediaTools } from '../../src/media/tools';
import { ForwardProxy } from '../api/forwardProxy';
import { eventually } from '../helpers/eventually';
import { edit, makeLadder, realTools, serve } from '../inspector/golden';
import { createHarness, type Harness, type MemoryPanel } from './helpers/harness';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from './helpers/platform';
import { choose, type } from './helpers/scriptedUi';

/** The nonce of a page's Content-Security-Policy, which every script and style of the page must carry. */
function cspOf(html: string): string {
  return (/http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '').replace(/&#39;/g, "'");
}

/** A plain GET with node:http: status, content type and text. */
function getPage(url: string | URL): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    httpGet(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type'] ?? ''),
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    }).on('error', reject);
  });
}

describe('Inspect Stream, Preview and the browser player (through compose(), golden streams made with ffmpeg)', function () {
  this.timeout(120_000);
  let tools: MediaTools;
  let tmp: string;
  let golden: Awaited<ReturnType<typeof serve>>;
  let test: TestPlatform;
  let harness: Harness;
  const sessions: InspectSession[] = [];

  before(async () => {
    tools = await realTools();
    tmp = mkdtempSync(join(tmpdir(), 'vpt-inspect-app-'));
    for (const name of ['clean', 'overstated', 'live']) mkdirSync(join(tmp, name));
    await makeLadder(tools, join(tmp, 'clean'), { variants: 2, seconds: 4 });
    await makeLadder(tools, join(tmp, 'overstated'), { variants: 2, seconds: 4 });
    // The first variant declares ten times what it carries.
    edit(join(tmp, 'overstated', 'master.m3u8'), (text) =>
      text.replace(/BANDWIDTH=(\d+)/, (_, n: string) => `BANDWIDTH=${Number(n) * 10}`),
    );
    // A live playlist that never advances: no ENDLIST, not VOD.
    await makeLadder(tools, join(tmp, 'live'), { variants: 1, seconds: 4 });
    edit(join(tmp, 'live', 'v0.m3u8'), (text) =>
      text.replace('#EXT-X-ENDLIST\n', '').replace('#EXT-X-PLAYLIST-TYPE:VOD\n', ''),
    );
    golden = await serve(tmp);
    test = await startTestPlatform();
  });
  after(async () => {
    await golden?.close();
    await test?.close();
    rmSync(tmp, { recursive: true, force: true });
  });
  beforeEach(async () => {
    harness = await createHarness({
      account: { baseUrl: test.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
      storageDir: mkdtempSync(join(tmp, 'storage-')),
      // The ffmpeg the tests found, as a user's setting names it (the harness defaults to none); with
      // VIDEO_PLATFORM_NO_SYSTEM_FFMPEG=1 the npm packages' folder.
      ffmpegPath: dirname(tools.ffmpeg),
    });
  });
  afterEach(async () => {
    for (const session of sessions.splice(0)) session.panel.dispose();
    await harness.dispose();
  });

  const inspectFromPalette = async (address: string): Promise<{ session: InspectSession; panel: MemoryPanel }> => {
    harness.ui.script(choose('Enter an address'), type(address));
    const session = await harness.run(inspectStream);
    assert.ok(session, `no report: ${harness.ui.errors.join('; ')}`);
    sessions.push(session);
    return { session, panel: harness.panels.opened.at(-1)! };
  };

  it('from the palette: asks the address, shows the variants table and no errors for a clean ladder, behind a nonce-only CSP', async () => {
    const address = `${golden.url}/clean/master.m3u8`;
    const { panel } = await inspectFromPalette(address);
    assert.deepEqual(harness.ui.errors, []);
    assert.deepEqual(harness.ui.progress, ['Inspecting master.m3u8']);
    assert.equal(panel.options.kind, 'report');
    assert.match(panel.html, /v0\.m3u8/);
    assert.match(panel.html, /v1\.m3u8/);
    assert.match(panel.html, /no errors/);
    assert.match(panel.html, /320x180/);
    assert.match(panel.html, /id="rerun"/);
    // A still per variant.
    assert.equal(panel.html.match(/<img class="thumb" alt="" src="data:image\/jpeg;base64,/g)?.length, 2);
    const csp = cspOf(panel.html);
    assert.match(csp, /default-src 'none'/);
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce, csp);
    assert.ok(panel.html.includes(`<script nonce="${nonce}">`));

    // The address is remembered: next time the palette offers it.
    harness.ui.script(choose(address));
    const again = await harness.run(inspectStream);
    assert.ok(again);
    sessions.push(again);
    const offered = harness.ui.asked.at(-1)?.items?.map((item) => item.label) ?? [];
    assert.ok(offered.includes(address), offered.join(' | '));
  });

  it('shows a defect with its code and clause, and Re-run reads the stream again', async () => {
    const { session, panel } = await inspectFromPalette(`${golden.url}/overstated/master.m3u8`);
    assert.ok(
      session.report?.findings.some(
        (f) => f.code === 'HLS-BANDWIDTH-OVERSTATED' || f.code === 'HLS-BANDWIDTH-MISMATCH',
      ),
    );
    assert.match(panel.html, /HLS-BANDWIDTH-(OVERSTATED|MISMATCH)/);
    assert.match(panel.html, /RFC 8216|Apple HLS Authoring Spec/);
    // Fixed on the server, then the page's Re-run button.
    edit(join(tmp, 'overstated', 'master.m3u8'), (text) =>
      text.replace(/BANDWIDTH=(\d+)/, (_, n: string) => `BANDWIDTH=${Number(n) / 10}`),
    );
    panel.post({ type: 'rerun' });
    await eventually('the second run', () => session.runs === 2);
    assert.doesNotMatch(panel.html, /HLS-BANDWIDTH-OVERSTATED/);
  });

  it('a rendition: its own address, with a contact sheet of its pictures', async () => {
    const video = (await harness.videos.getChildren()).find(
      (node): node is VideoNode => node instanceof VideoNode && node.video.transcodedVideoList.length > 0,
    )!;
    const stream = { ...video.video.transcodedVideoList[0]!, name: '180p', hlsUrl: `${golden.url}/clean/v0.m3u8` };
    const session = await harness.run(inspectStream, { node: new RenditionNode(video, stream as TranscodedStream) });
    assert.ok(session, harness.ui.errors.join('; '));
    sessions.push(session);
    const panel = harness.panels.opened.at(-1)!;
    assert.match(
      panel.html,
      /<h2>Contact sheet<\/h2>\s*<img class="sheet" alt="contact sheet" src="data:image\/png;base64,/,
    );
    assert.equal(session.report?.kind, 'hls-media');
  });

  it('a transcoded video: its whole HLS ladder, from a master written from its renditions, removed when the panel closes', async () => {
    const listed = (await harness.videos.getChildren()).find(
      (node): node is VideoNode => node instanceof VideoNode && node.video.transcodedVideoList.length > 0,
    )!;
    const rendition = (index: number, width: number, height: number, kbps: number): TranscodedStream => ({
      ...listed.video.transcodedVideoList[0]!,
      name: `${height}p`,
      hlsUrl: `${golden.url}/clean/v${index}.m3u8`,
      mp4Url: null,
      videoWidth: width,
      videoHeight: height,
      videoBitrate: kbps,
      audioBitrate: 48_000,
    });
    // The record as the platform lists it, its renditions' playlists the golden ladder's (real media over HTTP).
    const video = { ...listed.video, transcodedVideoList: [rendition(1, 256, 144, 200), rendition(0, 320, 180, 300)] };
    const session = await harness.run(inspectStream, { node: new VideoNode(video) });
    assert.ok(session, harness.ui.errors.join('; '));
    sessions.push(session);
    assert.equal(session.report?.kind, 'hls-master');
    assert.deepEqual(
      session.report.variants.map((variant) => variant.name),
      [`${golden.url}/clean/v0.m3u8`, `${golden.url}/clean/v1.m3u8`],
      'every rendition, highest first',
    );
    const panel = harness.panels.opened.at(-1)!;
    assert.match(
      panel.html,
      /The platform lists no master playlist for a video: this report reads one written from its 2 HLS renditions/,
    );
    const master = fileURLToPath(session.target.address);
    assert.match(
      readFileSync(master, 'utf8'),
      /^#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=\d+,RESOLUTION=320x180\n/,
    );
    panel.dispose();
    await eventually('the temporary master to be removed', () => !existsSync(master));
  });

  it('live: runs again while the panel is open, and stops when it is closed', async () => {
    harness.ctx.inspection.live.watchSeconds = 1;
    harness.ctx.inspection.live.refreshMs = 100;
    const { session, panel } = await inspectFromPalette(`${golden.url}/live/v0.m3u8`);
    assert.equal(session.report?.live, true);
    assert.match(panel.html, /Live: inspected again every 0\.1 s while this panel is open/);
    await eventually('a live refresh', () => session.runs >= 2);
    panel.dispose();
    assert.equal(session.liveScheduled, false);
    assert.equal(session.disposed, true);
  });

  it('Open Player in Browser on a channel: its HLS master from the play-address operation, in the page the local platform serves', async () => {
    const channel = (await harness.channels.getChildren())
      .flatMap((node) => (node instanceof ChannelNode ? [node] : []))
      .find((node) => node.channel.outputGroupList.some((group) => group.protocolType === 1));
    assert.ok(channel, 'a demo channel with an HLS group');
    const page = await harness.run(openPlayerInBrowser, { node: channel });
    assert.ok(page, harness.ui.errors.join('; '));
    assert.deepEqual(harness.ui.opened, [page]);
    const src = new URL(page).searchParams.get('src') ?? '';
    assert.match(src, new RegExp(`/live/hls/${channel.channel.id}/[^/]+\\.m3u8$`));
    // The page is served by the local platform, with hls.js from the installed package.
    const { text: html } = await getPage(page);
    assert.ok(html.includes(JSON.stringify(src)), 'the address as JSON');
    assert.match(html, /<script src="\/player\/hls\.js"><\/script>/);
    const script = await getPage(new URL('/player/hls.js', page));
    assert.equal(script.status, 200);
    assert.match(script.type, /javascript/);
    assert.ok(script.text.length > 100_000, 'the hls.js build');
    const refused = await getPage(new URL('/player?src=javascript:alert(1)', page));
    assert.equal(refused.status, 400);

    // A video: its best rendition from getTranscodedVideos.
    const video = (await harness.videos.getChildren()).find(
      (node): node is VideoNode => node instanceof VideoNode && node.video.status === 2,
    )!;
    const videoPage = await harness.run(openPlayerInBrowser, { node: video });
    assert.ok(videoPage, harness.ui.errors.join('; '));
    const videoSrc = new URL(videoPage).searchParams.get('src') ?? '';
    assert.ok(
      video.video.transcodedVideoList.some((stream) => stream.hlsUrl === videoSrc),
      `${videoSrc} is one of the video's HLS renditions`,
    );
  });

  it('Preview makes an H.264 + MP3 file, plays it in a webview, and offers the browser player when the webview cannot play it', async () => {
    const video = (await harness.videos.getChildren()).find(
      (node): node is VideoNode => node instanceof VideoNode && node.video.transcodedVideoList.length > 0,
    )!;
    const stream = { ...video.video.transcodedVideoList[0]!, name: '180p', hlsUrl: `${golden.url}/clean/v0.m3u8` };
    // The webview answers as one without MP3 would.
    harness.panels.onLoad = (panel) =>
      panel.post({ type: 'canPlay', h264: 'probably', mp3: '', aac: '', mediaSource: false });
    harness.ui.messageChoice = 'Open Player in Browser';
    const result = await harness.run(previewStream, { node: new RenditionNode(video, stream as TranscodedStream) });
    assert.ok(result, harness.ui.errors.join('; '));
    const read = await readMedia(result.file);
    const codecs = [`audio:${read.audio?.codec}`, `video:${read.video?.codec}`];
    assert.deepEqual(codecs, ['audio:mp3', 'video:h264']);
    const panel = harness.panels.opened.at(-1)!;
    assert.equal(panel.options.kind, 'preview');
    assert.ok(panel.html.includes(`src="${panel.resource(result.file)}"`));
    assert.match(cspOf(panel.html), /media-src https:\/\/webview\.test/);
    assert.match(harness.ui.warnings.join('\n'), /cannot play MP3 audio/);
    assert.equal(harness.ui.opened.length, 1);
    assert.equal(new URL(harness.ui.opened[0]!).searchParams.get('src'), stream.hlsUrl);
    panel.dispose();
  });

  it('through the proxy settings: every read of the stream goes through the configured proxy', async () => {
    const proxy = await ForwardProxy.start();
    const proxied = await createHarness({
      clientOptions: { proxy: proxy.url, noProxy: '' },
      ffmpegPath: dirname(tools.ffmpeg),
    });
    try {
      proxied.ui.script(choose('Enter an address'), type(`${golden.url}/clean/master.m3u8`));
      const session = await proxied.run(inspectStream);
      assert.ok(session, proxied.ui.errors.join('; '));
      session.panel.dispose();
      const targets = proxy.seen.map((request) => request.target);
      assert.ok(targets.includes(`${golden.url}/clean/master.m3u8`), targets.join(' '));
      assert.ok(
        targets.some((target) => target.endsWith('.ts')),
        'segments too',
      );
    } finally {
      await proxied.dispose();
      await proxy.close();
    }
  });

  it('through the proxy settings also where ffmpeg reads the stream itself (contact sheet, preview), and not for an exception', async () => {
    const proxy = await ForwardProxy.start();
    const account = { baseUrl: test.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY };
    const byFfmpeg = (): string[] =>
      proxy.seen.filter((request) => /Lavf/.test(String(request.headers['user-agent']))).map((r) => r.target);
    // The platform itself is reached directly; the golden streams' host is not an exception.
    const proxied = await createHarness({
      account,
      clientOptions: { proxy: proxy.url, noProxy: [new URL(test.platform.baseUrl).host] },
      storageDir: mkdtempSync(join(tmp, 'storage-')),
      ffmpegPath: dirname(tools.ffmpeg),
    });
    try {
      const video = (await proxied.videos.getChildren()).find(
        (node): node is VideoNode => node instanceof VideoNode && node.video.transcodedVideoList.length > 0,
      )!;
      const address = `http://localhost:${new URL(golden.url).port}/clean/v1.m3u8`;
      const stream = { ...video.video.transcodedVideoList[0]!, name: '180p', hlsUrl: address };
      const node = new RenditionNode(video, stream as TranscodedStream);
      const session = await proxied.run(inspectStream, { node });
      assert.ok(session, proxied.ui.errors.join('; '));
      session.panel.dispose();
      assert.match(proxied.panels.opened.at(-1)!.html, /<h2>Contact sheet<\/h2>/);
      assert.ok(byFfmpeg().includes(address), `ffmpeg's reads through the proxy: ${byFfmpeg().join(' ')}`);
      const before = byFfmpeg().length;
      proxied.panels.onLoad = (panel) =>
        panel.post({ type: 'canPlay', h264: 'probably', mp3: 'probably', aac: '', mediaSource: false });
      const preview = await proxied.run(previewStream, { node });
      assert.ok(preview, proxied.ui.errors.join('; '));
      assert.ok(byFfmpeg().length > before, 'the preview was read through the proxy');
    } finally {
      await proxied.dispose();
    }
    // An exception (http.noProxy) is reached directly by ffmpeg too. By address, not by name: the npm packages'
    // static ffmpeg (a fresh machine's) cannot resolve host names, and the exception is what this checks.
    const direct = await createHarness({
      account,
      clientOptions: { proxy: proxy.url, noProxy: [new URL(test.platform.baseUrl).host, '127.0.0.1'] },
      storageDir: mkdtempSync(join(tmp, 'storage-')),
      ffmpegPath: dirname(tools.ffmpeg),
    });
    try {
      const video = (await direct.videos.getChildren()).find(
        (node): node is VideoNode => node instanceof VideoNode && node.video.transcodedVideoList.length > 0,
      )!;
      const address = `http://127.0.0.1:${new URL(golden.url).port}/clean/v0.m3u8`;
      const stream = { ...video.video.transcodedVideoList[0]!, name: '180p', hlsUrl: address };
      const seen = proxy.seen.length;
      const session = await direct.run(inspectStream, { node: new RenditionNode(video, stream as TranscodedStream) });
      assert.ok(session, direct.ui.errors.join('; '));
      session.panel.dispose();
      assert.match(direct.panels.opened.at(-1)!.html, /<h2>Contact sheet<\/h2>/);
      assert.equal(proxy.seen.length, seen, 'nothing went through the proxy');
    } finally {
      await direct.dispose();
      await proxy.close();
    }
  });

  it('without ffmpeg: the stream is still measured (in-process), and the report says pictures need ffmpeg', async () => {
    const bare = await createHarness({ ffmpegPath: join(tmp, 'no-ffmpeg-here') });
    try {
      bare.ui.script(choose('Enter an address'), type(`${golden.url}/overstated/v0.m3u8`));
      const session = await bare.run(inspectStream);
      assert.ok(session, bare.ui.errors.join('; '));
      session.panel.dispose();
      const html = bare.panels.opened[0]!.html;
      assert.match(html, /ffmpeg was not found, so the report has no pictures \(everything else was measured\)/);
      assert.match(html, /apt-get install ffmpeg/);
      // Every segment of the 4-segment VOD is read (up to 30 per playlist).
      assert.equal(session.report?.sampled.segmentsProbed, 4);
      assert.equal(session.report?.variants[0]?.measured.resolution, '320x180');
      bare.ui.script(choose('Enter an address'), type(`${golden.url}/clean/v0_000.ts`));
      assert.equal(await bare.run(previewStream), undefined);
      assert.match(bare.ui.errors.join('\n'), /Preview failed: a preview needs ffmpeg: install ffmpeg/);
    } finally {
      await bare.dispose();
    }
  });

  it('an open .m3u8 document has its problems in the Problems panel, checked again after an edit', async () => {
    const document = harness.editor.open('/work/ladder.m3u8', '#EXTM3U\n#EXTINF:4,\nseg0.ts\n#EXT-X-ENDLIST\n');
    const problems = harness.ctx.playlists.check(document);
    assert.ok(problems && problems.length > 0);
    assert.ok(
      harness.playlistProblems.get(document.uri)?.some((problem) => problem.code === 'HLS-TARGETDURATION-MISSING'),
      JSON.stringify(harness.playlistProblems.get(document.uri)),
    );
    harness.editor.documents[0]!.content = '#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nseg0.ts\n#EXT-X-ENDLIST\n';
    harness.ctx.playlists.changed(document);
    await eventually('the problems cleared', () => !harness.playlistProblems.has(document.uri));
    // Other documents are not playlists.
    assert.equal(harness.ctx.playlists.check(harness.editor.open('/work/a.channel.json', '{}')), undefined);
  });

  it('an open master .m3u8 without CODECS has a warning on the variant line (issue 25), as the inspector reports it', () => {
    const text = [
      '#EXTM3U',
      '#EXT-X-INDEPENDENT-SEGMENTS',
      '#EXT-X-STREAM-INF:BANDWIDTH=800000,AVERAGE-BANDWIDTH=700000,RESOLUTION=640x360,FRAME-RATE=25',
      'v0.m3u8',
      '#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,URI="v0_i.m3u8"',
      '',
    ].join('\n');
    const document = harness.editor.open('/work/master.m3u8', text);
    harness.ctx.playlists.check(document);
    const shown = harness.playlistProblems.get(document.uri) ?? [];
    assert.deepEqual(
      shown.map((problem) => [problem.code, problem.severity, problem.line]),
      [['HLS-CODECS-MISSING', 'warning', 2]],
    );
    assert.match(shown[0]!.message, /declares no CODECS/);
  });

  it('channel and video rows show the still the platform lists, and none where it lists no picture', async () => {
    const channel = (await harness.channels.getChildren()).find(
      (node): node is ChannelNode => node instanceof ChannelNode,
    )!;
    const video = (await harness.videos.getChildren()).find((node): node is VideoNode => node instanceof VideoNode)!;
    // Simulated media serves no picture, so it lists none ("") and no row shows a broken image.
    assert.equal(channel.channel.thumbnailUrl, '');
    assert.equal(video.video.cover, '');
    for (const view of [channel.view(), video.view()]) assert.doesNotMatch(view.tooltip ?? '', /!\[still\]/);
  });
});
