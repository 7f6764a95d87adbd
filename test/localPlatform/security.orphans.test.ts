/**
 * No orphan ffmpeg (issue 22, item 6): the platform's command line runs in a child process with a transcoding,
 * a pull relay and its ladder running, the platform is killed with SIGKILL, and every ffmpeg it started (its
 * children, found in /proc) is gone within a few seconds. And a platform killed between starting an ffmpeg and
 * listing it with the watchdog leaves none either (the watchdog's mark in the environment, live/watchdog.ts).
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PlatformClient } from '../../src/api/client';
import { runCli, stopCli, type CliProcess } from './child';
import { eventually } from '../helpers/eventually';
import { removeDir, tempDir } from './harness';
import { makeClip, mediaTools, uploadFile } from './media/helpers';

const KEY = 'sec-orphan-key';
const SECRET = 'sec-Orphan-Secret-5';

describe('local platform security: no ffmpeg outlives a killed platform', function () {
  this.timeout(120_000);
  let dir: string;
  let clips: string;
  let cli: CliProcess | undefined;
  /** Every ffmpeg seen: killed in `after` if the platform left them, so a failure leaves nothing running. */
  const leftovers = new Set<number>();

  before(async function () {
    if (!(await mediaTools())) this.skip();
    dir = await tempDir();
    clips = await tempDir();
  });
  after(async () => {
    for (const pid of leftovers) if (alive(pid) && nameOf(pid) === 'ffmpeg') process.kill(pid, 'SIGKILL');
    await stopCli(cli);
    await removeDir(dir);
    await removeDir(clips);
  });

  it('kills the transcoding ffmpeg, the pull relay and the ladder when the platform is killed with SIGKILL', async () => {
    const tools = (await mediaTools())!;
    const clip = await makeClip(tools, clips, 'long.mp4', 60, 640, 360);
    cli = runCli([
      ...['--data', dir, '--port', '0', '--rtmp-port', '0', '--max-jobs', '1'],
      ...['--access-key', KEY, '--secret-key', SECRET],
    ]);
    const url = await cli.ready;
    const platformPid = cli.child.pid!;
    const client = new PlatformClient({ baseUrl: url, accessKey: KEY, secretKey: SECRET, retry: { attempts: 1 } });
    const t = await client.liveTemplateCreate({
      displayName: 'Tiny',
      videoWidth: 160,
      videoHeight: 90,
      videoBitrate: 150,
    });
    const group = { protocolType: 1 as const, outputTemplateList: [{ templateId: t.id, isDefault: '1' as const }] };
    // With an RTMP group beside its HLS one the pattern is not looped (patternLoop.ts): a relay and a ladder run.
    const channel = await client.liveCreateChannel({
      name: 'Pattern',
      signalType: '2',
      pullStream: 'testsrc://160x90',
      outputGroupList: [group, { ...group, protocolType: 2 }],
    });
    await client.liveStartChannel(channel.id);
    await eventually(
      'the relay and the ladder',
      async () => (ffmpegChildren(platformPid).length >= 2 ? true : undefined),
      30_000,
    );
    const token = (await client.getToken()).accessToken;
    // The built-in 1080p/720p/480p group: a run of many seconds.
    const answer = await uploadFile(url.replace(/\/rest$/, ''), token, clip, { transcodeTemplateGroupId: '1' });
    assert.equal(answer.code, 0, answer.message);
    await client.close();
    // Killed while the transcoding's first encode runs (its command line names its work folder).
    await eventually(
      'a transcoding ffmpeg',
      async () =>
        ffmpegChildren(platformPid).some((pid) => commandOf(pid).includes('/media/work/')) ? true : undefined,
      30_000,
    );
    const running = ffmpegChildren(platformPid);
    for (const pid of running) leftovers.add(pid);
    assert.ok(running.length >= 3, `a relay, a ladder and a transcoding run: ${running.length}`);
    cli.child.kill('SIGKILL');
    await cli.exited;
    await eventually('every ffmpeg gone', async () => (running.every((pid) => !alive(pid)) ? true : undefined), 5_000);
  });

  it('kills an ffmpeg started by a platform killed before it listed the process with its watchdog', async () => {
    const tools = (await mediaTools())!;
    const pidFile = join(clips, 'started.pid');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(__dirname, 'security.orphansChild.ts'), pidFile, tools.ffmpeg],
      {
        stdio: 'ignore',
      },
    );
    const exit = await new Promise<string | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    assert.equal(exit, 'SIGKILL', 'the platform died in the window');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    leftovers.add(pid);
    assert.ok(pid > 0);
    await eventually(`ffmpeg ${pid} gone`, async () => (alive(pid) ? undefined : true), 5_000);
  });
});

/** The ffmpeg processes whose parent is `parent` (Linux /proc). */
function ffmpegChildren(parent: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (stat && stat.ppid === parent && stat.name === 'ffmpeg' && stat.state !== 'Z') found.push(Number(entry));
  }
  return found;
}

/** /proc/PID/stat: "PID (name) STATE PPID ..."; the name may hold spaces and parentheses, so read after the last ')'. */
function statOf(pid: number): { name: string; state: string; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const [state, ppid] = stat.slice(close + 2).split(' ');
    return { name: stat.slice(stat.indexOf('(') + 1, close), state, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

function nameOf(pid: number): string | undefined {
  return statOf(pid)?.name;
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** Running: the process exists and is not a zombie (a killed child of the dead platform waits there until the
 * machine's init reaps it, which can take a while in a container). */
function alive(pid: number): boolean {
  const state = statOf(pid)?.state;
  return state !== undefined && state !== 'Z' && state !== 'X';
}
