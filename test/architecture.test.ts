// The layering of docs/ARCHITECTURE.md, read from the import declarations (parsed with the TypeScript compiler
// API, so type-only imports, re-exports, `import()` and `require()` count, and comments or strings do not).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const root = resolve(__dirname, '..');

/** The rooms of src/ and the rooms each may import from (besides itself and Node's or npm's modules). */
const ALLOWED: Record<string, readonly string[]> = {
  api: [],
  media: [],
  // The translator: every room that shows text to a user may use it; the platform's rooms keep their English.
  l10n: [],
  inspector: ['media', 'l10n'],
  localPlatform: ['api', 'media', 'inspector'],
  authoring: ['api', 'l10n'],
  app: ['api', 'authoring', 'localPlatform', 'media', 'inspector', 'l10n'],
  vscode: ['api', 'authoring', 'localPlatform', 'media', 'inspector', 'app', 'l10n'],
};

/**
 * The rooms inside src/localPlatform (docs/ARCHITECTURE.md, src/localPlatform/README.md) and what each may import
 * of the others: the store is the floor (its only outside name is the platform's refusal, http/faults.ts); the
 * top of the folder (server.ts and what it composes) may use them all.
 */
const PLATFORM_ALLOWED: Record<string, readonly string[]> = {
  store: ['http/faults.ts'],
  http: [
    'store',
    'actions',
    'media/router.ts',
    'media/upload.ts',
    'media/tokens.ts',
    'live/router.ts',
    'live/liveMedia.ts',
  ],
  actions: ['store', 'http', 'live', 'transcoder.ts'],
  demo: ['store', 'actions', 'transcoder.ts'],
  media: ['store', 'http', 'actions', 'live', 'demo', 'accounts.ts', 'transcoder.ts', 'faults'],
  live: ['store', 'http', 'actions', 'media', 'accounts.ts', 'faults'],
  callbacks: ['store', 'http', 'actions', 'live/pullSource.ts', 'accounts.ts'],
  faults: ['store', 'http', 'actions', 'live/tsShift.ts'],
};

/** Where VS Code's API may be imported: the shell, and the suite that runs inside the extension host. */
const VSCODE_ALLOWED = ['src/vscode/', 'test/vscode/'];

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return filesUnder(path);
    return /\.(ts|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every module a source file names: import and export declarations, `import x = require()`, import() and require(). */
export function importsOf(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier)
      found.push((node.moduleSpecifier as ts.StringLiteral).text);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      found.push((node.moduleReference.expression as ts.StringLiteral).text);
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    )
      found.push(node.arguments[0].text);
    else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    )
      found.push(node.argument.literal.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The room (src/<room>/...) a path of the repository is in, or undefined outside src/. */
function roomOf(path: string): string | undefined {
  const parts = path.split('/');
  return parts[0] === 'src' && parts.length > 2 ? parts[1] : undefined;
}

interface Edge {
  readonly from: string;
  /** `vscode`, a package, or a repository path (for relative imports). */
  readonly to: string;
}

function edges(files: readonly string[]): Edge[] {
  return files.flatMap((file) =>
    importsOf(file, readFileSync(join(root, file), 'utf8')).map((specifier) => ({
      from: file,
      to: specifier.startsWith('.')
        ? relative(root, resolve(root, dirname(file), specifier))
            .split(sep)
            .join('/')
        : specifier,
    })),
  );
}

describe('Layering: who may import whom (docs/ARCHITECTURE.md)', () => {
  const all = edges([...filesUnder('src'), ...filesUnder('test'), ...filesUnder('bench'), ...filesUnder('scripts')]);

  it('reads imports of every kind from the syntax, not from text', () => {
    const text = [
      "import type { X } from 'vscode';",
      "export { y } from '../vscode/views';",
      "import z = require('./z');",
      "const w = import('./w');",
      "type V = import('./v').V;",
      "// import { no } from 'a-comment';",
      'const s = "import { no } from \'a-string\'";',
    ].join('\n');
    assert.deepEqual(importsOf('src/app/example.ts', text), ['vscode', '../vscode/views', './z', './w', './v']);
  });

  it("only src/vscode (and the extension-host suite) imports 'vscode', not even for types", () => {
    const offending = all.filter(
      (edge) => edge.to === 'vscode' && !VSCODE_ALLOWED.some((prefix) => edge.from.startsWith(prefix)),
    );
    assert.deepEqual(offending, []);
    assert.ok(
      all.some((edge) => edge.to === 'vscode' && edge.from.startsWith('src/vscode/')),
      'the shell does',
    );
  });

  it('nothing outside src/vscode imports src/vscode', () => {
    const offending = all.filter(
      (edge) => (edge.to === 'src/vscode' || edge.to.startsWith('src/vscode/')) && !edge.from.startsWith('src/vscode/'),
    );
    assert.deepEqual(offending, []);
  });

  it('each room of src/ imports only the rooms below it; src/api nothing of the project outside src/api', () => {
    const offending = all.filter((edge) => {
      const from = roomOf(edge.from);
      const to = edge.to.startsWith('src/') ? roomOf(edge.to) : undefined;
      if (!from || !edge.to.startsWith('src/')) return false;
      return to !== from && !(to !== undefined && ALLOWED[from]?.includes(to));
    });
    assert.deepEqual(offending, []);
    assert.deepEqual(
      Object.keys(ALLOWED).sort(),
      readdirSync(join(root, 'src'), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort(),
      'every room of src/ has its rule',
    );
  });

  it('inside src/localPlatform, each room imports only what its rule names (the store nothing above it)', () => {
    const prefix = 'src/localPlatform/';
    const roomIn = (path: string): string | undefined => {
      const parts = path.slice(prefix.length).split('/');
      return parts.length > 1 ? parts[0] : undefined;
    };
    const offending = all.filter((edge) => {
      if (!edge.from.startsWith(prefix) || !edge.to.startsWith(prefix)) return false;
      const from = roomIn(edge.from);
      const target = edge.to.slice(prefix.length).replace(/(\.ts)?$/, '.ts');
      if (!from || roomIn(edge.to) === from) return false;
      const allowed = PLATFORM_ALLOWED[from] ?? [];
      return !allowed.some((name) => target === name || target.startsWith(`${name}/`));
    });
    assert.deepEqual(offending, []);
    assert.deepEqual(
      Object.keys(PLATFORM_ALLOWED).sort(),
      readdirSync(join(root, 'src/localPlatform'), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort(),
      'every room of src/localPlatform has its rule',
    );
  });
});
