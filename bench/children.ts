/**
 * The server processes of the platform benchmarks (bench/platformServer.ts, forked through tsx) and what the
 * benchmarks ask them over IPC: CPU time, RSS, the size of the bare server's answer, the answers to replay.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { signParams } from '../src/api/signing';
import { ACCOUNT, type Ask, type Told } from './platformServer';

/** A server process (bench/platformServer.ts) and its answers over IPC, in the order asked. */
export interface Child {
  proc: ChildProcess;
  origins: string[];
  startable: string[];
  notes: string[];
  rss: number;
  ask(message: Ask): Promise<Told>;
}

export function startChild(args: string[], execArgv: string[] = []): Promise<Child> {
  const proc = fork(join(__dirname, 'platformServer.ts'), args, {
    // tsx's CommonJS hook, as the tests load the platform: `--import tsx` also starts its ESM loader, a second
    // JavaScript engine in a worker thread (about 16 MiB of RSS that no shipped platform process has).
    execArgv: ['--require', 'tsx/cjs', '--expose-gc', ...execArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // Buffers (captured answers) cross the channel as they are.
    serialization: 'advanced',
  });
  const waiting: Array<(told: Told) => void> = [];
  return new Promise((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`a bench server exited (${code}) before it was ready`)));
    proc.on('message', (told: Told) => {
      if ('ready' in told) {
        resolve({
          proc,
          origins: told.origins,
          startable: told.startable,
          notes: told.notes,
          rss: told.rss,
          ask: (message) =>
            new Promise((answered) => {
              waiting.push(answered);
              proc.send(message);
            }),
        });
      } else waiting.shift()?.(told);
    });
  });
}

export async function stopChild(child: Child): Promise<void> {
  const exited = new Promise((resolve) => child.proc.once('exit', resolve));
  await child.ask({ ask: 'close' });
  // A child that does not end by itself within 30 s is ended (by its own pid).
  const timer = setTimeout(() => child.proc.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

export const cpuOf = async (child: Child): Promise<{ user: number; system: number }> =>
  (await child.ask({ ask: 'cpu' })) as { user: number; system: number };
export const rssOf = async (child: Child): Promise<number> =>
  ((await child.ask({ ask: 'rss' })) as { rss: number }).rss;

export function signedPath(params: Record<string, string>): string {
  const all = { accessKey: ACCOUNT.accessKey, version: '2.0', timestamp: String(Date.now()), ...params };
  return `/rest?${new URLSearchParams({ ...all, signature: signParams(all, ACCOUNT.secretKey) })}`;
}
