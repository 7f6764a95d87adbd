import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getL10nJson } from '@vscode/l10n-dev';
import { accountStatus } from '../../src/app/accounts/accountContext';
import { KNOWN_CODES } from '../../src/api/errorCodes';
import { DOCUMENT_KINDS } from '../../src/authoring/documentKind';
import { schemaOf } from '../../src/authoring/schemas';
import { allSnippets } from '../../src/authoring/snippets';
import { schemaSentences } from '../../src/authoring/schemaTexts';
import { COMMANDS } from '../../src/app/commands/commandTable';
import { createCategory } from '../../src/app/commands/createCategory';
import { updateLiveTemplate } from '../../src/app/commands/updateLiveTemplate';
import { fillPlaceholders, setTranslator } from '../../src/l10n/l10n';
import { formatCategory, formatSeconds } from '../../src/app/util/format';
import { createHarness, type Harness } from './helpers/harness';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from './helpers/platform';
import { choose, keep, type } from './helpers/scriptedUi';

const root = join(__dirname, '..', '..');
const readBundle = (name: string): Record<string, string> =>
  JSON.parse(readFileSync(join(root, 'l10n', name), 'utf8')) as Record<string, string>;
const english = readBundle('bundle.l10n.json');
const chinese = readBundle('bundle.l10n.zh-cn.json');
/** `{0}`, `{name}`, Markdown `**` and `$(icon)`: what a translation must keep. */
const kept = (text: string): string[] => [...text.matchAll(/\{[^{}]+\}|\$\([a-z-~]+\)|\*\*/g)].map((m) => m[0]).sort();

/** The strings of every `l10n.t('...')` in src/, as scripts/l10n-export.mjs hands them to @vscode/l10n-dev. */
async function exportedStrings(): Promise<string[]> {
  const folder = join(root, 'src');
  const files = readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => readFileSync(join(folder, name), 'utf8'))
    .filter((contents) => contents.includes('l10n.t('))
    .map((contents) => ({ extension: '.ts', contents: `import * as vscode from 'vscode';\n${contents}` }));
  // And the schemas' sentences that problems quote (src/authoring/schemaTexts.ts).
  const sentences = new Set<string>();
  for (const kind of DOCUMENT_KINDS) schemaSentences(schemaOf(kind), sentences);
  // And the snippets' descriptions (snippetDescription).
  for (const snippet of allSnippets()) sentences.add(snippet.description);
  return [...new Set([...Object.keys(await getL10nJson(files)), ...sentences])].sort();
}

describe('messages and views in Simplified Chinese (l10n/bundle.l10n.zh-cn.json)', () => {
  it('has l10n/bundle.l10n.json up to date with the sources (npm run l10n:export)', async function () {
    // The analyzer reads every source file: about 40 s while other work shares the machine's two cores.
    this.timeout(120_000);
    const exported = await exportedStrings();
    assert.ok(exported.length > 100, `${exported.length} strings`);
    assert.deepEqual(Object.keys(english).sort(), exported);
  });

  it('translates every exported string, command title and result code explanation, keeping the placeholders', () => {
    // Looked up at runtime: the command table's titles (runCommand) and the result codes' explanations (failures.ts).
    const titles = COMMANDS.map((row) => row.title);
    const explanations = KNOWN_CODES.map((known) => known.explanation);
    const needed = new Set([...Object.keys(english), ...titles, ...explanations]);
    const missing = [...needed].filter((text) => !chinese[text]);
    assert.deepEqual(missing, [], 'strings without a zh-cn translation');
    for (const text of needed) {
      const translated = chinese[text]!;
      assert.deepEqual(kept(translated), kept(text), `placeholders of "${text}"`);
      // Only a string of placeholders, punctuation and units written the same in Chinese (kbps) may stay as it is.
      if (/[a-z]{3}/i.test(text.replace(/\{[^{}]+\}|\$\([^)]*\)|\bkbps\b/g, '')))
        assert.match(translated, /[\u4e00-\u9fff]/, `"${text}" is not translated: "${translated}"`);
    }
    const stale = Object.keys(chinese).filter((text) => !needed.has(text));
    assert.deepEqual(stale, [], 'zh-cn strings nothing uses any more');
  });

  describe('with the zh-cn bundle installed as the translator (as VS Code does in Chinese)', () => {
    let platform: TestPlatform;
    let harness: Harness;
    let restore: () => void;

    before(async () => {
      platform = await startTestPlatform();
    });
    after(async () => platform.close());
    beforeEach(async () => {
      restore = setTranslator((message, args) => fillPlaceholders(chinese[message] ?? message, args));
      harness = await createHarness({
        account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
      });
    });
    afterEach(async () => {
      restore();
      await harness.dispose();
    });

    it('says what a command did, and why it failed, in Chinese with the names filled in', async () => {
      harness.ui.script(type('新闻 News'));
      const category = await harness.run(createCategory);
      assert.ok(category, harness.ui.errors.join('\n'));
      assert.equal(harness.ui.infos.at(-1), '已创建频道分类“新闻 News”。');
      assert.equal(harness.ui.asked[0]?.title, '创建频道分类');
      // The platform refuses a second category of that name: its result code explained in Chinese.
      harness.ui.script(type('新闻 News'));
      assert.equal(await harness.run(createCategory), undefined);
      assert.match(
        harness.ui.errors.at(-1) ?? '',
        /^创建频道分类失败：已存在同名频道分类。（liveChannelTypeCreate：代码 \d+，channel_category_already_exists[^）]*）$/,
      );

      harness.ui.script(choose('720p'), keep(), keep(), keep(), keep(), keep(), keep());
      assert.equal(await harness.run(updateLiveTemplate), undefined);
      assert.equal(harness.ui.infos.at(-1), '直播模板“720p”没有任何更改。');

      // A failure: the command table's title, translated, then the reason.
      harness.ui.script(choose('720p'), keep(), type('wide'));
      assert.equal(await harness.run(updateLiveTemplate), undefined);
      assert.match(harness.ui.errors.at(-1) ?? '', /^更新直播模板失败：/);
      assert.deepEqual(harness.ui.errorActions.at(-1), ['显示日志']);
    });

    it('shows the status bar, durations and categories in Chinese', () => {
      const none = accountStatus({ active: () => undefined, list: () => [] });
      assert.equal(none.text, '$(plug) 视频平台：无账号');
      assert.equal(none.tooltip, '单击以添加视频平台账号');
      assert.equal(formatSeconds(12), '12 秒');
      assert.equal(formatCategory(undefined), '无分类');
      assert.equal(formatCategory({ id: 7 }), '分类 7');
    });
  });
});
