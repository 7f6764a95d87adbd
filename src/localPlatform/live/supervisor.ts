/**
 * One long-running ffmpeg, supervised: spawned with an argument array (never a shell), restarted with
 * backoff when it ends unasked, stopped with `q` on its standard input (so files it writes are
 * finished) and killed if it does not stop in time. Every process is registered with the watchdog.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Watchdog } from './watchdog';

export interface SupervisedOptions {
  /** For logs: `channel <id> transcoder`. */
  name: string;
  file: string;
  /**
   * Called for every (re)start: arguments may depend on the moment (file names, a source's checked address).
   * A rejection is a start that failed: logged with its reason, and tried again as after an exit.
   */
  args: () => string[] | Promise<string[]>;
  /** Environment variables on top of the platform's (undefined removes one). */
  env?: Readonly<Record<string, string | undefined>>;
  watchdog: Watchdog;
  log: (line: string) => void;
  /** Restart when it ends unasked (default true). */
  restart?: boolean;
  onStart?: () => void;
  /** It ended unasked; `tail` is the end of its stderr. */
  onExit?: (code: number | string | null, tail: string) => void;
  onStderrLine?: (line: string) => void;
}

const BACKOFF_MS = [1000, 2000, 4000, 8000, 15000];

export class Supervised {
  private child: ChildProcess | undefined;
  private stopped = false;
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;
  private startedAt = 0;
  /** Arguments being prepared (an asynchronous `args`): no second start meanwhile. */
  private preparing = false;

  constructor(private readonly options: SupervisedOptions) {}

  get running(): boolean {
    return this.child !== undefined;
  }

  start(): void {
    if (this.stopped || this.child || this.preparing) return;
    const o = this.options;
    let args: string[] | Promise<string[]>;
    try {
      args = o.args();
    } catch (error) {
      args = Promise.reject(error);
    }
    if (Array.isArray(args)) {
      this.spawn(args);
      return;
    }
    this.preparing = true;
    args.then(
      (ready) => {
        this.preparing = false;
        if (!this.stopped) this.spawn(ready);
      },
      (error: unknown) => {
        this.preparing = false;
        if (this.stopped) return;
        o.log(`${o.name} not started: ${error instanceof Error ? error.message : String(error)}`);
        this.startedAt = Date.now();
        o.onExit?.(null, '');
        this.retry();
      },
    );
  }

  private spawn(args: string[]): void {
    const o = this.options;
    const env: NodeJS.ProcessEnv = { ...process.env, ...o.env, ...o.watchdog.env };
    for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
    const child = spawn(o.file, args, { stdio: ['pipe', 'ignore', 'pipe'], windowsHide: true, env });
    this.child = child;
    this.startedAt = Date.now();
    o.watchdog.watch(child.pid);
    let tail = '';
    let partial = '';
    child.stdin!.on('error', () => undefined);
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      tail = (tail + chunk).slice(-4000);
      if (!o.onStderrLine) return;
      const lines = (partial + chunk).split(/\r|\n/);
      partial = lines.pop() ?? '';
      for (const line of lines) if (line) o.onStderrLine(line);
    });
    child.on('error', (error) => o.log(`${o.name}: ${error.message}`));
    child.on('close', (code, signal) => {
      o.watchdog.forget(child.pid);
      if (this.child === child) this.child = undefined;
      if (this.stopped) return;
      const last = tail.trim().split('\n').slice(-2).join(' | ');
      // Addresses in ffmpeg's words may carry auth codes or a source's user:password: never logged.
      const safe = last.replace(/auth=[^&\s'"]+/g, 'auth=***').replace(/\/\/[^/@\s]+@/g, '//***@');
      o.log(`${o.name} ended (${code ?? signal}): ${safe.slice(0, 400)}`);
      o.onExit?.(code ?? signal, tail);
      this.retry();
    });
    o.onStart?.();
  }

  /** Starts again after the backoff's next delay (unless restarts are off). */
  private retry(): void {
    if (this.options.restart === false) return;
    // A run that lasted a while resets the backoff.
    if (Date.now() - this.startedAt > 30_000) this.failures = 0;
    const delay = BACKOFF_MS[Math.min(this.failures++, BACKOFF_MS.length - 1)];
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.start();
    }, delay);
    this.timer.unref();
  }

  /** Stops for good: `q`, then SIGKILL after `graceMs`. */
  async stop(graceMs = 3000): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    child.stdin!.end('q');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await closed;
    clearTimeout(timer);
  }
}
