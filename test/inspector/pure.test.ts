import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { playerPageHtml, renderReportHtml } from '../../src/inspector/html';
import { topLevelAtoms } from '../../src/inspector/inspect';
import { codecDifferences } from '../../src/inspector/mediaFacts';
import { playlistProblems } from '../../src/inspector/playlistProblems';
import type { Report } from '../../src/inspector/report';
import { makeContactSheet, makePreview, makeThumbnail } from '../../src/inspector/stills';
import { readMedia } from '../../src/media/read';
import { runTool, type MediaTools } from '../../src/media/tools';
import { realTools } from './golden';

describe('inspector: playlist text checks (problems of an open .m3u8)', () => {
  it('finds tags out of order, EXTINF over the target, a missing URI and a version too low, with their lines', () => {
    const text = [
      '#EXTM3U',
      '#EXT-X-TARGETDURATION:4',
      '#EXTINF:3.5,',
      'a.ts',
      '#EXT-X-MEDIA-SEQUENCE:7',
      '#EXTINF:6.2,',
      'b.ts',
      '#EXTINF:4.0,',
      '#EXT-X-ENDLIST',
    ].join('\n');
    const problems = playlistProblems(text, 'file:///x.m3u8');
    assert.deepEqual(
      problems.map((p) => [p.code, p.severity, p.line]),
      [
        ['HLS-VERSION-TOO-LOW', 'error', 0],
        ['HLS-TAG-MISPLACED', 'error', 4],
        ['HLS-SEGMENT-LONGER-THAN-TARGET', 'error', 5],
        ['HLS-URI-MISSING', 'error', 7],
      ],
    );
    const long = problems.find((p) => p.code === 'HLS-SEGMENT-LONGER-THAN-TARGET')!;
    assert.equal(text.split('\n')[5]!.slice(long.startColumn, long.endColumn), '6.2');
    assert.match(long.message, /6\.2 s, longer than the target duration of 4 s/);
    assert.match(problems[0]!.message, /needs #EXT-X-VERSION:3 or higher, but declares no version/);
  });

  it('finds nothing wrong in a good playlist, and a missing header and target duration in a bad one', () => {
    const good = '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\na.ts\n#EXT-X-ENDLIST\n';
    assert.deepEqual(playlistProblems(good), []);
    assert.deepEqual(
      playlistProblems('#EXTINF:2,\na.ts\n').map((p) => p.code),
      ['HLS-PLAYLIST-HEADER', 'HLS-TARGETDURATION-MISSING'],
    );
    const master = '#EXTM3U\n#EXT-X-STREAM-INF:RESOLUTION=big\nv.m3u8\n';
    assert.deepEqual(
      playlistProblems(master).map((p) => [p.code, p.line]),
      [
        ['HLS-ATTRIBUTE-INVALID', 1],
        ['HLS-ATTRIBUTE-INVALID', 1],
        ['HLS-CODECS-MISSING', 1],
        ['HLS-FRAME-RATE-MISSING', 1],
        ['HLS-AVERAGE-BANDWIDTH-MISSING', 1],
        ['HLS-IFRAME-PLAYLIST-MISSING', 1],
      ],
    );
  });
});

const hostile = '<img src=x onerror=alert(1)>"\'&';
const report: Report = {
  input: 'http://127.0.0.1/master.m3u8',
  kind: 'hls-master',
  live: false,
  variants: [
    {
      name: hostile,
      address: 'http://127.0.0.1/x.m3u8',
      declared: { bandwidth: 100_000, codecs: `avc1.64001f,${hostile}`, resolution: '320x180' },
      measured: { peakBandwidth: 150_000, resolution: '320x180', codecs: 'h264 High' },
    },
  ],
  findings: [
    {
      code: 'HLS-BANDWIDTH-MISMATCH',
      severity: 'error',
      family: 'master',
      message: hostile,
      variant: hostile,
      clause: 'RFC 8216 4.3.4.2',
    },
  ],
  sampled: { rule: 'r', segmentsProbed: 1, requests: { get: 1, head: 1 }, bytesRead: 1, elapsedMs: 1 },
};

describe('inspector: report and player HTML', () => {
  it('escapes a hostile variant name, codecs and message, and sets a strict CSP', () => {
    const html = renderReportHtml(report, {
      cspSource: 'https://webview.example',
      nonce: 'abc123',
      thumbnails: { [hostile]: 'javascript:alert(1)' },
    });
    assert.ok(!html.includes('<img src=x'), 'no markup from the stream');
    assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;'));
    assert.ok(!html.includes('javascript:'), 'an image address that is neither data: nor the webview is dropped');
    assert.match(
      html,
      /Content-Security-Policy" content="default-src &#39;none&#39;; img-src https:\/\/webview\.example data:; style-src &#39;nonce-abc123&#39;; script-src &#39;nonce-abc123&#39;"/,
    );
    assert.equal(html.match(/<script/g)?.length, 1);
    assert.match(html, /<script nonce="abc123">/);
  });

  it('shows data: thumbnails and a contact sheet', () => {
    const picture = 'data:image/jpeg;base64,AAAA';
    const html = renderReportHtml(report, {
      cspSource: 'x',
      nonce: 'n',
      thumbnails: { [hostile]: picture },
      contactSheet: picture,
    });
    assert.equal(html.split(`src="${picture}"`).length - 1, 2);
  });

  it('makes a player page that loads hls.js from a local path and passes the address as JSON', () => {
    const html = playerPageHtml('http://127.0.0.1:9/live/a.m3u8?t=</script><b>', { nonce: 'n1' });
    assert.match(html, /<script src="\/player\/hls\.min\.js"><\/script>/);
    assert.ok(!/https?:\/\/cdn|jsdelivr|unpkg/.test(html));
    assert.ok(html.includes('"http://127.0.0.1:9/live/a.m3u8?t=%3C/script%3E%3Cb%3E"'));
    assert.ok(!html.includes('</script><b>'));
    assert.throws(
      () => playerPageHtml('file:///etc/passwd'),
      /address: the player plays http:\/\/ and https:\/\/ addresses only/,
    );
  });
});

describe('inspector: stills and preview made with ffmpeg', function () {
  this.timeout(60_000);
  let tools: MediaTools;
  let tmp: string;
  let clip: string;
  before(async () => {
    tools = await realTools();
    tmp = mkdtempSync(join(tmpdir(), 'vpt-stills-'));
    clip = join(tmp, 'clip.mp4');
    await runTool(tools.ffmpeg, [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=320x180:rate=25',
      '-f',
      'lavfi',
      '-i',
      'sine',
      '-t',
      '3',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-c:a',
      'aac',
      clip,
    ]);
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('makes a contact sheet: a PNG of the grid size', async () => {
    const sheet = await makeContactSheet(tools, clip, {
      count: 6,
      columns: 3,
      width: 160,
      outPath: join(tmp, 'sheet.png'),
    });
    const png = readFileSync(sheet);
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    // IHDR: width and height at bytes 16 and 20.
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [3 * 160, 2 * 90]);
  });

  it('makes a JPEG thumbnail', async () => {
    const jpeg = await makeThumbnail(tools, clip, { width: 160 });
    assert.deepEqual([...jpeg.subarray(0, 2)], [0xff, 0xd8]);
  });

  it('makes a preview that probes as H.264 + MP3 with the moov atom before mdat', async () => {
    const out = await makePreview(tools, clip, join(tmp, 'preview.mp4'));
    const read = await readMedia(out);
    assert.deepEqual([read.video?.codec, read.audio?.codec], ['h264', 'mp3']);
    const atoms = await topLevelAtoms(out);
    assert.ok(atoms.indexOf('moov') !== -1 && atoms.indexOf('moov') < atoms.indexOf('mdat'), atoms.join(','));
  });
});

describe('inspector: CODECS against the media', () => {
  const facts = {
    video: { codec: 'h264', profile: 'High', level: 31, width: 320, height: 180, frameRate: 25 },
    audio: { codec: 'aac', profile: 'LC' },
  };
  it('accepts a matching CODECS and names each difference otherwise', () => {
    assert.deepEqual(codecDifferences('avc1.64001f,mp4a.40.2', facts), []);
    assert.deepEqual(codecDifferences('avc1.4d001e,mp4a.40.2', facts), [
      'avc1.4d001e declares H.264 profile 77, the stream is High (100)',
      'avc1.4d001e declares H.264 level 3, the stream needs level 3.1',
    ]);
    assert.deepEqual(codecDifferences('hvc1.1.6.L93.B0', facts), [
      'the video is h264, which CODECS does not declare',
      'the audio is aac, which CODECS does not declare',
      'CODECS declares hvc1.1.6.L93.B0, which the media does not carry',
    ]);
  });
  it('does not ask video segments for audio that an EXT-X-MEDIA rendition carries, nor for subtitles', () => {
    const videoOnly = { video: facts.video };
    assert.deepEqual(codecDifferences('avc1.64001f,mp4a.40.2,wvtt', videoOnly, { externalAudio: true }), []);
    assert.deepEqual(codecDifferences('avc1.64001f,mp4a.40.2', videoOnly), [
      'CODECS declares mp4a.40.2, which the media does not carry',
    ]);
  });
});

describe('inspector: the report page marks only what a finding names (issue 25)', () => {
  const ladder: Report = {
    input: 'http://127.0.0.1:9/master.m3u8',
    kind: 'hls-master',
    live: false,
    variants: [
      {
        name: '9f86d081884c7d65.m3u8',
        address: 'http://127.0.0.1:9/9f86d081884c7d65.m3u8',
        declared: { bandwidth: 440_000, resolution: '320x180', codecs: 'avc1.64001e' },
        // Within 10 % of BANDWIDTH: measured, and no finding about it.
        measured: {
          peakBandwidth: 430_000,
          resolution: '320x180',
          codecs: 'h264 High',
          keyframeInterval: { mean: 1, spread: 0, from: '3 of 3 segment(s)' },
        },
        segments: 3,
        targetDuration: 6,
        longestSegment: 6,
        timeline: [
          { sequence: 0, uri: 's0.ts', duration: 6, bytes: 300_000, measured: 6, keyframes: [0, 2, 4] },
          { sequence: 1, uri: 's1.ts', duration: 6, bytes: 320_000, measured: 10, keyframes: [0, 2, 4, 6, 8] },
          { sequence: 2, uri: 's2.ts', duration: 6, bytes: 310_000, measured: 6, keyframes: [0, 2, 4] },
        ],
      },
    ],
    findings: [
      {
        code: 'HLS-SEGMENT-LONGER-THAN-TARGET',
        severity: 'error',
        family: 'playlist',
        message: 'Segment s1.ts holds 10 s of media, longer than the target duration of 6 s.',
        variant: '9f86d081884c7d65.m3u8',
        segment: 's1.ts',
        clause: 'RFC 8216 4.3.3.1',
      },
    ],
    sampled: {
      rule: 'r',
      segmentsProbed: 3,
      requests: { get: 4, head: 0 },
      bytesRead: 1,
      elapsedMs: 1,
      notChecked: ['nothing else'],
    },
  };

  it('colours the Segments cell (linked to the finding), not the bandwidth within tolerance; names the variant by resolution and bandwidth; draws the timeline', () => {
    const html = renderReportHtml(ladder, { cspSource: 'https://webview.example', nonce: 'n' });
    const cells = html.match(/<td[^>]*>/g) ?? [];
    assert.deepEqual(
      cells.filter((c) => c.includes('flagged')),
      ['<td class="flagged error">'],
    );
    const flagged =
      /<td class="flagged error"><a class="cell-link" href="#f0" title="HLS-SEGMENT-LONGER-THAN-TARGET">3 × ≤ 6 s/.exec(
        html,
      );
    assert.ok(flagged, 'the Segments cell links to the finding');
    assert.match(html, /<li id="f0" class="error">/);
    assert.match(html, /320x180 · 440 kb\/s<\/a><br><span class="name">9f86d081884c7d65\.m3u8/);
    assert.match(html, /every 1\.00 s ± 0\.00<br><span class="measured">measured in 3 of 3 segment\(s\)/);
    // The finding links to its segment's bar; the bar is coloured and links back.
    assert.match(html, /<a class="where" href="#seg-0-1">segment s1\.ts<\/a>/);
    assert.match(html, /<a href="#f0"><rect id="seg-0-1" class="bar flagged-bar error"/);
    assert.equal(html.match(/<rect /g)?.length, 3);
    assert.equal(html.match(/class="keyframe"/g)?.length, 11);
    assert.equal(html.match(/class="measured-end"/g)?.length, 1);
    assert.match(
      html,
      /<a href="https:\/\/www\.rfc-editor\.org\/rfc\/rfc8216#section-4\.3\.3\.1">RFC 8216 4\.3\.3\.1<\/a>/,
    );
    assert.match(html, /Not checked: nothing else\./);
    // The table scrolls inside its own box instead of pushing Keyframes and Encryption out of the panel.
    assert.match(html, /<div class="table-wrap">\s*<table>/);
    assert.match(html, /\.table-wrap \{ overflow-x: auto; max-width: 100%; \}/);
    assert.doesNotMatch(html, /style="/, 'no inline style attributes (the CSP allows only the nonce style block)');
  });
});
