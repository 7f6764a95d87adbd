/**
 * A platform that dies at the worst moment (test/localPlatform/security.orphans.test.ts): it starts an ffmpeg
 * the way the platform does (media/engine.ts `watched`: listed with the watchdog, its mark in the environment),
 * but is killed with SIGKILL after `spawn` returned and before the process id reached the watchdog. It writes
 * that id to the file named by its first argument first, so the test can look for it.
 */
import { writeFileSync } from 'node:fs';
import { Watchdog } from '../../src/localPlatform/live/watchdog';
import { watched } from '../../src/localPlatform/media/engine';
import { runTool } from '../../src/media/tools';

const [pidFile, ffmpeg] = process.argv.slice(2);
const watchdog = new Watchdog();
watchdog.start();
const diesBeforeListing = {
  watch(pid: number | undefined): void {
    writeFileSync(pidFile, String(pid));
    process.kill(process.pid, 'SIGKILL');
  },
  forget(): void {},
};
// A run of minutes: it would outlive the test if nothing killed it.
void runTool(
  ffmpeg,
  [
    '-nostdin',
    '-v',
    'error',
    '-re',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=160x90:rate=25',
    '-t',
    '300',
    '-f',
    'null',
    '-',
  ],
  { ...watched(watchdog), track: diesBeforeListing },
);
