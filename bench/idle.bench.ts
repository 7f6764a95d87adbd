/**
 * The embedded platform at rest (issue 21): the local platform started as the extension starts it (demo data,
 * real live media, the looped test pattern live, nobody watching), in a child process. After its first-start
 * work (the demo's clips and transcodings, the loop's one encode) has ended, its CPU (the process and every
 * process it started) over 20 s, as a share of one core. Goal: under 2%. Needs ffmpeg on the PATH and Linux /proc.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findMediaTools } from '../src/media/tools';
import { goalRow } from './goalTable';

const WINDOW_MS = 20_000;
const SETTLE_LIMIT_MS = 600_000;
const TICKS = 100; // clock ticks per second of /proc/<pid>/stat on Linux

/** pid -> [parent pid, CPU seconds, command name] of every process. */
function processes(): Map<number, { ppid: number; cpu: number; name: string }> {
  const found = new Map<number, { ppid: number; cpu: number; name: string }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      found.set(Number(entry), {
        ppid: Number(fields[1]),
        cpu: (Number(fields[11]) + Number(fields[12])) / TICKS,
        name,
      });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** The process and its descendants, with their CPU seconds so far. */
function tree(root: number): Map<number, { cpu: number; name: string }> {
  const all = processes();
  const out = new Map<number, { cpu: number; name: string }>();
  const visit = (pid: number): void => {
    const p = all.get(pid);
    if (!p || out.has(pid)) return;
    out.set(pid, { cpu: p.cpu, name: p.name });
    for (const [child, q] of all) if (q.ppid === pid) visit(child);
  };
  visit(root);
  return out;
}

export async function run(): Promise<void> {
  const mode = await findMediaTools({ npmFallback: false });
  if (mode.kind !== 'real' || process.platform !== 'linux') {
    console.log(`idle benchmark skipped: ${mode.kind === 'real' ? 'needs Linux /proc' : mode.reason}`);
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'bench-idle-'));
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', join(__dirname, 'embeddedPlatform.ts'), dir], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  try {
    const ready = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const line = /^ready .*$/m.exec(out)?.[0];
        if (line) resolve(line);
      });
      child.on('exit', (code) => reject(new Error(`the platform ended (${code}) before it was ready`)));
    });
    console.log(`platform: ${ready.slice(6)}`);
    // First-start work: wait until no ffmpeg has run for 5 s.
    const began = Date.now();
    let quietSince = Date.now();
    while (Date.now() - quietSince < 5_000) {
      if (Date.now() - began > SETTLE_LIMIT_MS) throw new Error('the first-start work did not end in 10 minutes');
      if ([...tree(child.pid!).values()].some((p) => p.name === 'ffmpeg')) quietSince = Date.now();
      await new Promise((r) => setTimeout(r, 500));
    }
    console.log(
      `first-start work (demo media, the test pattern's loop) ended after ${((Date.now() - began) / 1000).toFixed(0)} s`,
    );
    const before = tree(child.pid!);
    await new Promise((r) => setTimeout(r, WINDOW_MS));
    const after = tree(child.pid!);
    let cpu = 0;
    for (const [pid, p] of after) cpu += p.cpu - (before.get(pid)?.cpu ?? 0);
    const share = cpu / (WINDOW_MS / 1000);
    const names = [...after.values()].map((p) => p.name).join(', ');
    console.log(`idle CPU over ${WINDOW_MS / 1000} s: ${(share * 100).toFixed(2)}% of a core (processes: ${names})`);
    goalRow({
      figure: 'embedded platform idle CPU (demo, test pattern live)',
      goal: 'under 2% of a core',
      measured: `${(share * 100).toFixed(2)}%`,
      met: share < 0.02,
    });
  } finally {
    child.stdin!.end();
    await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
    await rm(dir, { recursive: true, force: true });
  }
}
