import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const readJson = (name: string): unknown => JSON.parse(readFileSync(join(root, name), 'utf8'));
const pkg = readJson('package.json') as Record<string, unknown> & { contributes: unknown };
const english = readJson('package.nls.json') as Record<string, string>;
const chinese = readJson('package.nls.zh-cn.json') as Record<string, string>;

/** Fields of the manifest that VS Code shows to the user (and so come from package.nls.*.json). */
const SHOWN = new Set([
  'title',
  'shortTitle',
  'name',
  'category',
  'contextualTitle',
  'description',
  'markdownDescription',
  'deprecationMessage',
  'markdownDeprecationMessage',
  'enumDescriptions',
  'markdownEnumDescriptions',
  'contents',
  'label',
]);

/** Every string under a shown field, with where it is. */
function shownStrings(value: unknown, path: string, shown: boolean, out: Array<[string, string]>): void {
  if (typeof value === 'string') {
    if (shown) out.push([path, value]);
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => shownStrings(item, `${path}[${index}]`, shown, out));
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      // A setting's own name is a key under `properties`, not a field.
      shownStrings(item, `${path}.${key}`, SHOWN.has(key) && !path.endsWith('.properties'), out);
    }
  }
}

const strings: Array<[string, string]> = [
  ['displayName', String(pkg.displayName)],
  ['description', String(pkg.description)],
];
shownStrings(pkg.contributes, 'contributes', false, strings);
const keyOf = (text: string): string | undefined => /^%([^%]+)%$/.exec(text)?.[1];
const placeholders = (text: string): string[] =>
  [...text.matchAll(/`[^`]*`|\(command:[^)]*\)|\{\d+\}/g)].map((match) => match[0]).sort();

describe('package.json in English and Simplified Chinese (package.nls.json, package.nls.zh-cn.json)', () => {
  it('leaves no shown string of the manifest in plain text', () => {
    assert.ok(strings.length > 40, `${strings.length} strings found`);
    const plain = strings.filter(([, text]) => keyOf(text) === undefined).map(([path, text]) => `${path}: ${text}`);
    assert.deepEqual(plain, [], 'run node scripts/localise-manifest.mjs');
  });

  it('has every %key% the manifest uses in both languages, and no key nothing uses', () => {
    const used = new Set(strings.map(([, text]) => keyOf(text)).filter((key) => key !== undefined));
    for (const key of used) {
      assert.ok(english[key], `${key} is missing in package.nls.json`);
      assert.ok(chinese[key], `${key} is missing in package.nls.zh-cn.json`);
    }
    assert.deepEqual(
      Object.keys(english).filter((key) => !used.has(key)),
      [],
      'keys of package.nls.json nothing uses',
    );
    assert.deepEqual(Object.keys(chinese).sort(), Object.keys(english).sort(), 'the same keys in both files');
  });

  it('translates every string into Chinese, keeping command links and code as they are', () => {
    for (const [key, text] of Object.entries(english)) {
      const translated = chinese[key] ?? '';
      assert.match(translated, /[\u4e00-\u9fff]/, `${key}: "${translated}" is not Chinese`);
      assert.deepEqual(placeholders(translated), placeholders(text), key);
    }
    assert.equal(chinese['command.addAccount'], '添加账号...');
    assert.match(chinese['viewsWelcome.channels.1'] ?? '', /\[添加账号\]\(command:videoPlatform\.addAccount\)/);
  });
});
