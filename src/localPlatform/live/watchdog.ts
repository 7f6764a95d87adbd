/**
 * Makes sure no media process outlives the platform, even after `kill -9` of it: a tiny Node process
 * reads the ids of the platform's ffmpeg processes from a pipe the platform holds; when the pipe
 * closes, or its parent (the platform) is gone, it kills every id still listed and exits.
 * (ffmpeg itself does not stop when its standard input closes, so a pipe to it is not enough.)
 *
 * A process is listed only after `spawn` returns, so a platform killed between the two would leave
 * it unlisted. Every process the platform starts therefore also carries a mark of this watchdog in
 * its environment (`env`): on Linux the watchdog kills every process carrying its mark too (read from
 * /proc, twice, so a child still between fork and exec is caught), and so any process such a child
 * starts in turn.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/** The environment variable that marks the processes of one watchdog. */
export const WATCHDOG_MARK = 'VIDEO_PLATFORM_RUN';

const SCRIPT = `
const fs = require('fs');
const mark = '\\0${WATCHDOG_MARK}=' + process.argv[1] + '\\0';
const parent = Number(process.argv[2]);
const pids = new Set(); let buf = ''; let ending = false;
const parentGone = () => {
  try {
    if (process.platform === 'linux') {
      const s = fs.readFileSync('/proc/self/stat', 'utf8');
      return Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]) !== parent;
    }
    process.kill(parent, 0); return false;
  } catch { return true; }
};
const marked = () => {
  if (process.platform !== 'linux') return [];
  const found = [];
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\\d+$/.test(e) || Number(e) === process.pid) continue;
    try { if (('\\0' + fs.readFileSync('/proc/' + e + '/environ', 'latin1')).includes(mark)) found.push(Number(e)); } catch {}
  }
  return found;
};
const kill = (list) => { for (const p of list) { try { process.kill(p, 'SIGKILL'); } catch {} } };
const killAll = () => {
  if (ending) return; ending = true;
  kill(pids); kill(marked());
  setTimeout(() => { kill(marked()); process.exit(0); }, 300);
};
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  buf += d; const lines = buf.split('\\n'); buf = lines.pop();
  for (const l of lines) { const n = Number(l.slice(1)); if (!(n > 0)) continue; if (l[0] === '+') pids.add(n); else pids.delete(n); }
});
process.stdin.on('end', killAll); process.stdin.on('error', killAll);
setInterval(() => { if (parentGone()) killAll(); }, 500);
`;

export class Watchdog {
  private child: ChildProcess | undefined;
  private mark = randomBytes(12).toString('hex');

  /** Set on every process the platform starts (on top of its own environment): the watchdog's mark. */
  get env(): Readonly<Record<string, string>> {
    return { [WATCHDOG_MARK]: this.mark };
  }

  private ensure(): ChildProcess {
    if (this.child && this.child.exitCode === null) return this.child;
    // In the extension host, execPath is the editor's runtime: run it as plain Node. The watchdog itself
    // does not carry the mark (it would kill itself).
    const env: NodeJS.ProcessEnv = { ...process.env, ELECTRON_RUN_AS_NODE: '1' };
    delete env[WATCHDOG_MARK];
    const child = spawn(process.execPath, ['-e', SCRIPT, this.mark, String(process.pid)], {
      stdio: ['pipe', 'ignore', 'ignore'],
      env,
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

  /** Ends the watchdog, which kills what is still listed or marked; a later `watch` starts a new one, with a new mark. */
  close(): void {
    this.child?.stdin?.end();
    this.child = undefined;
    this.mark = randomBytes(12).toString('hex');
  }
}
