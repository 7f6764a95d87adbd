// Bundles the extension-host suite (test/vscode/*.ts) into out/test/vscode/*.js: the extension host loads
// plain CommonJS. `vscode` and `mocha` stay external (the host provides vscode; mocha resolves from node_modules).
import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const sourceDir = join(root, 'test', 'vscode');
const outDir = join(root, 'out', 'test', 'vscode');
const entryPoints = readdirSync(sourceDir)
  .filter((name) => name === 'index.ts' || name.endsWith('.test.ts'))
  .map((name) => join(sourceDir, name));

rmSync(outDir, { recursive: true, force: true });
await esbuild.build({
  entryPoints,
  outdir: outDir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'inline',
  external: ['vscode', 'mocha'],
  logLevel: 'warning',
});
