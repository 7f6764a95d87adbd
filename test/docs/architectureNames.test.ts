// docs/ARCHITECTURE.md stays true: every `code` span in it that names a command, a setting, a view, an npm
// script, a file or folder, or a function or type of the project names one that exists.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CONTEXT_KEYS } from '../../src/app/contextKeys';

const root = resolve(__dirname, '../..');
const doc = readFileSync(join(root, 'docs/ARCHITECTURE.md'), 'utf8');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  contributes: {
    commands: { command: string }[];
    views: Record<string, { id: string }[]>;
    configuration: { properties: Record<string, unknown> } | { properties: Record<string, unknown> }[];
  };
};

/** The project's files, as paths from the root (without node_modules, build output and caches). */
function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || ['node_modules', 'dist', 'out'].includes(entry.name)) return [];
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    return entry.isDirectory() ? [`${path}/`, ...filesUnder(path)] : [path];
  });
}
const files = filesUnder('');

/** The `code` spans of the text, outside fenced code blocks (those are examples). */
function codeSpans(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
}

/** A path as the document writes it: from the root, or from a folder it is in (`commands/inputs.ts` in src/app). */
function fileExists(path: string): boolean {
  const wanted = path.replace(/\/$/, '');
  return files.some((file) => {
    const name = file.replace(/\/$/, '');
    return name === wanted || name.endsWith(`/${wanted}`);
  });
}

/** What the build writes (git-ignored): named as the build's output, not found in a fresh checkout. */
const BUILT = /^(dist|schemas\/editor|src\/authoring\/generated)(\/|$)/;

/** The keys of package.json at any depth (`activationEvents`, the menus `view/item/context`, `commandPalette`). */
function manifestKeys(value: unknown, keys = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) manifestKeys(item, keys);
  else if (value && typeof value === 'object')
    for (const [key, inner] of Object.entries(value)) {
      keys.add(key);
      manifestKeys(inner, keys);
    }
  return keys;
}
const MANIFEST_KEYS = manifestKeys(manifest);

function commandLikeNames(): Set<string> {
  const configurations = [manifest.contributes.configuration].flat();
  return new Set([
    ...manifest.contributes.commands.map((command) => command.command),
    ...Object.values(manifest.contributes.views)
      .flat()
      .map((view) => view.id),
    ...configurations.flatMap((configuration) => Object.keys(configuration.properties)),
    ...CONTEXT_KEYS,
  ]);
}

const sources = files
  .filter((file) => /^(src|test|scripts|bench)\/.*\.(ts|mjs)$/.test(file))
  .map((file) => readFileSync(join(root, file), 'utf8'))
  .join('\n');

/** A function, class, type or constant of the project: declared somewhere in its sources. */
function declared(name: string): boolean {
  return new RegExp(
    `(function|class|interface|type|const|let|enum)\\s+${name}\\b|\\b${name}\\??\\s*[(:=]|\\b${name}\\(`,
  ).test(sources);
}

describe('docs/ARCHITECTURE.md names what exists', () => {
  const spans = codeSpans(doc);

  it('commands, views, settings and context keys (videoPlatform.*), in the text and in its examples', () => {
    const known = commandLikeNames();
    const named = [...doc.matchAll(/\bvideoPlatform\.\w+/g)].map((match) => match[0]);
    assert.ok(named.length > 5, `only ${named.length} names found: the extraction broke`);
    assert.deepEqual(
      [...new Set(named)].filter((name) => !known.has(name)),
      [],
    );
  });

  it('npm scripts', () => {
    const missing = spans
      .map((span) => /^npm (?:run )?([\w:-]+)$/.exec(span)?.[1])
      .filter((script): script is string => script !== undefined && script !== 'test' && !(script in manifest.scripts));
    assert.deepEqual(missing, []);
  });

  it('files and folders', () => {
    const paths = spans.filter(
      (span) => /^[\w.-]+(\/[\w.-]+)*\/?$/.test(span) && (span.includes('/') || /\.(ts|mjs|json|md|js)$/.test(span)),
    );
    assert.ok(paths.length > 20, `only ${paths.length} paths found: the extraction broke`);
    assert.deepEqual(
      paths.filter((path) => !BUILT.test(path) && !MANIFEST_KEYS.has(path) && !fileExists(path)),
      [],
    );
  });

  it('paths written in the prose (src/app/ask/wizard.ts) and in the examples', () => {
    const paths = [
      ...doc.matchAll(/(?<![\w./<*-])(?:src|test|scripts|bench|docs|schemas|snippets|l10n)\/[\w./-]*\w\/?/g),
    ]
      .map((match) => match[0])
      .filter((path) => !BUILT.test(path));
    assert.ok(paths.length > 20, `only ${paths.length} paths found: the extraction broke`);
    assert.deepEqual(
      [...new Set(paths)].filter((path) => !fileExists(path)),
      [],
    );
  });

  it('functions, classes and types of the code', () => {
    // `name()`, `Name`, `name(args)`, `a.b.c(...)`: the first name of each.
    const names = spans
      .map((span) => /^([A-Za-z_]\w*)(\(.*\))?$/.exec(span))
      .filter(
        (match): match is RegExpExecArray => match !== null && (match[2] !== undefined || /[A-Z]/.test(match[1]!)),
      )
      .map((match) => match[1]!);
    assert.ok(names.length > 20, `only ${names.length} names found: the extraction broke`);
    assert.deepEqual(
      [...new Set(names)].filter((name) => !MANIFEST_KEYS.has(name) && !declared(name)),
      [],
    );
  });
});
