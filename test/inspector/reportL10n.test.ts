/**
 * The inspector in another language: the report page's headings and figures, the findings' messages and the
 * Problems of an open playlist go through the translator. A pseudo-language puts each translated text in «»;
 * what the stream says (addresses, variant and segment names, tags, codecs), the finding codes, the clauses of
 * RFC 8216 they cite and the input's kind stay as they are.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderReportHtml } from '../../src/inspector/html';
import { inspect } from '../../src/inspector/inspect';
import { playlistProblems } from '../../src/inspector/playlistProblems';
import { registeredFamilies } from '../../src/inspector/registry';
import { fillPlaceholders, setTranslator } from '../../src/l10n/l10n';
import { dataTexts, markingTranslator, untranslated } from '../helpers/untranslated';

const MASTER = [
  '#EXTM3U',
  '#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,CODECS="avc1.4d401e,mp4a.40.2"',
  'v1/index.m3u8',
  '#EXT-X-STREAM-INF:BANDWIDTH=abc',
  'v2/index.m3u8',
].join('\n');

const MEDIA = [
  '#EXTM3U',
  '#EXT-X-TARGETDURATION:4',
  '#EXTINF:6.5,',
  'a.ts',
  '#EXT-X-MEDIA-SEQUENCE:3',
  '#EXTINF:4.0,',
  'b.ts',
  '#EXT-X-FOO',
  '#EXT-X-KEY:METHOD=AES-128,IV=0x12',
  '#EXTINF:x,',
  '#EXT-X-ENDLIST',
].join('\n');

/** The text a page shows: no style, script or markup, entities read back. */
function pageText(html: string): string {
  return html
    .replace(/<style[\s\S]*?<\/style>|<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

describe('Inspector in another language: the report and the playlist problems go through the translator', () => {
  let restore: () => void;
  let dir: string;
  before(async () => {
    restore = setTranslator(markingTranslator);
    dir = await mkdtemp(join(tmpdir(), 'vp-report-l10n-'));
    await mkdir(join(dir, 'v1'));
    await writeFile(join(dir, 'master.m3u8'), MASTER);
    await writeFile(join(dir, 'v1', 'index.m3u8'), MEDIA);
  });
  after(async () => {
    restore();
    await rm(dir, { recursive: true, force: true });
  });

  it('the problems of an open playlist', () => {
    for (const text of [MASTER, MEDIA, 'not a playlist', `${MASTER}\n#EXTINF:2,\nx.ts`]) {
      const problems = playlistProblems(text);
      assert.ok(problems.length > 0, text);
      for (const problem of problems)
        assert.deepEqual(untranslated(problem.message, [text]), [], `${problem.code}: ${problem.message}`);
    }
  });

  it('the report page of a broken ladder: headings, summary, figures and findings', async () => {
    const report = await inspect(join(dir, 'master.m3u8'), { fetch });
    assert.ok(report.findings.length >= 4, JSON.stringify(report.findings));
    const html = renderReportHtml(report, { cspSource: 'vscode-resource:', nonce: 'abc' });
    const data = [
      report.input,
      // The encryption method as the playlist names it.
      'AES-128',
      report.kind,
      ...report.findings.flatMap((finding) => [finding.code, finding.clause]),
      ...dataTexts(report.variants.map((variant) => [variant.name, variant.declared])),
      ...dataTexts([MASTER, MEDIA].flatMap((text) => text.split('\n'))),
      'ENOENT',
    ];
    assert.deepEqual(untranslated(pageText(html), data), [], pageText(html));
    // The findings' messages name the variant and the line they are about.
    assert.match(html, /«Segments»/);
    assert.match(html, /«error»/);
    // Each family's heading is translated once (its title is `l10n.t` itself).
    assert.match(html, /<h3>«[^«»]+»<\/h3>/);
  });

  it("every built-in family's heading is in the exported bundle and has a zh-cn translation", () => {
    const chinese = JSON.parse(
      readFileSync(join(__dirname, '..', '..', 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8'),
    ) as Record<string, string>;
    const undo = setTranslator((message, args) => fillPlaceholders(chinese[message] ?? message, args));
    try {
      const shown = registeredFamilies()
        .filter((family) => !family.name.startsWith('test-'))
        .map((family) => [family.name, family.title] as const);
      assert.ok(shown.length >= 11, JSON.stringify(shown));
      const untranslatedTitles = shown.filter(([, title]) => !/[\u4e00-\u9fff]/.test(title));
      assert.deepEqual(untranslatedTitles, []);
    } finally {
      undo();
    }
  });
});
