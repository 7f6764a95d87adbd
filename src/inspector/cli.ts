/**
 * `npm run inspect -- <address or file> [--json] [--live-seconds N] [--ffmpeg DIR]`
 * Exit code: 0 no errors found, 1 errors found, 2 could not inspect (bad address, unreadable, no ffprobe).
 */
import { findMediaTools } from '../media/tools';
import { hasErrors } from './findings';
import { InspectError, inspect } from './inspect';
import { nodeFetch } from './source';
import { reportText } from './text';

const USAGE = 'usage: npm run inspect -- <address or file> [--json] [--live-seconds N] [--ffmpeg DIR]';

interface Args {
  input: string;
  json: boolean;
  liveSeconds?: number;
  ffmpeg?: string;
}

function parseArgs(argv: readonly string[]): Args {
  let input: string | undefined;
  let json = false;
  let liveSeconds: number | undefined;
  let ffmpeg: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--json') json = true;
    else if (arg === '--live-seconds') {
      const value = Number(argv[++i]);
      if (!Number.isFinite(value) || value < 0 || value > 3600) {
        throw new InspectError(`--live-seconds needs a number of seconds from 0 to 3600, not "${argv[i] ?? ''}"`);
      }
      liveSeconds = value;
    } else if (arg === '--ffmpeg') {
      ffmpeg = argv[++i];
      if (!ffmpeg) throw new InspectError('--ffmpeg needs the folder that holds ffmpeg and ffprobe');
    } else if (arg === '--help' || arg === '-h') throw new InspectError(USAGE);
    else if (arg.startsWith('--')) throw new InspectError(`unknown option ${arg}; ${USAGE}`);
    else if (input === undefined) input = arg;
    else throw new InspectError(`one address or file at a time (got "${input}" and "${arg}"); ${USAGE}`);
  }
  if (input === undefined) throw new InspectError(`no address or file given; ${USAGE}`);
  return { input, json, ...(liveSeconds !== undefined ? { liveSeconds } : {}), ...(ffmpeg ? { ffmpeg } : {}) };
}

async function main(): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`inspect: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const mode = await findMediaTools({ ...(args.ffmpeg ? { dir: args.ffmpeg } : {}), npmFallback: true });
  if (mode.kind !== 'real') {
    process.stderr.write(`inspect: cannot probe media without ffprobe: ${mode.reason}\n`);
    return 2;
  }
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  try {
    const report = await inspect(args.input, {
      tools: mode.tools,
      fetch: nodeFetch,
      // Live, unless told: 3 target durations (at least 10 s), long enough to see a stale playlist.
      ...(args.liveSeconds !== undefined ? { liveSeconds: args.liveSeconds } : {}),
      signal: controller.signal,
      ...(args.json ? {} : { onProgress: (text: string) => process.stderr.write(`… ${text}\n`) }),
    });
    process.stdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : `${reportText(report)}\n`);
    return hasErrors(report.findings) ? 1 : 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`inspect: ${error instanceof InspectError ? message : `could not inspect: ${message}`}\n`);
    return 2;
  }
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
