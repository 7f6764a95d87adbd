// Entry for running the extension-host suite without @vscode/test-cli (offline, through code-server's VS Code,
// see scripts/e2e/run.mjs): VS Code calls run() inside the extension host. It runs every *.test.js beside this
// file with mocha and, when VPT_TEST_RESULTS names a file, writes each test's outcome there as JSON.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

interface TestOutcome {
  title: string;
  state: 'passed' | 'failed';
  durationMs?: number;
  error?: string;
}

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec' });
  for (const file of readdirSync(__dirname)
    .filter((name) => name.endsWith('.test.js'))
    .sort()) {
    mocha.addFile(join(__dirname, file));
  }
  const tests: TestOutcome[] = [];
  let error: string | undefined;
  try {
    await new Promise<void>((resolve) => {
      const runner = mocha.run(() => resolve());
      runner.on('pass', (test) => tests.push({ title: test.fullTitle(), state: 'passed', durationMs: test.duration }));
      runner.on('fail', (test, err: Error) =>
        tests.push({ title: test.fullTitle(), state: 'failed', error: err.stack ?? String(err) }),
      );
    });
  } catch (caught) {
    error = caught instanceof Error ? caught.stack : String(caught);
  }
  const resultsFile = process.env.VPT_TEST_RESULTS;
  if (resultsFile) writeFileSync(resultsFile, JSON.stringify({ tests, error }, null, 2));
  const failed = tests.filter((t) => t.state === 'failed').length;
  if (error || failed > 0) throw new Error(`${failed} extension-host test(s) failed${error ? `: ${error}` : ''}`);
}
