// Child processes of an e2e run: each in its own process group (so its children go with it), its output
// kept in a log file, and all of them stopped at the end whatever happened.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';

export class Processes {
  #children = [];

  /** Starts a process; its stdout and stderr go to logFile. */
  start(name, command, args, { env = process.env, cwd, logFile }) {
    const child = spawn(command, args, { env, cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const log = createWriteStream(logFile);
    const entry = { name, child, output: '', exited: false, log };
    child.stdout.on('data', (d) => {
      entry.output += d;
      log.write(d);
    });
    child.stderr.on('data', (d) => {
      entry.output += d;
      log.write(d);
    });
    child.on('exit', (code, signal) => {
      entry.exited = true;
      entry.exitCode = code;
      entry.signal = signal;
    });
    child.on('error', (error) => {
      entry.exited = true;
      entry.output += `\n${error.message}`;
    });
    this.#children.push(entry);
    return entry;
  }

  /** Resolves with the first match of pattern in the process's output; rejects on exit or after timeoutMs. */
  waitForOutput(entry, pattern, timeoutMs) {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const check = () => {
        const match = entry.output.match(pattern);
        if (match) return resolve(match);
        if (entry.exited)
          return reject(
            new Error(
              `${entry.name} exited (${entry.signal ?? entry.exitCode}) before printing ${pattern}:\n${entry.output.slice(-2000)}`,
            ),
          );
        if (Date.now() - started > timeoutMs)
          return reject(
            new Error(
              `${entry.name} did not print ${pattern} within ${timeoutMs / 1000} s:\n${entry.output.slice(-2000)}`,
            ),
          );
        setTimeout(check, 100);
      };
      check();
    });
  }

  /** Waits for the process to end on its own; rejects after timeoutMs. */
  waitForExit(entry, timeoutMs) {
    return new Promise((resolve, reject) => {
      if (entry.exited) return resolve(entry.exitCode);
      const timer = setTimeout(
        () => reject(new Error(`${entry.name} still running after ${timeoutMs / 1000} s`)),
        timeoutMs,
      );
      entry.child.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }

  /** SIGTERM to every group still running, SIGKILL to any left after graceMs. */
  async stopAll(graceMs = 5000) {
    const running = this.#children.filter((e) => !e.exited);
    for (const e of running) signalGroup(e.child.pid, 'SIGTERM');
    // Until every one has exited, or the grace period is over.
    let grace;
    await Promise.race([
      Promise.all(running.map((e) => (e.exited ? undefined : new Promise((r) => e.child.once('exit', r))))),
      new Promise((r) => (grace = setTimeout(r, graceMs))),
    ]);
    clearTimeout(grace);
    // The group may hold grandchildren (an extension host, node-gyp) even after its leader has exited.
    for (const e of this.#children) signalGroup(e.child.pid, 'SIGKILL');
    for (const e of this.#children) e.log.end();
  }
}

function signalGroup(pid, signal) {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}
