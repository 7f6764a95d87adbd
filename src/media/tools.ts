/**
 * Finding and running ffmpeg and ffprobe. No `vscode` import: the local platform, the inspector and
 * the extension use this alike.
 *
 * Where the tools come from, first match wins: an explicit folder (the CLI's `--ffmpeg DIR`, the
 * setting `videoPlatform.ffmpegPath`), `FFMPEG_DIR` in the environment, the PATH, and (only where the
 * caller allows it: `npm start`, the tests, the CLI run from the repository) the npm packages that
 * carry the binaries as optional dependencies. Without both tools the caller runs in simulated mode.
 *
 * Tools always run with an argument array (`spawn` without a shell): no text from a request or a
 * document is ever parsed by a shell.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface MediaTools {
  readonly ffmpeg: string;
  readonly ffprobe: string;
  /** ffmpeg's own version text, e.g. `5.1.9-0+deb12u1`. */
  readonly version: string;
  /** Where they were found. */
  readonly source: 'folder' | 'environment' | 'path' | 'npm';
}

export type MediaMode =
  | { readonly kind: 'real'; readonly tools: MediaTools }
  | { readonly kind: 'simulated'; readonly reason: string };

export interface FindOptions {
  /** A folder holding `ffmpeg` and `ffprobe` (or the path of the ffmpeg binary itself). */
  dir?: string;
  env?: NodeJS.ProcessEnv;
  /** Also look in the npm packages @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe. */
  npmFallback?: boolean;
}

/** How to get ffmpeg, for messages of simulated mode. */
export const INSTALL_HINT =
  'install ffmpeg (Debian/Ubuntu: `apt-get install ffmpeg`, macOS: `brew install ffmpeg`, Windows: `winget install ffmpeg`) ' +
  'or set videoPlatform.ffmpegPath / --ffmpeg DIR to the folder that holds ffmpeg and ffprobe';

const EXE = process.platform === 'win32' ? '.exe' : '';

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function inFolder(dir: string): { ffmpeg: string; ffprobe: string } | undefined {
  // A path to the ffmpeg binary itself names its folder.
  const folder = /ffmpeg(\.exe)?$/i.test(dir) && isExecutable(dir) ? join(dir, '..') : dir;
  const ffmpeg = join(folder, `ffmpeg${EXE}`);
  const ffprobe = join(folder, `ffprobe${EXE}`);
  return isExecutable(ffmpeg) && isExecutable(ffprobe) ? { ffmpeg, ffprobe } : undefined;
}

function onPath(env: NodeJS.ProcessEnv): { ffmpeg: string; ffprobe: string } | undefined {
  for (const dir of (env.PATH ?? env.Path ?? '').split(delimiter)) {
    if (dir === '') continue;
    const found = inFolder(dir);
    if (found) return found;
  }
  return undefined;
}

function fromNpm(): { ffmpeg: string; ffprobe: string } | undefined {
  try {
    // Optional dependencies: absent on platforms without a build, and never in the extension's bundle.
    const ffmpeg = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
    const ffprobe = (require('@ffprobe-installer/ffprobe') as { path: string }).path;
    return isExecutable(ffmpeg) && isExecutable(ffprobe) ? { ffmpeg, ffprobe } : undefined;
  } catch {
    return undefined;
  }
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Kills the tool after this long (ms). */
  timeoutMs?: number;
  /** Keeps at most this much of stderr (the end of it, where ffmpeg writes its error). */
  stderrLimit?: number;
  /** Fed to stdin, then closed. */
  input?: Buffer | string;
  cwd?: string;
  /** Each line of stderr as it arrives (progress). */
  onStderrLine?: (line: string) => void;
  /** Variables set for the tool on top of this process's environment (ffmpeg's `http_proxy`, say). */
  env?: Readonly<Record<string, string>>;
  /** Told the tool's process id when it starts and when it ends (the platform's watchdog: no orphan after a crash). */
  track?: { watch(pid: number | undefined): void; forget(pid: number | undefined): void };
}

