/**
 * Evaluate Template Group through compose() with a scripted Ui, as the user runs it: from a `*.templategroup.json`
 * document, from a template group of the local platform's account (the real platform on 127.0.0.1), without
 * ffmpeg, and cancelled. The reference is a 4 s 640x360 clip made here by ffmpeg.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { evaluateTemplateGroup } from '../../src/app/commands/inspectCommands';
import type { MediaTools } from '../../src/media/tools';
import { eventually } from '../helpers/eventually';
import { realTools } from '../inspector/golden';
import { createHarness, type Harness } from './helpers/harness';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from './helpers/platform';
import { choose, openFiles } from './helpers/scriptedUi';
import { makeReference, PLAIN, USELESS_TOP } from './helpers/ladderGroups';

function cspOf(html: string): string {
  return (/http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '').replace(/&#39;/g, "'");
}

describe('Evaluate Template Group (ladder lab panel, through compose())', function () {
  this.timeout(300_000);
  let tools: MediaTools;
  let tmp: string;
  let reference: string;
  let test: TestPlatform;
  let harness: Harness;
  let storage: string;

  before(async () => {
    tools = await realTools();
    tmp = mkdtempSync(join(tmpdir(), 'vpt-ladder-app-'));
    reference = join(tmp, 'reference.mp4');
    await makeReference(tools, reference);
    writeFileSync(join(tmp, 'useless.templategroup.json'), USELESS_TOP);
    test = await startTestPlatform();
  });
  after(async () => {
    await test?.close();
    rmSync(tmp, { recursive: true, force: true });
  });
  beforeEach(async () => {
    storage = mkdtempSync(join(tmp, 'storage-'));
    harness = await createHarness({
      account: { baseUrl: test.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
      storageDir: storage,
      ffmpegPath: dirname(tools.ffmpeg),
    });
  });
  afterEach(async () => {
    for (const panel of harness.panels.opened) panel.dispose();
    await harness.dispose();
  });

  it('from a template group document: the chart, the table and the findings naming the useless rung, behind a nonce-only CSP', async () => {
    const doc = harness.editor.open(join(tmp, 'useless.templategroup.json'), USELESS_TOP);
    harness.ui.script(choose('A local media file'), openFiles(reference));
    const shown = await harness.run(evaluateTemplateGroup, { uri: doc.uri });
    assert.deepEqual(harness.ui.errors, []);
    assert.ok(shown, 'no evaluation');
    assert.ok(harness.ui.progress.includes('Evaluating "Useless top"'), harness.ui.progress.join(' | '));
    assert.ok(harness.ui.reports.some((r) => r.message === 'Encoding "360p-max" (3 of 4)'));
    const panel = harness.panels.opened.at(-1)!;
    assert.equal(panel.options.kind, 'ladder');
    const html = panel.html;
    assert.match(cspOf(html), /^default-src 'none'; style-src 'nonce-[^']+'; script-src 'nonce-[^']+'$/);
    assert.match(html, /<svg [^>]*role="img"/);
    assert.doesNotMatch(html, /<script(?![^>]*nonce=)|src="https?:|href="https?:/, 'nothing from outside');
    for (const rung of ['180p', '360p', '360p-max', '720p']) assert.match(html, new RegExp(`<td>${rung}</td>`));
    assert.match(html, /LADDER-RUNG-NO-GAIN<\/code> &#34;360p-max&#34; takes/);
    assert.match(html, /LADDER-RUNG-ABOVE-SOURCE<\/code> &#34;720p&#34;/);
    // The renditions were deleted once measured.
    assert.deepEqual(readdirSync(join(storage, 'ladder')), []);
  });

  it('the panel compares with another group (two curves) and exports JSON and CSV', async () => {
    const doc = harness.editor.open(join(tmp, 'useless.templategroup.json'), USELESS_TOP);
    harness.editor.open(join(tmp, 'plain.templategroup.json'), PLAIN);
    harness.ui.script(choose('A local media file'), openFiles(reference));
    await harness.run(evaluateTemplateGroup, { uri: doc.uri });
    const panel = harness.panels.opened.at(-1)!;
    harness.ui.script(choose('plain.templategroup.json'));
    panel.post({ type: 'compare' });
    await eventually('the panel drawn again with the second group', () => panel.pages.length === 2, 120_000);
    assert.equal((panel.html.match(/<g class="group"/g) ?? []).length, 2);
    assert.match(panel.html, /data-group="Plain"/);
    assert.match(panel.html, /<h2>Plain<\/h2>/);
    panel.post({ type: 'exportCsv' });
    panel.post({ type: 'exportJson' });
    await eventually('the two exports', () => harness.editor.openDocuments().filter((d) => d.isUntitled).length === 2);
    const csv = harness.editor
      .openDocuments()
      .find((d) => d.fileName === 'Useless top.ladder.csv')!
      .text();
    assert.match(csv, /^group,rung,width,height,target_video_kbps/);
    assert.equal(csv.trim().split('\r\n').length, 1 + 4 + 2);
    const json = JSON.parse(
      harness.editor
        .openDocuments()
        .find((d) => d.fileName === 'Useless top.ladder.json')!
        .text(),
    ) as Array<{ ladder: { name: string } }>;
    assert.deepEqual(
      json.map((e) => e.ladder.name),
      ['Useless top', 'Plain'],
    );
  });

  it('from a template group of the account (the local platform): its rungs, the one above the reference named', async () => {
    const groups = await harness.ctx.models.resources.records('templateGroup');
    const group = groups.find((g) => g.kind === 'templateGroup' && g.record.name === 'Built-in MP4 download 720p/360p');
    assert.ok(group, 'the built-in group is listed');
    harness.ui.script(choose('A local media file'), openFiles(reference));
    const shown = await harness.run(evaluateTemplateGroup, { node: group });
    assert.deepEqual(harness.ui.errors, []);
    const evaluation = shown![0]!;
    assert.equal(evaluation.ladder.name, 'Built-in MP4 download 720p/360p');
    assert.deepEqual(evaluation.results.map((r) => `${r.width}x${r.height}`).sort(), ['1280x720', '640x360']);
    assert.deepEqual(
      evaluation.findings.filter((f) => f.code === 'LADDER-RUNG-ABOVE-SOURCE').map((f) => f.rung),
      [evaluation.results.find((r) => r.width === 1280)!.rung.name],
    );
  });

  it('a video of the account as the reference: its largest MP4 is downloaded; a platform without its media says so', async () => {
    // This platform simulates media: its videos list MP4 addresses it answers with 404.
    const doc = harness.editor.open(join(tmp, 'plain.templategroup.json'), PLAIN);
    harness.ui.script(choose('A video of the account'), choose('Welcome tour'));
    const shown = await harness.run(evaluateTemplateGroup, { uri: doc.uri });
    assert.equal(shown, undefined);
    assert.equal(harness.ui.errors.length, 1, harness.ui.errors.join(' | '));
    assert.match(
      harness.ui.errors[0]!,
      /^Evaluate template group failed: reference: "Welcome tour" \(\d+x\d+ MP4\) answered HTTP 404/,
    );
    assert.ok(harness.ui.reports.some((r) => r.message.startsWith('Downloading "Welcome tour"')));
    assert.equal(harness.panels.opened.length, 0);
    assert.deepEqual(readdirSync(join(storage, 'ladder')), [], 'the run folder is removed');
  });

  it('without ffmpeg: says what is unavailable and offers Set Up ffmpeg; nothing is encoded', async () => {
    await harness.dispose();
    harness = await createHarness({
      account: { baseUrl: test.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
      storageDir: storage,
    });
    const doc = harness.editor.open(join(tmp, 'useless.templategroup.json'), USELESS_TOP);
    const shown = await harness.run(evaluateTemplateGroup, { uri: doc.uri });
    assert.equal(shown, undefined);
    assert.equal(harness.ui.warnings.length, 1);
    assert.match(
      harness.ui.warnings[0]!,
      /^Evaluate Template Group encodes and compares pictures with ffmpeg, which is not available: /,
    );
    assert.equal(harness.panels.opened.length, 0);
  });

  it('a bad document is refused with its problem and line, nothing encoded', async () => {
    const doc = harness.editor.open(
      join(tmp, 'bad.templategroup.json'),
      PLAIN.replace('"videoBitrate": 250', '"videoBitrate": 0'),
    );
    await harness.run(evaluateTemplateGroup, { uri: doc.uri });
    assert.equal(harness.ui.errors.length, 1);
    assert.match(harness.ui.errors[0]!, /^Evaluate template group failed: bad\.templategroup\.json, line \d+: /);
    assert.equal(harness.panels.opened.length, 0);
  });

  it('Cancel in the progress notification stops the work quietly: no panel, no error, no rendition left', async () => {
    const doc = harness.editor.open(join(tmp, 'useless.templategroup.json'), USELESS_TOP);
    harness.ui.cancelWhen = (message) => message.startsWith('Encoding "360p"');
    harness.ui.script(choose('A local media file'), openFiles(reference));
    const shown = await harness.run(evaluateTemplateGroup, { uri: doc.uri });
    assert.equal(shown, undefined);
    assert.deepEqual(harness.ui.errors, []);
    assert.equal(harness.panels.opened.length, 0);
    assert.deepEqual(readdirSync(join(storage, 'ladder')), []);
  });
});
