// Writes l10n/bundle.l10n.json: every `l10n.t('English text {0}', ...)` of src/ (the strings VS Code looks up in
// l10n/bundle.l10n.<lang>.json). `npx @vscode/l10n-dev export` alone skips the core (src/app, src/authoring, src/inspector), whose files may not
// import `vscode` (docs/ARCHITECTURE.md): the analyzer reads only files that do, so each file is handed to it with
// that import in front. Then translate the new strings in l10n/bundle.l10n.zh-cn.json
// (test/app/l10nBundle.test.ts says which are missing). Usage: npm run l10n:export
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getL10nJson } from '@vscode/l10n-dev';

const root = join(import.meta.dirname, '..');

/** The source files that call l10n.t, as the analyzer wants them. */
function l10nSources(folder = join(root, 'src')) {
  return readdirSync(folder, { recursive: true })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => readFileSync(join(folder, name), 'utf8'))
    .filter((contents) => contents.includes('l10n.t('))
    .map((contents) => ({ extension: '.ts', contents: `import * as vscode from 'vscode';\n${contents}` }));
}

/**
 * The sentences of schemas/*.schema.json that problems quote (src/authoring/schemaTexts.ts, schemaSentences: the same
 * walk): errorMessage, patternErrorMessage, enumDescriptions (and their first words) and the description of each
 * required field.
 */
function schemaSentences(node, into = new Set()) {
  if (Array.isArray(node)) {
    for (const item of node) schemaSentences(item, into);
    return into;
  }
  if (!node || typeof node !== 'object') return into;
  const add = (text) => {
    if (typeof text === 'string' && /[a-z]{2}/.test(text)) into.add(text);
  };
  add(node.errorMessage);
  add(node.patternErrorMessage);
  if (Array.isArray(node.enumDescriptions))
    for (const meaning of node.enumDescriptions) {
      add(meaning);
      // Its first words, a fix's title ("Use 1 (push)").
      if (typeof meaning === 'string') add(meaning.split(/[:(.]/)[0].trim());
    }
  if (Array.isArray(node.required) && node.properties)
    for (const name of node.required) add(node.properties[String(name)]?.description);
  for (const value of Object.values(node)) schemaSentences(value, into);
  return into;
}

const schemaFolder = join(root, 'schemas');
const sentences = new Set();
for (const name of readdirSync(schemaFolder).filter((file) => file.endsWith('.schema.json')))
  schemaSentences(JSON.parse(readFileSync(join(schemaFolder, name), 'utf8')), sentences);

const bundle = { ...(await getL10nJson(l10nSources())) };
for (const sentence of sentences) bundle[sentence] ??= sentence;
// The snippets' descriptions, shown beside each vp- snippet (src/authoring/snippets.ts, snippetDescription).
const snippets = JSON.parse(readFileSync(join(root, 'snippets', 'video-platform.json'), 'utf8'));
for (const { description } of Object.values(snippets)) bundle[description] ??= description;
const sorted = Object.fromEntries(Object.entries(bundle).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(join(root, 'l10n', 'bundle.l10n.json'), JSON.stringify(sorted, null, 2) + '\n');
console.log(`l10n/bundle.l10n.json: ${Object.keys(sorted).length} strings`);
