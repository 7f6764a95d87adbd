/**
 * Makes sure no media process outlives the platform, even after `kill -9` of it: a tiny Node process
 * reads the ids of the platform's ffmpeg processes from a pipe the platform holds; when the pipe
 * closes (the platform is gone, however it ended) it kills every id still listed and exits.
 * (ffmpeg itself does not stop when its standard input closes, so a pipe to it is not enough.)
 */
import { spawn, type ChildProcess } from 'node:child_process';

const SCRIPT = `
const pids = new Set(); let buf = '';
const killAll = () => { for (const p of pids) { try { process.kill(p, 'SIGKILL'); } catch {} } process.exit(0); };
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  buf += d; const lines = buf.split('\\n'); buf = lines.pop();
  for (const l of lines) { const n = Number(l.slice(1)); if (!(n > 0)) continue; if (l[0] === '+') pids.add(n); else pids.delete(n); }
});
process.stdin.on('end', killAll); process.stdin.on('error', killAll);
`;

export class Watchdog {
  private child: ChildProcess | undefined;

  private ensure(): ChildProcess {
    if (this.child && this.child.exitCode === null) return this.child;
    // In the extension host, execPath is the editor's runtime: run it as plain Node.
    const child = spawn(process.execPath, ['-e', SCRIPT], {
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      windowsHide: true,
    });
    child.on('error', () => undefined);
    child.stdin!.on('error', () => undefined);
    // Neither the watchdog nor its pipe keeps the platform's process alive.
    child.unref();
    (child.stdin as unknown as { unref?: () => void }).unref?.();
    this.child = child;
    return child;
  }

  /** Starts the watchdog process now rather than on the first `watch` (which then costs nothing). */
  start(): void {
    this.ensure();
  }

  watch(pid: number | undefined): void {
    if (pid) this.ensure().stdin!.write(`+${pid}\n`);
  }

  forget(pid: number | undefined): void {
    if (pid && this.child && this.child.exitCode === null) this.child.stdin!.write(`-${pid}\n`);
  }

  close(): void {
    this.child?.stdin?.end();
    this.child = undefined;
  }
}
