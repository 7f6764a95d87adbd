/** Runs the local platform's command line in a child process (through tsx, no build needed). */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const CLI = join(__dirname, '..', '..', 'src', 'localPlatform', 'cli.ts');

export interface CliProcess {
  child: ChildProcess;
  /** Everything written to stdout / stderr so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the `listening ...` URL, or rejects when the process exits first. */
  ready: Promise<string>;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): CliProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: join(__dirname, '..', '..'),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const ready = new Promise<string>((resolve, reject) => {
    const check = (): void => {
      const m = /^listening (\S+)\n/.exec(out);
      if (m) resolve(m[1]);
    };
    child.stdout!.on('data', check);
    void exited.then((code) => reject(new Error(`the platform exited (${code}) before it was ready: ${err}`)));
  });
  return { child, stdout: () => out, stderr: () => err, ready, exited };
}

/** Stops a child still running (test clean-up), by its own process id. */
export async function stopCli(cli: CliProcess | undefined): Promise<void> {
  if (!cli || cli.child.exitCode !== null || cli.child.signalCode !== null) return;
  cli.child.kill('SIGKILL');
  await cli.exited;
}
