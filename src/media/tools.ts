/**
 * Finding and running ffmpeg (and, when it sits beside it, ffprobe). No `vscode` import: the local
 * platform, the inspector and the extension use this alike.
 *
 * Where ffmpeg comes from, first that passes its check wins: an explicit folder (the CLI's
 * `--ffmpeg DIR`, the setting `videoPlatform.ffmpegPath`), `FFMPEG_DIR` in the environment, the PATH,
 * the usual install places of the user's system (`usualPlaces`), and (only where the caller allows
 * it: `npm start`, the tests, the CLI run from the repository) the npm packages that carry the
 * binaries as optional dependencies. `VIDEO_PLATFORM_NO_SYSTEM_FFMPEG=1` skips all but the npm
 * packages (also when a folder names theirs), as on a fresh machine. Each ffmpeg found is checked once (its version and a two-frame
 * H.264 encode); one that fails is reported with the reason and the next place is tried. Without a
 * working ffmpeg the caller runs in simulated mode.
 *
 * Tools always run with an argument array (`spawn` without a shell): no text from a request or a
 * document is ever parsed by a shell.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

export interface MediaTools {
  readonly ffmpeg: string;
  /** ffprobe when it sits beside ffmpeg (or comes from the npm package): never required. */
  readonly ffprobe?: string;
  /** ffmpeg's own version text, e.g. `5.1.9-0+deb12u1`. */
  readonly version: string;
  /** Where it was found. */
  readonly source: 'folder' | 'environment' | 'path' | 'place' | 'npm';
}

export type MediaMode =
  | {
      readonly kind: 'real';
      readonly tools: MediaTools;
      /** Binaries found before this one that failed their check, each with the reason. */
      readonly rejected?: readonly string[];
    }
  | { readonly kind: 'simulated'; readonly reason: string };

export interface FindOptions {
  /** A folder holding `ffmpeg` (or the path of the ffmpeg binary itself). */
  dir?: string;
  env?: NodeJS.ProcessEnv;
  /** Also look in the npm packages @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe. */
  npmFallback?: boolean;
  /** The usual install places to look in after the PATH (default: `usualPlaces()` of this system). */
  places?: readonly string[];
}

/** The environment switch that hides every ffmpeg but the npm packages' (a fresh machine, in CI). */
export const NO_SYSTEM_FFMPEG = 'VIDEO_PLATFORM_NO_SYSTEM_FFMPEG';

/** How to get ffmpeg, for messages of simulated mode. */
export const INSTALL_HINT =
  'install ffmpeg (Debian/Ubuntu: `apt-get install ffmpeg`, macOS: `brew install ffmpeg`, Windows: `winget install ffmpeg`) ' +
  'or set videoPlatform.ffmpegPath / --ffmpeg DIR to the folder that holds ffmpeg';

const EXE = process.platform === 'win32' ? '.exe' : '';

/** Whether the switch is on in `env`. */
export function systemFfmpegHidden(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = (env[NO_SYSTEM_FFMPEG] ?? '').trim().toLowerCase();
  return value !== '' && value !== '0' && value !== 'false';
}

/**
 * Where package managers put ffmpeg when it is not on the PATH VS Code was started with (an app started
 * from the Dock or the Start menu often has a shorter PATH than a terminal).
 */
export function usualPlaces(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  if (platform === 'darwin') return ['/opt/homebrew/bin', '/usr/local/bin', '/opt/local/bin'];
  if (platform === 'win32') {
    const places: string[] = [];
    // winget's links, Chocolatey's shims, Scoop's shims (user and global installs).
    if (env.LOCALAPPDATA) places.push(join(env.LOCALAPPDATA, 'Microsoft', 'WinGet', 'Links'));
    places.push(join(env.ChocolateyInstall ?? join(env.ProgramData ?? 'C:\\ProgramData', 'chocolatey'), 'bin'));
    places.push(join(env.SCOOP ?? join(env.USERPROFILE ?? 'C:\\Users\\Default', 'scoop'), 'shims'));
    if (env.SCOOP_GLOBAL) places.push(join(env.SCOOP_GLOBAL, 'shims'));
    return places;
  }
  return ['/usr/local/bin', '/usr/bin', '/snap/bin'];
}

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

interface Found {
  ffmpeg: string;
  ffprobe?: string;
}

function inFolder(dir: string): Found | undefined {
  // A path to the ffmpeg binary itself names its folder.
  const folder = /ffmpeg(\.exe)?$/i.test(dir) && isExecutable(dir) ? dirname(dir) : dir;
  const ffmpeg = join(folder, `ffmpeg${EXE}`);
  if (!isExecutable(ffmpeg)) return undefined;
  const ffprobe = join(folder, `ffprobe${EXE}`);
  return isExecutable(ffprobe) ? { ffmpeg, ffprobe } : { ffmpeg };
}

function inFolders(dirs: readonly string[]): Found[] {
  const seen = new Set<string>();
  const found: Found[] = [];
  for (const dir of dirs) {
    if (dir === '') continue;
    const tools = inFolder(dir);
    if (tools && !seen.has(tools.ffmpeg)) {
      seen.add(tools.ffmpeg);
      found.push(tools);
    }
  }
  return found;
}

function fromNpm(): Found[] {
  let ffmpeg: string;
  try {
    // Optional dependencies: absent on platforms without a build, and never in the extension's bundle.
    ffmpeg = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  } catch {
    return [];
  }
  if (!isExecutable(ffmpeg)) return [];
  try {
    const ffprobe = (require('@ffprobe-installer/ffprobe') as { path: string }).path;
    return [isExecutable(ffprobe) ? { ffmpeg, ffprobe } : { ffmpeg }];
  } catch {
    return [{ ffmpeg }];
  }
}

