/**
 * The media command lines' shared prologue (src/media/commandLine.ts) as a user meets it: `npm run qa` and
 * `npm run ladder` run as processes, each refusing a bad option with the option named and exit code 2, and each
 * stopping on SIGTERM / SIGINT with exit code 130 and no ffmpeg left behind.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findMediaTools, runTool } from '../../src/media/tools';
import { groupDocument } from '../app/helpers/ladderGroups';
import { eventually } from '../helpers/eventually';
import { commandsWith } from '../localPlatform/live/media';

/** ffmpeg processes reading `file` (not the command line itself, whose arguments name it too). */
const ffmpegOn = (file: string): string[] => commandsWith(file).filter((command) => !command.includes('cli.ts'));

const ROOT = join(__dirname, '..', '..');
const QA = join(ROOT, 'src', 'media', 'qa', 'cli.ts');
const LADDER = join(ROOT, 'src', 'app', 'ladder', 'cli.ts');

interface Run {
  stderr(): string;
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
}

function run(script: string, args: string[]): Run {
  const child = spawn(process.execPath, ['-r', 'tsx/cjs', script, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { stderr: () => err, exited, kill: (signal) => child.kill(signal) };
}

describe('media command lines: options, ffmpeg, stopping (npm run qa, npm run ladder)', function () {
  this.timeout(90_000);
  let dir: string;
  let clip: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vpt-cli-'));
    const mode = await findMediaTools({ npmFallback: true });
    if (mode.kind !== 'real') throw new Error(`needs ffmpeg: ${mode.reason}`);
    // Long enough that the checks are still running when the signal comes (small, so it is made in a moment).
    clip = join(dir, 'long-clip.mp4');
    await runTool(
      mode.tools.ffmpeg,
      [
        ...[
          '-v',
          'error',
          '-f',
          'lavfi',
          '-i',
          'testsrc2=size=160x90:rate=25',
          '-f',
          'lavfi',
          '-i',
          'sine=frequency=440',
        ],
        ...['-t', '600', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-y', clip],
      ],
      { timeoutMs: 60_000 },
    );
  });
  let group: string;
  before(() => {
    group = join(dir, 'small.templategroup.json');
    writeFileSync(group, groupDocument('Small', [{ name: '90p', size: [160, 90], kbps: 100, default: true }]));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses an unknown option or a missing value naming it, with the usage and exit code 2', async () => {
    const qa = run(QA, ['a.mp4', '--bogus']);
    assert.equal(await qa.exited, 2);
    assert.match(qa.stderr(), /^qa: Unknown option '--bogus'; usage: npm run qa -- FILE/);
    const ladder = run(LADDER, ['--reference', 'builtin', '--group']);
    assert.equal(await ladder.exited, 2);
    assert.match(ladder.stderr(), /^ladder: Option '--group <value>' argument missing; usage: npm run ladder/);
    const extra = run(LADDER, ['--group', 'g.json', '--reference', 'builtin', 'stray']);
    assert.equal(await extra.exited, 2);
    assert.match(extra.stderr(), /^ladder: Unexpected argument 'stray'/);
  });

  it('says it could not evaluate, naming the group file that is not there, with exit code 2', async () => {
    const missing = run(LADDER, ['--group', join(dir, 'nope.templategroup.json'), '--reference', 'builtin']);
    assert.equal(await missing.exited, 2);
    assert.match(missing.stderr(), /^ladder: could not evaluate: ENOENT.*nope\.templategroup\.json/);
  });

  for (const [name, script, args, signal] of [
    ['qa', QA, () => [clip], 'SIGTERM'],
    ['qa', QA, () => [clip], 'SIGINT'],
    ['ladder', LADDER, () => ['--group', group, '--reference', clip, '--seconds', '120'], 'SIGTERM'],
  ] as const) {
    it(`${name} stops on ${signal}: exit code 130, "stopped", no ffmpeg left`, async () => {
      const child = run(script, args());
      // The checks are under way once ffmpeg reads the clip.
      await eventually('ffmpeg reading the clip', () => ffmpegOn(clip).length > 0, 30_000);
      child.kill(signal);
      assert.equal(await child.exited, 130);
      assert.match(child.stderr(), new RegExp(`${name}: stopped`));
      await eventually('no ffmpeg on the clip', () => ffmpegOn(clip).length === 0, 10_000);
    });
  }
});