export interface RunResult {
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** A tool that exited with an error: its exit code or signal and the end of what it wrote to stderr. */
export class ToolError extends Error {
  constructor(
    readonly tool: string,
    readonly exit: number | string | null,
    readonly stderr: string,
  ) {
    const last = stderr.trim().split('\n').slice(-3).join(' | ');
    super(`${tool} failed (${typeof exit === 'number' ? `exit code ${exit}` : `signal ${exit}`})${last ? `: ${last}` : ''}`);
    this.name = 'ToolError';
  }
}

/** Runs a tool with an argument array (never a shell) and collects its output. */
export function runTool(file: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const limit = options.stderrLimit ?? 64 * 1024;
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(Object.assign(new Error('cancelled'), { name: 'AbortError' }));
      return;
    }
    const child = spawn(file, args, {
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
      ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
    });
    options.track?.watch(child.pid);
    const out: Buffer[] = [];
    let err = '';
    let partial = '';
    let settled = false;
    const name = file.split(/[\\/]/).pop() ?? file;
    const finish = (error: Error | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve({ stdout: Buffer.concat(out), stderr: err });
    };
    const onAbort = (): void => {
      child.kill('SIGKILL');
      finish(Object.assign(new Error('cancelled'), { name: 'AbortError' }));
    };
    const timer = options.timeoutMs
      ? setTimeout(() => {
          child.kill('SIGKILL');
          finish(new ToolError(name, 'timeout', `${err}\n(killed after ${options.timeoutMs} ms)`));
        }, options.timeoutMs)
      : undefined;
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      err = (err + chunk).slice(-limit);
      if (options.onStderrLine) {
        const lines = (partial + chunk).split(/\r|\n/);
        partial = lines.pop() ?? '';
        for (const line of lines) if (line !== '') options.onStderrLine(line);
      }
    });
    child.on('error', (error) => finish(error));
    child.on('close', (code, signal) => {
      options.track?.forget(child.pid);
      if (code === 0) finish(undefined);
      else finish(new ToolError(name, code ?? signal, err));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  });
}

/** Reads `ffmpeg -version`'s first line: `ffmpeg version 5.1.9-0+deb12u1 Copyright ...`. */
async function versionOf(ffmpeg: string): Promise<string> {
  const { stdout } = await runTool(ffmpeg, ['-hide_banner', '-version'], { timeoutMs: 10_000 });
  const first = stdout.toString('utf8').split('\n')[0] ?? '';
  return /ffmpeg version (\S+)/.exec(first)?.[1] ?? (first.trim() || 'unknown');
}

/** Finds ffmpeg and ffprobe and checks that they run; otherwise says why media will be simulated. */
export async function findMediaTools(options: FindOptions = {}): Promise<MediaMode> {
  const env = options.env ?? process.env;
  const candidates: Array<[MediaTools['source'], () => { ffmpeg: string; ffprobe: string } | undefined]> = [];
  if (options.dir) {
    const dir = options.dir;
    const found = inFolder(dir);
    // An explicit folder that holds no tools is a mistake to report, not a reason to look elsewhere.
    if (!found) return { kind: 'simulated', reason: `no ffmpeg and ffprobe in ${dir}; ${INSTALL_HINT}` };
    candidates.push(['folder', () => found]);
  }
  if (env.FFMPEG_DIR) candidates.push(['environment', () => inFolder(env.FFMPEG_DIR!)]);
  candidates.push(['path', () => onPath(env)]);
  if (options.npmFallback) candidates.push(['npm', fromNpm]);
  const problems: string[] = [];
  for (const [source, find] of candidates) {
    const found = find();
    if (!found) continue;
    try {
      const version = await versionOf(found.ffmpeg);
      await runTool(found.ffprobe, ['-hide_banner', '-version'], { timeoutMs: 10_000 });
      return { kind: 'real', tools: { ...found, version, source } };
    } catch (error) {
      problems.push(`${found.ffmpeg}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const detail = problems.length > 0 ? `ffmpeg did not run (${problems.join('; ')})` : 'ffmpeg not found';
  return { kind: 'simulated', reason: `${detail}; ${INSTALL_HINT}` };
}

/** One line for banners and status: which media mode runs. */
export function describeMediaMode(mode: MediaMode): string {
  return mode.kind === 'real'
    ? `real media (ffmpeg ${mode.tools.version}, ${mode.tools.ffmpeg})`
    : `simulated media (${mode.reason})`;
}

/** What ffprobe says of one stream (the fields this project reads). */
export interface ProbedStream {
  index: number;
  codec_type: 'video' | 'audio' | 'data' | 'subtitle' | string;
  codec_name?: string;
  profile?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  bit_rate?: string;
  sample_rate?: string;
  channels?: number;
  duration?: string;
}

export interface ProbeResult {
  streams: ProbedStream[];
  format: {
    format_name?: string;
    duration?: string;
    size?: string;
    bit_rate?: string;
    nb_streams?: number;
  };
}

/** `ffprobe -show_streams -show_format` of a file or an address, as JSON. */
export async function probe(
  tools: Pick<MediaTools, 'ffprobe'>,
  input: string,
  options: RunOptions = {},
): Promise<ProbeResult> {
  const { stdout } = await runTool(
    tools.ffprobe,
    ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', input],
    { timeoutMs: 60_000, ...options },
  );
  const parsed = JSON.parse(stdout.toString('utf8')) as Partial<ProbeResult>;
  return { streams: parsed.streams ?? [], format: parsed.format ?? {} };
}

/** Frame rate text such as `25/1` or `30000/1001` as a number (0 when unknown). */
export function frameRate(text: string | undefined): number {
  if (!text) return 0;
  const [num, den] = text.split('/').map(Number);
  if (!num || !Number.isFinite(num)) return 0;
  return den ? num / den : num;
}