function isNpmFfmpeg(ffmpeg: string): boolean {
  const npm = fromNpm()[0]?.ffmpeg;
  try {
    return npm !== undefined && realpathSync(npm) === realpathSync(ffmpeg);
  } catch {
    return false;
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
    super(
      `${tool} failed (${typeof exit === 'number' ? `exit code ${exit}` : `signal ${exit}`})${last ? `: ${last}` : ''}`,
    );
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

/** How long the check of one ffmpeg may take (version, then a two-frame encode). */
const CHECK_TIMEOUT_MS = 20_000;

export interface Checked {
  readonly version?: string;
  readonly problem?: string;
}

/** Checks by binary, its size and modification time: a binary replaced in place is checked again. */
const checks = new Map<string, Promise<Checked>>();

/** Reads `ffmpeg -version`'s first line: `ffmpeg version 5.1.9-0+deb12u1 Copyright ...`. */
async function versionOf(ffmpeg: string): Promise<string> {
  const { stdout } = await runTool(ffmpeg, ['-hide_banner', '-version'], { timeoutMs: CHECK_TIMEOUT_MS });
  const first = stdout.toString('utf8').split('\n')[0] ?? '';
  return /ffmpeg version (\S+)/.exec(first)?.[1] ?? (first.trim() || 'unknown');
}

/** Two frames of a test pattern to an H.264 MP4: what transcoding, ladders and stills all need. */
async function tinyEncode(ffmpeg: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vp-ffmpeg-check-'));
  try {
    const out = join(dir, 'check.mp4');
    await runTool(
      ffmpeg,
      [
        ...['-hide_banner', '-nostdin', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=64x64:rate=10'],
        ...['-frames:v', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-y', out],
      ],
      { timeoutMs: CHECK_TIMEOUT_MS },
    );
    if (statSync(out).size === 0) throw new Error('the test encode wrote an empty file');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The check of one ffmpeg, run once per binary (path, size, modification time). */
export function checkFfmpeg(ffmpeg: string): Promise<Checked> {
  let key: string;
  try {
    const stat = statSync(ffmpeg);
    key = `${ffmpeg}\0${stat.size}\0${stat.mtimeMs}`;
  } catch (error) {
    return Promise.resolve({ problem: reasonOf(error) });
  }
  let check = checks.get(key);
  if (!check) {
    check = (async (): Promise<Checked> => {
      try {
        const version = await versionOf(ffmpeg);
        await tinyEncode(ffmpeg);
        return { version };
      } catch (error) {
        // A check that ran out of time (a busy machine) is tried again next time; a failure is kept.
        if (error instanceof ToolError && error.exit === 'timeout') checks.delete(key);
        return { problem: reasonOf(error) };
      }
    })();
    checks.set(key, check);
  }
  return check;
}

/** Finds ffmpeg (and ffprobe beside it) and checks it; otherwise says why media will be simulated. */
export async function findMediaTools(options: FindOptions = {}): Promise<MediaMode> {
  const env = options.env ?? process.env;
  const hidden = systemFfmpegHidden(env);
  const candidates: Array<[MediaTools['source'], () => Found[]]> = [];
  if (options.dir) {
    const found = inFolder(options.dir);
    // An explicit folder that holds no ffmpeg is a mistake to report, not a reason to look elsewhere.
    if (!found) return { kind: 'simulated', reason: `no ffmpeg in ${options.dir}; ${INSTALL_HINT}` };
    // With the switch on, a folder serves only when it is the npm packages' own (tests point the setting there).
    if (!hidden || isNpmFfmpeg(found.ffmpeg)) candidates.push(['folder', () => [found]]);
  }
  if (!hidden) {
    if (env.FFMPEG_DIR) candidates.push(['environment', () => inFolders([env.FFMPEG_DIR!])]);
    candidates.push(['path', () => inFolders((env.PATH ?? env.Path ?? '').split(delimiter))]);
    candidates.push(['place', () => inFolders(options.places ?? usualPlaces(process.platform, env))]);
  }
  if (options.npmFallback) candidates.push(['npm', fromNpm]);
  const rejected: string[] = [];
  const tried = new Set<string>();
  for (const [source, find] of candidates) {
    for (const found of find()) {
      if (tried.has(found.ffmpeg)) continue;
      tried.add(found.ffmpeg);
      const { version, problem } = await checkFfmpeg(found.ffmpeg);
      if (version === undefined) {
        rejected.push(`${found.ffmpeg}: ${problem ?? 'unknown problem'}`);
        continue;
      }
      const tools: MediaTools = { ...found, version, source };
      return rejected.length > 0 ? { kind: 'real', tools, rejected } : { kind: 'real', tools };
    }
  }
  const detail =
    rejected.length > 0
      ? `ffmpeg did not pass its check (${rejected.join('; ')})`
      : hidden
        ? `ffmpeg not found (${NO_SYSTEM_FFMPEG} hides all but the npm packages)`
        : 'ffmpeg not found';
  return { kind: 'simulated', reason: `${detail}; ${INSTALL_HINT}` };
}

/** One line for banners and status: which media mode runs. */
export function describeMediaMode(mode: MediaMode): string {
  if (mode.kind === 'simulated') return `simulated media (${mode.reason})`;
  const skipped = mode.rejected?.length ? `; skipped ${mode.rejected.join('; ')}` : '';
  return `real media (ffmpeg ${mode.tools.version}, ${mode.tools.ffmpeg}${skipped})`;
}

/** Frame rate text such as `25/1` or `30000/1001` as a number (0 when unknown). */
export function frameRate(text: string | undefined): number {
  if (!text) return 0;
  const [num, den] = text.split('/').map(Number);
  if (!num || !Number.isFinite(num)) return 0;
  return den ? num / den : num;
}
