import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readMedia } from '../../src/media/read';
import {
  describeMediaMode,
  findMediaTools,
  frameRate,
  NO_SYSTEM_FFMPEG,
  runTool,
  ToolError,
  usualPlaces,
} from '../../src/media/tools';

describe('media tools: finding and running ffmpeg and ffprobe', () => {
  let tmp: string;
  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'vp-tools-'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('finds real tools on the PATH or in the npm packages, with their version', async () => {
    const mode = await findMediaTools({ npmFallback: true });
    assert.equal(mode.kind, 'real', describeMediaMode(mode));
    if (mode.kind !== 'real') return;
    assert.match(mode.tools.version, /\S/);
    assert.match(describeMediaMode(mode), /^real media \(ffmpeg /);
  });

  /** A folder with an `ffmpeg` script (a wrapper of the real one, or a broken one) and nothing else. */
  function folderWith(name: string, script: string): string {
    const dir = join(tmp, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'ffmpeg'), `#!/bin/sh\n${script}\n`);
    chmodSync(join(dir, 'ffmpeg'), 0o755);
    return dir;
  }

  async function realFfmpeg(): Promise<string> {
    const mode = await findMediaTools({ npmFallback: true });
    if (mode.kind !== 'real') throw new Error(describeMediaMode(mode));
    return mode.tools.ffmpeg;
  }

  it('falls back to simulation with a reason and the way to install, when nothing is found', async () => {
    const mode = await findMediaTools({ env: { PATH: tmp }, places: [], npmFallback: false });
    assert.equal(mode.kind, 'simulated');
    assert.match(describeMediaMode(mode), /simulated media \(ffmpeg not found; install ffmpeg/);
  });

  it('reports an explicit folder without ffmpeg instead of looking elsewhere', async () => {
    const mode = await findMediaTools({ dir: tmp, env: { PATH: tmp }, npmFallback: true });
    assert.equal(mode.kind, 'simulated');
    assert.match(mode.kind === 'simulated' ? mode.reason : '', new RegExp(`no ffmpeg in ${tmp}`));
  });

  it('finds ffmpeg in a usual install place when the PATH has none, without ffprobe beside it', async () => {
    const place = folderWith('usual', `exec '${await realFfmpeg()}' "$@"`);
    const mode = await findMediaTools({ env: { PATH: tmp }, places: [join(tmp, 'absent'), place] });
    assert.equal(mode.kind, 'real', describeMediaMode(mode));
    if (mode.kind !== 'real') return;
    assert.equal(mode.tools.source, 'place');
    assert.equal(mode.tools.ffmpeg, join(place, 'ffmpeg'));
    assert.equal(mode.tools.ffprobe, undefined);
  });

  it('skips a broken ffmpeg with the reason and takes the next one', async () => {
    const broken = folderWith('broken', 'echo broken build >&2\nexit 1');
    const place = folderWith('usual-2', `exec '${await realFfmpeg()}' "$@"`);
    const mode = await findMediaTools({ env: { PATH: broken }, places: [place] });
    assert.equal(mode.kind, 'real', describeMediaMode(mode));
    if (mode.kind !== 'real') return;
    assert.equal(mode.tools.ffmpeg, join(place, 'ffmpeg'));
    assert.deepEqual(mode.rejected, [`${join(broken, 'ffmpeg')}: ffmpeg failed (exit code 1): broken build`]);
    assert.match(describeMediaMode(mode), /; skipped .*broken build\)$/);
  });

  it('rejects an ffmpeg that prints a version but cannot encode H.264', async () => {
    // Answers -version like ffmpeg and fails everything else: only the test encode tells.
    const dir = folderWith(
      'no-x264',
      'case "$*" in *-version*) echo "ffmpeg version 9.9-fake"; exit 0;; esac\necho "Unknown encoder libx264" >&2\nexit 1',
    );
    const mode = await findMediaTools({ env: { PATH: dir }, places: [] });
    assert.equal(mode.kind, 'simulated');
    assert.match(
      mode.kind === 'simulated' ? mode.reason : '',
      /ffmpeg did not pass its check \(.*Unknown encoder libx264/,
    );
  });

  it('checks each binary once, and again when it is replaced', async () => {
    const real = await realFfmpeg();
    const runs = join(tmp, 'runs.log');
    const dir = folderWith('counted', `echo run >> '${runs}'\nexec '${real}' "$@"`);
    const count = (): number => (existsSync(runs) ? readFileSync(runs, 'utf8').split('\n').length - 1 : 0);
    for (let i = 0; i < 3; i++) assert.equal((await findMediaTools({ env: { PATH: dir }, places: [] })).kind, 'real');
    assert.equal(count(), 2, 'its version and one test encode, once');
    writeFileSync(join(dir, 'ffmpeg'), `#!/bin/sh\necho run >> '${runs}'\n# replaced\nexec '${real}' "$@"\n`);
    assert.equal((await findMediaTools({ env: { PATH: dir }, places: [] })).kind, 'real');
    assert.equal(count(), 4);
  });

  it(`${NO_SYSTEM_FFMPEG}=1 hides the setting, FFMPEG_DIR, the PATH and the usual places`, async () => {
    const dir = folderWith('hidden', `exec '${await realFfmpeg()}' "$@"`);
    const env = { PATH: dir, FFMPEG_DIR: dir, [NO_SYSTEM_FFMPEG]: '1' };
    const none = await findMediaTools({ dir, env, places: [dir], npmFallback: false });
    assert.equal(none.kind, 'simulated');
    assert.match(none.kind === 'simulated' ? none.reason : '', new RegExp(`${NO_SYSTEM_FFMPEG} hides all but the npm`));
    const npm = await findMediaTools({ dir, env, places: [dir], npmFallback: true });
    assert.equal(npm.kind === 'real' ? npm.tools.source : describeMediaMode(npm), 'npm');
    // A folder that is the npm packages' own still serves: only their ffmpeg runs.
    const npmFolder = dirname(npm.kind === 'real' ? npm.tools.ffmpeg : '');
    const named = await findMediaTools({ dir: npmFolder, env, places: [], npmFallback: false });
    assert.equal(named.kind === 'real' ? named.tools.source : describeMediaMode(named), 'folder');
    const shown = await findMediaTools({ dir, env: { ...env, [NO_SYSTEM_FFMPEG]: '0' }, places: [] });
    assert.equal(shown.kind === 'real' ? shown.tools.source : describeMediaMode(shown), 'folder');
  });

  it('knows the usual install places of each system', () => {
    assert.deepEqual(usualPlaces('linux', {}), ['/usr/local/bin', '/usr/bin', '/snap/bin']);
    assert.ok(usualPlaces('darwin', {}).includes('/opt/homebrew/bin'));
    const windows = usualPlaces('win32', { LOCALAPPDATA: 'L', ProgramData: 'P', USERPROFILE: 'U' });
    assert.deepEqual(windows, [
      join('L', 'Microsoft', 'WinGet', 'Links'),
      join('P', 'chocolatey', 'bin'),
      join('U', 'scoop', 'shims'),
    ]);
  });

  it('passes arguments as they are, without a shell, and probes what it made', async () => {
    const mode = await findMediaTools({ npmFallback: true });
    assert.equal(mode.kind, 'real');
    if (mode.kind !== 'real') return;
    // A file name a shell would act on: it must be taken literally.
    const out = join(tmp, 'clip $(touch pwned) ; x.mp4');
    await runTool(mode.tools.ffmpeg, [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=160x90:rate=25',
      '-t',
      '1',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-y',
      out,
    ]);
    assert.ok(!require('node:fs').existsSync(join(process.cwd(), 'pwned')));
    const read = await readMedia(out);
    assert.equal(read.video?.width, 160);
    assert.equal(read.video?.height, 90);
    assert.equal(read.video?.frameRate, 25);
    assert.ok(Math.abs(read.duration - 1) < 0.1, String(read.duration));
  });

  it('reports a failing run with the tool, the exit code and the end of its error output', async () => {
    const mode = await findMediaTools({ npmFallback: true });
    if (mode.kind !== 'real') return assert.fail('no ffmpeg');
    await assert.rejects(
      runTool(mode.tools.ffmpeg, ['-v', 'error', '-i', join(tmp, 'missing.mp4'), '-f', 'null', '-']),
      (error: unknown) =>
        error instanceof ToolError && /ffmpeg failed \(exit code 1\): .*No such file/.test(error.message),
    );
  });

  it('stops a run on cancel', async () => {
    const mode = await findMediaTools({ npmFallback: true });
    if (mode.kind !== 'real') return assert.fail('no ffmpeg');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    // An endless source: only the cancel ends it.
    const endless = ['-v', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc2', '-f', 'null', '-'];
    await assert.rejects(runTool(mode.tools.ffmpeg, endless, { signal: controller.signal }), { name: 'AbortError' });
  });

  it('reads frame rates', () => {
    assert.equal(frameRate('30000/1001').toFixed(3), '29.970');
    assert.equal(frameRate('0/0'), 0);
    assert.equal(frameRate(undefined), 0);
  });
});
