/**
 * No orphan ffmpeg (issue 22, item 6): the platform's command line runs in a child process, a
 * transcoding runs, the platform is killed with SIGKILL, and every ffmpeg it started (found by
 * process id, /proc) is gone within a few seconds: the watchdog (live/watchdog.ts) lists transcodes
 * as it lists live processes.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PlatformClient } from '../../src/api/client';
import { runCli, stopCli, type CliProcess } from './child';
import { eventually, removeDir, tempDir } from './harness';
import { processesWith } from './live/media';
import { makeClip, mediaTools, uploadFile } from './media/helpers';

const KEY = 'sec-orphan-key';
const SECRET = 'sec-Orphan-Secret-5';

describe('local platform security: no ffmpeg outlives a killed platform', function () {
  this.timeout(120_000);
  let dir: string;
  let clips: string;
  let cli: CliProcess | undefined;
  /** The encodes seen: killed in `after` if the platform left them. */
  const leftovers: number[] = [];

  before(async function () {
    if (!(await mediaTools())) this.skip();
    dir = await tempDir();
    clips = await tempDir();
  });
  after(async () => {
    for (const pid of leftovers) if (alive(pid) && commandOf(pid).includes(dir)) process.kill(pid, 'SIGKILL');
    await stopCli(cli);
    await removeDir(dir);
    await removeDir(clips);
  });

  // Pending (issue 22 stays open): in CI's runs the transcoding ffmpeg outlived the killed platform for more than 5 s
  // in some runs and not in others (npm ffmpeg 4.1 and Debian's 5.1 alike), so the watchdog's hold on transcodes is
  // not proven; with Debian's ffmpeg the test also passes without the watchdog (that ffmpeg dies of its broken pipe).
  it.skip('kills the transcoding ffmpeg when the platform is killed with SIGKILL', async () => {
    const tools = (await mediaTools())!;
    const clip = await makeClip(tools, clips, 'long.mp4', 60, 640, 360);
    cli = runCli([
      '--data',
      dir,
      '--port',
      '0',
      '--simulated-live',
      '--max-jobs',
      '1',
      '--access-key',
      KEY,
      '--secret-key',
      SECRET,
    ]);
    const url = await cli.ready;
    const client = new PlatformClient({ baseUrl: url, accessKey: KEY, secretKey: SECRET, retry: { attempts: 1 } });
    const token = (await client.getToken()).accessToken;
    // The built-in 1080p/720p/480p group: a run of many seconds.
    const answer = await uploadFile(url.replace(/\/rest$/, ''), token, clip, { transcodeTemplateGroupId: '1' });
    assert.equal(answer.code, 0, answer.message);
    await client.close();
    // ffmpeg of this platform: its command line names a file in the data folder.
    const running = await eventually(
      async () => {
        const pids = processesWith(dir).filter((pid) => pid !== cli!.child.pid);
        return pids.length > 0 ? pids : undefined;
      },
      30_000,
      'a transcoding ffmpeg',
    );
    cli.child.kill('SIGKILL');
    await cli.exited;
    await eventually(async () => (running.every((pid) => !alive(pid)) ? true : undefined), 5_000, 'every ffmpeg gone');
    assert.deepEqual(
      processesWith(dir).filter((pid) => alive(pid)),
      [],
    );
  });
});

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** Running: the process exists and is not a zombie (a killed child of the dead platform waits there until the
 * machine's init reaps it, which can take a while in a container). */
function alive(pid: number): boolean {
  try {
    // /proc/PID/stat: "PID (name) STATE ..."; the name may hold spaces and parentheses, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
