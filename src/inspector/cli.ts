/**
 * `npm run inspect -- <address or file> [--format text|json|sarif|junit] [--fail-on error|warning|none]
 * [--live-seconds N] [--deadline-seconds N] [--content [ebu|atsc|stream-14|stream-16]] [--ffmpeg DIR]`
 * Exit code: 0 nothing found that fails the run (`--fail-on`, errors by default), 1 something was, 2 could not
 * inspect (bad address, unreadable, not media, a bad option), 130 stopped by SIGINT or SIGTERM. Media is read
 * in-process: no ffmpeg or ffprobe is needed, except for `--content` (the content checks, which decode).
 */
import { failing, toJunit, toSarif, type FailOn, type OutputFormat } from './ciOutput';
import { InspectError, inspect } from './inspect';
import { runUntilStopped } from '../media/commandLine';
import { findMediaTools } from '../media/tools';
import { nodeFetch } from './source';
import { reportText } from './text';

const USAGE =
  'usage: npm run inspect -- <address or file> [--format text|json|sarif|junit] [--fail-on error|warning|none] [--live-seconds N] [--deadline-seconds N] [--content [ebu|atsc|stream-14|stream-16]] [--ffmpeg DIR]';
/** `--content`'s loudness targets (the content family's, src/app/inspect/contentFamily.ts). */
const CONTENT_TARGETS = ['ebu', 'atsc', 'stream-14', 'stream-16'] as const;

const FORMATS: readonly OutputFormat[] = ['text', 'json', 'sarif', 'junit'];
const FAIL_ON: readonly FailOn[] = ['error', 'warning', 'none'];

interface Args {
  input: string;
  format: OutputFormat;
  failOn: FailOn;
  liveSeconds?: number;
  deadlineSeconds?: number;
  /** The content checks, with this loudness target. */
  content?: (typeof CONTENT_TARGETS)[number];
  ffmpegDir?: string;
}

function seconds(option: string, text: string | undefined, min: number, max: number): number {
  const value = Number(text);
  if (text === undefined || text.trim() === '' || !Number.isFinite(value) || value < min || value > max) {
    throw new InspectError(`${option} needs a number of seconds from ${min} to ${max}, not "${text ?? ''}"`);
  }
  return value;
}

function oneOf<T extends string>(option: string, text: string | undefined, allowed: readonly T[]): T {
  if (text !== undefined && (allowed as readonly string[]).includes(text)) return text as T;
  throw new InspectError(`${option} must be one of ${allowed.join(', ')}, not "${text ?? ''}"`);
}

function parseArgs(argv: readonly string[]): Args {
  let input: string | undefined;
  let format: OutputFormat = 'text';
  let failOn: FailOn = 'error';
  let liveSeconds: number | undefined;
  let deadlineSeconds: number | undefined;
  let content: Args['content'];
  let ffmpegDir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--json') format = 'json';
    else if (arg === '--format') format = oneOf(arg, argv[++i], FORMATS);
    else if (arg === '--fail-on') failOn = oneOf(arg, argv[++i], FAIL_ON);
    else if (arg === '--live-seconds') liveSeconds = seconds(arg, argv[++i], 0, 3600);
    else if (arg === '--deadline-seconds') deadlineSeconds = seconds(arg, argv[++i], 1, 7200);
    else if (arg === '--content') {
      const next = argv[i + 1];
      content = (CONTENT_TARGETS as readonly string[]).includes(next ?? '')
        ? oneOf(arg, argv[++i], CONTENT_TARGETS)
        : 'ebu';
    } else if (arg === '--ffmpeg') {
      // Media is read in-process; ffmpeg decodes only for --content (the content checks).
      ffmpegDir = argv[++i];
      if (!ffmpegDir) throw new InspectError('--ffmpeg needs a folder (used by --content; media is read in-process)');
    } else if (arg === '--help' || arg === '-h') throw new InspectError(USAGE);
    else if (arg.startsWith('--')) throw new InspectError(`unknown option ${arg}; ${USAGE}`);
    else if (input === undefined) input = arg;
    else throw new InspectError(`one address or file at a time (got "${input}" and "${arg}"); ${USAGE}`);
  }
  if (input === undefined) throw new InspectError(`no address or file given; ${USAGE}`);
  return {
    input,
    format,
    failOn,
    ...(liveSeconds !== undefined ? { liveSeconds } : {}),
    ...(deadlineSeconds !== undefined ? { deadlineSeconds } : {}),
    ...(content ? { content } : {}),
    ...(ffmpegDir ? { ffmpegDir } : {}),
  };
}

/** `--content`: the content family's options (registered by the command line's entry, src/app/inspect/inspectCli.ts). */
async function mediaFamilies(args: Args): Promise<Record<string, unknown> | undefined> {
  if (!args.content) return undefined;
  const mode = await findMediaTools({ ...(args.ffmpegDir ? { dir: args.ffmpegDir } : {}), npmFallback: true });
  return {
    content:
      mode.kind === 'real'
        ? { ffmpeg: mode.tools.ffmpeg, target: args.content }
        : { ffmpeg: undefined, missing: mode.reason },
  };
}

async function main(): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`inspect: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  // Ctrl+C or a SIGTERM stops the reads at once (the inspector keeps no temporary files to remove).
  return runUntilStopped(
    'inspect',
    async (signal) => {
      const families = await mediaFamilies(args);
      const report = await inspect(args.input, {
        fetch: nodeFetch,
        ...(families ? { mediaFamilies: families } : {}),
        // Live, unless told: 3 target durations (10 to 60 s), long enough to see a stale playlist.
        ...(args.liveSeconds !== undefined ? { liveSeconds: args.liveSeconds } : {}),
        ...(args.deadlineSeconds !== undefined ? { deadlineSeconds: args.deadlineSeconds } : {}),
        signal,
        ...(args.format === 'text' ? { onProgress: (text: string) => process.stderr.write(`… ${text}\n`) } : {}),
      });
      const out =
        args.format === 'json'
          ? JSON.stringify(report, null, 2)
          : args.format === 'sarif'
            ? JSON.stringify(toSarif(report), null, 2)
            : args.format === 'junit'
              ? toJunit(report, args.failOn)
              : reportText(report);
      process.stdout.write(`${out}\n`);
      return failing(report.findings, args.failOn).length > 0 ? 1 : 0;
    },
    (error) => {
      const message = error instanceof Error ? error.message : String(error);
      return error instanceof InspectError ? message : `could not inspect: ${message}`;
    },
  );
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`inspect: ${String(error)}\n`);
    process.exitCode = 2;
  },
);
