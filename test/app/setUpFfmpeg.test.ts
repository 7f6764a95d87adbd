import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installInstructions, setUpFfmpeg } from '../../src/app/commands/setUpFfmpeg';
import { findMediaTools, NO_SYSTEM_FFMPEG, systemFfmpegHidden } from '../../src/media/tools';
import { createHarness, type Harness } from './helpers/harness';
import { choose, openFiles } from './helpers/scriptedUi';

describe('ffmpeg in the extension: the status bar, the log and Set Up ffmpeg', () => {
  let tmp: string;
  let h: Harness | undefined;
  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'vp-setup-ffmpeg-'));
  });
  afterEach(async () => {
    await h?.dispose();
    h = undefined;
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  /** A folder whose `ffmpeg` is this script (a wrapper of the real ffmpeg, or a broken one). */
  function folderWith(name: string, script: string): string {
    const dir = join(tmp, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'ffmpeg'), `#!/bin/sh\n${script}\n`);
    chmodSync(join(dir, 'ffmpeg'), 0o755);
    return dir;
  }

  async function wrappedFfmpeg(name: string): Promise<string> {
    const mode = await findMediaTools({ npmFallback: true });
    if (mode.kind !== 'real') throw new Error(mode.reason);
    return folderWith(name, `exec '${mode.tools.ffmpeg}' "$@"`);
  }

  it('without ffmpeg: the status bar says No ffmpeg, and it and the log say what works without it, once', async () => {
    h = await createHarness({ ffmpegPath: join(tmp, 'empty') });
    const status = await h.ctx.inspection.tools.status(h.log);
    assert.equal(status.found, false);
    assert.equal(status.text, '$(warning) No ffmpeg');
    assert.match(status.tooltip, /ffmpeg is not available: no ffmpeg in .*empty; install ffmpeg/);
    assert.match(status.tooltip, /Works without ffmpeg: stream and file inspection, authoring .* over REST\./);
    assert.match(
      status.tooltip,
      /Needs ffmpeg: stills, the contact sheet, Preview, Evaluate Template Group, and real transcoding and live/,
    );
    const logged = h.log.lines.filter((line) => line.startsWith('warn '));
    assert.equal(logged.length, 3, h.log.text());
    assert.match(logged[1]!, /^warn Works without ffmpeg/);
    await h.ctx.inspection.tools.status(h.log);
    assert.equal(h.log.lines.filter((line) => line.startsWith('warn ')).length, 3, 'not logged again');
  });

  it('Set Up ffmpeg: a chosen folder with a working ffmpeg is checked, saved in the setting and used', async () => {
    h = await createHarness({ ffmpegPath: join(tmp, 'empty') });
    const dir = await wrappedFfmpeg('good');
    h.ui.script(choose('Choose the folder that holds ffmpeg'), openFiles(dir));
    const mode = await h.run(setUpFfmpeg);
    assert.equal(mode?.kind, 'real', JSON.stringify(mode));
    assert.equal(h.ctx.inspection.tools.folder(), dir);
    assert.equal(h.ui.asked[0]?.title, `ffmpeg is not available: no ffmpeg in ${join(tmp, 'empty')}; ${installHint()}`);
    assert.match(h.ui.infos.join('\n'), new RegExp(`ffmpeg \\S+ in ${dir} is used from now on`));
    assert.match(h.log.text(), new RegExp(`info ffmpeg \\S+ found: ${join(dir, 'ffmpeg')}`));
    const status = await h.ctx.inspection.tools.status(h.log);
    if (systemFfmpegHidden()) {
      // As on a fresh machine, the extension's own look skips the setting too.
      assert.match(status.tooltip, new RegExp(`${NO_SYSTEM_FFMPEG} hides all but the npm packages`));
    } else {
      assert.equal(status.found, true);
      assert.equal(
        status.log[0],
        `ffmpeg ${/ffmpeg (\S+) in/.exec(h.ui.infos.join())?.[1]} found: ${join(dir, 'ffmpeg')}`,
      );
    }
  });

  it('Set Up ffmpeg: a folder whose ffmpeg fails its check is refused and the setting keeps its value', async () => {
    const before = join(tmp, 'empty');
    h = await createHarness({ ffmpegPath: before });
    const dir = folderWith('broken', 'echo "cannot execute binary file" >&2\nexit 1');
    h.ui.script(choose('Choose the folder that holds ffmpeg'), openFiles(dir));
    assert.equal(await h.run(setUpFfmpeg), undefined);
    assert.equal(h.ctx.inspection.tools.folder(), before);
    assert.match(
      h.ui.errors.join('\n'),
      /Set up ffmpeg failed: videoPlatform\.ffmpegPath was not changed: ffmpeg did not pass its check \(.*broken\/ffmpeg: ffmpeg failed \(exit code 1\): cannot execute binary file/,
    );
  });

  it('Set Up ffmpeg: opens the install instructions for this system, or clears the setting', async () => {
    h = await createHarness({ ffmpegPath: join(tmp, 'empty') });
    h.ui.script(choose('Open the install instructions for'));
    await h.run(setUpFfmpeg);
    assert.deepEqual(h.ui.opened, [installInstructions().url]);
    assert.equal(installInstructions('darwin').url, 'https://formulae.brew.sh/formula/ffmpeg');
    h.ui.script(choose('Clear the setting'));
    await h.run(setUpFfmpeg);
    assert.equal(h.ctx.inspection.tools.folder(), '');
  });
});

function installHint(): string {
  return 'install ffmpeg (Debian/Ubuntu: `apt-get install ffmpeg`, macOS: `brew install ffmpeg`, Windows: `winget install ffmpeg`) or set videoPlatform.ffmpegPath / --ffmpeg DIR to the folder that holds ffmpeg';
}
