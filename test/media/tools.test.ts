import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMedia } from '../../src/media/read';
import { describeMediaMode, findMediaTools, frameRate, runTool, ToolError } from '../../src/media/tools';

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

  it('falls back to simulation with a reason and the way to install, when nothing is found', async () => {
    const mode = await findMediaTools({ env: { PATH: tmp }, npmFallback: false });
    assert.equal(mode.kind, 'simulated');
    assert.match(describeMediaMode(mode), /simulated media \(ffmpeg not found; install ffmpeg/);
  });

  it('reports an explicit folder without the tools instead of looking elsewhere', async () => {
    const mode = await findMediaTools({ dir: tmp, npmFallback: true });
    assert.equal(mode.kind, 'simulated');
    assert.match(mode.kind === 'simulated' ? mode.reason : '', new RegExp(`no ffmpeg and ffprobe in ${tmp}`));
  });

  it('says when a found ffmpeg does not run', async () => {
    const dir = join(tmp, 'broken');
    require('node:fs').mkdirSync(dir);
    for (const name of ['ffmpeg', 'ffprobe']) {
      writeFileSync(join(dir, name), '#!/bin/sh\necho broken >&2\nexit 3\n');
      chmodSync(join(dir, name), 0o755);
    }
    const mode = await findMediaTools({ env: { PATH: dir } });
    assert.equal(mode.kind, 'simulated');
    assert.match(mode.kind === 'simulated' ? mode.reason : '', /ffmpeg did not run .*exit code 3.*broken/);
  });

  it('passes arguments as they are, without a shell, and probes what it made', async () => {
    const mode = await findMediaTools({ npmFallback: true });
    assert.equal(mode.kind, 'real');
    if (mode.kind !== 'real') return;
    // A file name a shell would act on: it must be taken literally.
    const out = join(tmp, 'clip $(touch pwned) ; x.mp4');
    await runTool(mode.tools.ffmpeg, [
      '-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=25', '-t', '1',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-y', out,
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
      runTool(mode.tools.ffprobe, ['-v', 'error', join(tmp, 'missing.mp4')]),
      (error: unknown) => error instanceof ToolError && /ffprobe failed \(exit code 1\): .*No such file/.test(error.message),
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
