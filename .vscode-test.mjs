// @vscode/test-cli configuration for `npm run test:vscode` (downloads VS Code, so it needs the internet).
// Offline, `npm run test:e2e` runs the same suite inside code-server's VS Code (see scripts/e2e/run.mjs).
import { defineConfig } from '@vscode/test-cli';
import { mkdirSync } from 'node:fs';

// An empty folder to open (.vscode-test/ is git-ignored; test-electron keeps its VS Code download there too).
const workspace = '.vscode-test/workspace';
mkdirSync(workspace, { recursive: true });

export default defineConfig({
  label: 'extension host',
  files: 'out/test/vscode/**/*.test.js',
  version: 'stable',
  workspaceFolder: workspace,
  launchArgs: ['--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
  mocha: { ui: 'bdd', timeout: 60_000, color: true },
});
