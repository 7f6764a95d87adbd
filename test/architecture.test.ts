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
});
