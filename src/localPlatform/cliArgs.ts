/** Command-line options of the local platform (see cli.ts). */
import { readFileSync } from 'node:fs';
import { INSTALL_HINT } from '../media/tools';
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_TIMESTAMP_WINDOW_MS,
  type LocalPlatformOptions,
  type PlatformAccount,
} from './server';

export const USAGE = `Usage: localPlatform --data DIR (--access-key KEY --secret-key SECRET | --account KEY:SECRET ... | --accounts-file FILE)
                     [--port N] [--host HOST] [--demo] [--clock-speed N]
                     [--timestamp-window-ms N] [--max-body-bytes N] [--verbose] [--ffmpeg DIR]

  --data DIR              where the accounts' data is kept (created if missing)
  --access-key KEY        access key of the single account
  --secret-key SECRET     its secret key (or set LOCAL_PLATFORM_SECRET_KEY instead)
  --account KEY:SECRET    an account; repeat for several (each has its own data and user id)
  --accounts-file FILE    JSON array of {"accessKey","secretKey","userId"?} (keeps secrets off the command line)
  --port N                port to listen on (default 8790; 0 picks a free port)
  --host HOST             address to bind (default 127.0.0.1)
  --demo                  seed demo data into accounts that have none yet
  --clock-speed N         simulated transcoding clock multiplier (default 1)
  --timestamp-window-ms N allowed request timestamp skew (default ${DEFAULT_TIMESTAMP_WINDOW_MS})
  --max-body-bytes N      largest request body accepted (default ${DEFAULT_MAX_BODY_BYTES})
  --verbose               log each request (action, code, time) on stderr
  --ffmpeg DIR            folder holding ffmpeg and ffprobe (default: FFMPEG_DIR, the PATH, then the npm packages)

Media: with ffmpeg and ffprobe found, uploads and transcodings are real media (files that play);
without them transcoding is simulated (statuses only) and uploads are refused. The mode is said on
stderr at start (\`media: ...\`). To get ffmpeg: ${INSTALL_HINT}.
`;

export class UsageError extends Error {}

function number(flag: string, text: string | undefined, min: number): number {
  const n = Number(text);
  if (text === undefined || text === '' || !Number.isFinite(n) || n < min)
    throw new UsageError(`${flag} needs a number of at least ${min}`);
  return n;
}

function readAccountsFile(file: string): PlatformAccount[] {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(
      `--accounts-file ${file} cannot be read as JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  if (!Array.isArray(value)) throw new UsageError(`--accounts-file ${file} must hold a JSON array of accounts`);
  return value.map((a: unknown, i) => {
    const o = (a ?? {}) as Record<string, unknown>;
    if (typeof o.accessKey !== 'string' || typeof o.secretKey !== 'string') {
      throw new UsageError(`--accounts-file ${file}: item ${i} needs text accessKey and secretKey`);
    }
    return {
      accessKey: o.accessKey,
      secretKey: o.secretKey,
      userId: typeof o.userId === 'number' ? o.userId : undefined,
    };
  });
}

export function parseArgs(argv: string[], env: NodeJS.ProcessEnv): LocalPlatformOptions & { verbose: boolean } {
  const accounts: PlatformAccount[] = [];
  let accessKey: string | undefined;
  let secretKey: string | undefined;
  const options: LocalPlatformOptions & { verbose: boolean } = {
    dataDir: '',
    accounts,
    port: 8790,
    verbose: false,
    media: { npmFallback: true },
  };
  for (let i = 0; i < argv.length; i++) {
    let flag = argv[i];
    let value: string | undefined;
    const eq = flag.indexOf('=');
    if (flag.startsWith('--') && eq > 0) {
      value = flag.slice(eq + 1);
      flag = flag.slice(0, eq);
    }
    const next = (): string => {
      if (value !== undefined) return value;
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--data':
        options.dataDir = next();
        break;
      case '--port':
        options.port = number(flag, next(), 0);
        break;
      case '--host':
        options.host = next();
        break;
      case '--access-key':
        accessKey = next();
        break;
      case '--secret-key':
        secretKey = next();
        break;
      case '--account': {
        const text = next();
        const colon = text.indexOf(':');
        if (colon <= 0 || colon === text.length - 1) throw new UsageError('--account needs KEY:SECRET');
        accounts.push({ accessKey: text.slice(0, colon), secretKey: text.slice(colon + 1) });
        break;
      }
      case '--accounts-file':
        accounts.push(...readAccountsFile(next()));
        break;
      case '--demo':
        options.demo = true;
        break;
      case '--clock-speed':
        options.clockSpeed = number(flag, next(), Number.MIN_VALUE);
        break;
      case '--timestamp-window-ms':
        options.timestampWindowMs = number(flag, next(), 0);
        break;
      case '--max-body-bytes':
        options.maxBodyBytes = number(flag, next(), 1);
        break;
      case '--verbose':
        options.verbose = true;
        break;
      case '--ffmpeg':
        options.media = { ...options.media, ffmpegDir: next() };
        break;
      case '--help':
      case '-h':
        throw new UsageError('');
      default:
        throw new UsageError(`unknown option ${flag}`);
    }
  }
  secretKey ??= env.LOCAL_PLATFORM_SECRET_KEY;
  if (accessKey !== undefined) {
    if (!secretKey) throw new UsageError('--access-key needs --secret-key (or LOCAL_PLATFORM_SECRET_KEY)');
    accounts.unshift({ accessKey, secretKey });
  } else if (secretKey !== undefined && env.LOCAL_PLATFORM_SECRET_KEY === undefined) {
    throw new UsageError('--secret-key needs --access-key');
  }
  if (!options.dataDir) throw new UsageError('--data DIR is required');
  if (accounts.length === 0)
    throw new UsageError('give an account: --access-key and --secret-key, --account KEY:SECRET or --accounts-file');
  if (!Number.isInteger(options.port)) throw new UsageError('--port needs an integer');
  return options;
}
