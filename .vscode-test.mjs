// @vscode/test-cli configuration for `npm run test:vscode` (downloads VS Code, so it needs the internet).
// Offline, `npm run test:e2e` runs the same suite inside code-server's VS Code (see scripts/e2e/run.mjs).
import { defineConfig } from '@vscode/test-cli';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const workspace = mkdtempSync(join(tmpdir(), 'vpt-vscode-test-'));
mkdirSync(workspace, { recursive: true });

export default defineConfig({
  label: 'extension host',
  files: 'out/test/vscode/**/*.test.js',
  version: 'stable',
  workspaceFolder: workspace,
  launchArgs: ['--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
  mocha: { ui: 'bdd', timeout: 60_000, color: true },
});
