/**
 * The content checks as a family of the stream inspector (src/app/inspect/contentFamily.ts): an HLS VOD rendition
 * served over HTTP on 127.0.0.1 with a black gap and a silence is inspected with the family asked for; the report
 * lists each finding with its time range and a still at that time, in the text, JSON and HTML reports and from
 * `npm run inspect -- ADDRESS --content`; without ffmpeg the checks are named as not run.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CONTENT_FAMILY } from '../../../src/app/inspect/contentFamily';
import { checkContent, inspectStream } from '../../../src/app/commands/inspectCommands';
import { createHarness } from '../../app/helpers/harness';
import { choose, type } from '../../app/helpers/scriptedUi';
import { renderReportHtml } from '../../../src/inspector/html';
import { inspect } from '../../../src/inspector/inspect';
import { nodeFetch } from '../../../src/inspector/source';
import { reportText } from '../../../src/inspector/text';
import { findMediaTools, runTool, type MediaTools } from '../../../src/media/tools';
import { serve } from '../../inspector/golden';

/** 12 s of 320x180: black from 4 to 6 s, the tone silent from 8 to 11 s; cut into 2 s HLS segments. */
async function makeHls(tools: MediaTools, dir: string): Promise<void> {
  const video =
    "testsrc2=size=320x180:rate=25:d=12,drawbox=x=0:y=0:w=iw:h=ih:color=black:t=fill:enable='between(t,4,6)'";
  const audio = 'aevalsrc=0.05*sin(2*PI*440*t)*(1-between(t\\,8\\,11)):s=48000:d=12';
  await runTool(
    tools.ffmpeg,
    [
      ...['-hide_banner', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', video, '-f', 'lavfi', '-i', audio],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '50', '-sc_threshold', '0', '-c:a', 'aac', '-b:a', '96k'],
      ...['-f', 'hls', '-hls_time', '2', '-hls_playlist_type', 'vod', join(dir, 'index.m3u8')],
    ],
    { timeoutMs: 60_000 },
  );
}

describe('content checks in Inspect Stream and npm run inspect (the inspector family)', function () {
  this.timeout(90_000);
  let tools: MediaTools;
  let dir: string;
  let server: Awaited<ReturnType<typeof serve>> | undefined;
  let address: string;

  before(async () => {
    const mode = await findMediaTools({ npmFallback: true });
    if (mode.kind !== 'real') throw new Error(`needs ffmpeg: ${mode.reason}`);
    tools = mode.tools;
    dir = mkdtempSync(join(tmpdir(), 'vpt-content-family-'));
    await makeHls(tools, dir);
    server = await serve(dir);
    address = `${server.url}/index.m3u8`;
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports the black gap and the silence of a VOD rendition, each with its time range and a still', async () => {
    const report = await inspect(address, {
      fetch: nodeFetch,
      mediaFamilies: { [CONTENT_FAMILY]: { ffmpeg: tools.ffmpeg } },
    });
    const black = report.findings.find((f) => f.code === 'QA-BLACK');
    const silence = report.findings.find((f) => f.code === 'QA-SILENCE');
    assert.ok(black && silence, report.findings.map((f) => f.code).join(', '));
    assert.equal(black.family, CONTENT_FAMILY);
    assert.ok(
      Math.abs(black.range!.start - 4) < 0.15 && Math.abs(black.range!.end - 6) < 0.15,
      JSON.stringify(black.range),
    );
    assert.ok(
      Math.abs(silence.range!.start - 8) < 0.15 && Math.abs(silence.range!.end - 11) < 0.15,
      JSON.stringify(silence.range),
    );
    // The still is a JPEG of the black picture: its bytes decode to a dark frame.
    assert.match(black.still!, /^data:image\/jpeg;base64,/);
    const jpeg = Buffer.from(black.still!.split(',')[1]!, 'base64');
    assert.equal(jpeg.readUInt16BE(0), 0xffd8);
    const { stdout } = await runTool(
      tools.ffmpeg,
      ['-v', 'error', '-f', 'image2pipe', '-i', 'pipe:0', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
      { timeoutMs: 20_000, input: jpeg },
    );
    assert.equal(stdout.length, 320 * 180);
    assert.ok(stdout.reduce((s, v) => s + v, 0) / stdout.length < 30, 'a dark still');
    assert.match(reportText(report), /QA-BLACK.*\[4\.\d\d–6\.\d\d s\]/);
    const html = renderReportHtml(report, { cspSource: 'https://webview.test', nonce: 'n0nce' });
    assert.match(html, /<img class="still" alt="" width="240" src="data:image\/jpeg;base64,/);
    assert.match(html, /4\.\d\d–6\.\d\d s/);
  });

  it('names the content checks as not run without ffmpeg, and runs nothing unless asked', async () => {
    const without = await inspect(address, {
      fetch: nodeFetch,
      mediaFamilies: { [CONTENT_FAMILY]: { ffmpeg: undefined, missing: 'ffmpeg was not found' } },
    });
    const notRun = without.findings.find((f) => f.code === 'QA-NOT-RUN');
    assert.match(notRun?.message ?? '', /not run: they need ffmpeg: ffmpeg was not found/);
    assert.ok(without.sampled.notChecked?.some((n) => /loudness.*no ffmpeg/.test(n)));
    const plain = await inspect(address, { fetch: nodeFetch });
    assert.ok(!plain.findings.some((f) => f.family === CONTENT_FAMILY));
  });

  it('Check Content in the editor: asks the loudness target, shows the findings with their time and a still', async () => {
    const harness = await createHarness({ ffmpegPath: dirname(tools.ffmpeg) });
    try {
      harness.ui.script(choose('ATSC A/85'), choose('Enter an address'), type(address));
      const session = await harness.run(checkContent);
      assert.ok(session, harness.ui.errors.join('; '));
      assert.deepEqual(harness.ui.errors, []);
      const html = harness.panels.opened.at(-1)!.html;
      assert.match(
        html,
        /QA-BLACK<\/code> <span class="where">[^<]*<\/span> <span class="where">4\.\d\d–6\.\d\d s<\/span>|QA-BLACK<\/code> <span class="where">4\.\d\d–6\.\d\d s<\/span>/,
      );
      assert.match(html, /QA-SILENCE/);
      assert.match(html, /<img class="still" alt="" width="240" src="data:image\/jpeg;base64,/);
      session.panel.dispose();
      // Inspect Stream alone runs no content checks.
      harness.ui.script(choose('Enter an address'), type(address));
      const plain = await harness.run(inspectStream);
      assert.ok(plain && !plain.report!.findings.some((f) => f.family === CONTENT_FAMILY));
      plain.panel.dispose();
    } finally {
      await harness.dispose();
    }
  });

  it('npm run inspect -- ADDRESS --content atsc --format json lists the findings with their ranges', async () => {
    const child = spawn(
      process.execPath,
      [
        '-r',
        'tsx/cjs',
        join(__dirname, '..', '..', '..', 'src', 'app', 'inspect', 'inspectCli.ts'),
        address,
        '--content',
        'atsc',
        '--format',
        'json',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    const code = await new Promise((resolve) => child.on('close', resolve));
    const report = JSON.parse(out) as { findings: Array<{ code: string; range?: { start: number }; clause: string }> };
    const black = report.findings.find((f) => f.code === 'QA-BLACK');
    assert.ok(black?.range && Math.abs(black.range.start - 4) < 0.15, out.slice(0, 500));
    // The tone at -26 LUFS or so is within ATSC's ±2 dB of -24, or named against ATSC A/85 if not.
    for (const f of report.findings.filter((x) => x.code.startsWith('QA-LOUDNESS')))
      assert.match(f.clause, /ATSC A\/85/);
    assert.ok(code === 0 || code === 1, `exit code ${String(code)}`);
  });
});
