/** Command-line options of the local platform (see cli.ts). */
import { isIP } from 'node:net';
import { readFileSync } from 'node:fs';
import { parseArgs as parseArgv } from 'node:util';
import { INSTALL_HINT } from '../media/tools';
import { CALLBACKS_USAGE } from './callbacks/cliCommands';
import { callbackUrlProblem, MAX_URLS } from './callbacks/urlRules';
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_TIMESTAMP_WINDOW_MS,
  type LocalPlatformOptions,
  type PlatformAccount,
} from './server';

export const USAGE = `Usage: localPlatform --data DIR (--access-key KEY --secret-key SECRET | --account KEY:SECRET ... | --accounts-file FILE)
                     [--port N] [--host HOST] [--demo] [--clock-speed N]
                     [--timestamp-window-ms N] [--max-body-bytes N] [--allowed-host NAME ...]
                     [--replay-guard] [--verbose]
                     [--rtmp-port N] [--max-live-channels N] [--max-jobs N] [--ffmpeg DIR] [--simulated-live]
                     [--allow-private-sources] [--test-public-address ADDRESS:PORT]
                     [--callback-url URL ...] [--allow-remote-callbacks] [--allow-private-callbacks]
                     [--faults FILE]

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
  --allowed-host NAME     a host name to serve besides 127.0.0.1, localhost, [::1] and the bound address
                          (repeat for several); requests naming other hosts, or sent by web pages of
                          other origins, are refused
  --replay-guard          refuse a signed request received before (within the timestamp window)
  --verbose               log each request (action, code, time) on stderr
  --rtmp-port N           RTMP ingest port (default 1935 where free, else a free port)
  --max-live-channels N   channels with a live source (pushed or pulled) at once (default 2)
  --max-jobs N            transcoding jobs run at once (1 to 64; default one per 2 cores)
  --ffmpeg DIR            folder of ffmpeg and ffprobe (default: FFMPEG_DIR, the PATH, the npm packages)
  --simulated-live        no real live media even when ffmpeg is found
  --allow-private-sources let pull channels pull from (and RTMP groups send to) loopback, private and
                          link-local addresses (refused by default: they must be on the public internet)
  --test-public-address ADDRESS:PORT
                          for tests only: this exact address and port (127.0.0.1:8080, [::1]:8080)
                          counts as public; repeat for several; every other private address stays refused
  --callback-url URL      where the first account's callbacks are posted (channel status changes,
                          transcoding start and end; signed, see README); repeat for several (at most 5)
  --allow-remote-callbacks  callback URLs on hosts other than loopback (public addresses only)
  --allow-private-callbacks callback URLs on private and link-local addresses too
  --faults FILE           a stream fault profile (a JSON array of rules, src/localPlatform/README.md
                          "Stream faults"), read again each time the file changes; empty or removed: off

Media: with ffmpeg and ffprobe found, uploads and transcodings are real media (files that play);
without them transcoding is simulated (statuses only) and uploads are refused. The mode is said on
stderr at start (\`media: ...\`). To get ffmpeg: ${INSTALL_HINT}.

${CALLBACKS_USAGE}`;

export class UsageError extends Error {}

function number(flag: string, text: string | undefined, min: number): number {
  const n = Number(text);
  if (text === undefined || text === '' || !Number.isFinite(n) || n < min)
    throw new UsageError(`${flag} needs a number of at least ${min}`);
  return n;
}

function integer(flag: string, text: string, min: number, max: number): number {
  const n = number(flag, text, min);
  if (!Number.isInteger(n) || n > max) throw new UsageError(`${flag} needs an integer from ${min} to ${max}`);
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

const OPTIONS = {
  data: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'access-key': { type: 'string' },
  'secret-key': { type: 'string' },
  account: { type: 'string', multiple: true },
  'accounts-file': { type: 'string', multiple: true },
  demo: { type: 'boolean' },
  'clock-speed': { type: 'string' },
  'timestamp-window-ms': { type: 'string' },
  'max-body-bytes': { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  'replay-guard': { type: 'boolean' },
  verbose: { type: 'boolean' },
  'rtmp-port': { type: 'string' },
  'max-live-channels': { type: 'string' },
  'max-jobs': { type: 'string' },
  ffmpeg: { type: 'string' },
  'simulated-live': { type: 'boolean' },
  'allow-private-sources': { type: 'boolean' },
  'test-public-address': { type: 'string', multiple: true },
  'callback-url': { type: 'string', multiple: true },
  'allow-remote-callbacks': { type: 'boolean' },
  'allow-private-callbacks': { type: 'boolean' },
  faults: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `--test-public-address`: one exact IPv4 address or bracketed IPv6 address with its port, as the check compares. */
function testAddress(value: string): string {
  const m = /^(\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:.]+\]):(\d{1,5})$/.exec(value);
  const port = m ? Number(m[2]) : 0;
  const address = m?.[1].replace(/^\[|\]$/g, '') ?? '';
  if (!m || isIP(address) === 0 || port < 1 || port > 65535)
    throw new UsageError(
      `--test-public-address needs ADDRESS:PORT, such as 127.0.0.1:8080 (got ${JSON.stringify(value.slice(0, 100))})`,
    );
  return m[1].toLowerCase() + ':' + port;
}

/** node:util's own refusals, in this command's words. */
function usageErrorOf(error: unknown): UsageError {
  const e = error as NodeJS.ErrnoException;
  const flag = /'(-{1,2}[^' ]+)/.exec(e.message ?? '')?.[1] ?? '';
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new UsageError(`unknown option ${flag}`);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return new UsageError(
        /argument missing|ambiguous/.test(e.message) ? `${flag} needs a value` : `${flag} takes no value`,
      );
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return new UsageError(`unexpected argument ${/'([^']*)'/.exec(e.message)?.[1] ?? ''}`.trim());
    default:
      return new UsageError(e.message ?? String(error));
  }
}

function readArgv(argv: string[]) {
  try {
    return parseArgv({ args: argv, options: OPTIONS, strict: true, allowPositionals: false, tokens: true });
  } catch (error) {
    throw usageErrorOf(error);
  }
}

export function parseArgs(argv: string[], env: NodeJS.ProcessEnv): LocalPlatformOptions & { verbose: boolean } {
  const parsed = readArgv(argv);
  const v = parsed.values;
  if (v.help) throw new UsageError('');
  // Accounts in the order given, whether inline or from a file (user ids are derived in this order).
  const accounts: PlatformAccount[] = [];
  for (const token of parsed.tokens) {
    if (token.kind !== 'option' || token.value === undefined) continue;
    if (token.name === 'account') {
      const text = token.value;
      const colon = text.indexOf(':');
      if (colon <= 0 || colon === text.length - 1) throw new UsageError('--account needs KEY:SECRET');
      accounts.push({ accessKey: text.slice(0, colon), secretKey: text.slice(colon + 1) });
    } else if (token.name === 'accounts-file') {
      accounts.push(...readAccountsFile(token.value));
    }
  }
  const options: LocalPlatformOptions & { verbose: boolean } = {
    dataDir: v.data ?? '',
    accounts,
    port: v.port === undefined ? 8790 : number('--port', v.port, 0),
    verbose: v.verbose ?? false,
    // The command line may use ffmpeg from the npm packages; the extension never does (README).
    media: { npmFallback: true },
  };
  if (v.host !== undefined) options.host = v.host;
  if (v.demo) options.demo = true;
  if (v['clock-speed'] !== undefined) options.clockSpeed = number('--clock-speed', v['clock-speed'], Number.MIN_VALUE);
  if (v['timestamp-window-ms'] !== undefined)
    options.timestampWindowMs = number('--timestamp-window-ms', v['timestamp-window-ms'], 0);
  if (v['max-body-bytes'] !== undefined) options.maxBodyBytes = number('--max-body-bytes', v['max-body-bytes'], 1);
  if (v['allowed-host'] !== undefined) {
    for (const name of v['allowed-host']) {
      if (!/^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:.]+|[A-Za-z0-9._-]+)$/.test(name))
        throw new UsageError(`--allowed-host needs a host name or address (got ${JSON.stringify(name.slice(0, 100))})`);
    }
    options.allowedHosts = v['allowed-host'];
  }
  if (v['replay-guard']) options.replayGuard = true;
  if (v.ffmpeg !== undefined) {
    if (v.ffmpeg === '') throw new UsageError('--ffmpeg needs a folder holding ffmpeg and ffprobe');
    options.media = { ...options.media, ffmpegDir: v.ffmpeg };
  }
  const accessKey = v['access-key'];
  const secretKey = v['secret-key'] ?? env.LOCAL_PLATFORM_SECRET_KEY;
  if (accessKey !== undefined) {
    if (!secretKey) throw new UsageError('--access-key needs --secret-key (or LOCAL_PLATFORM_SECRET_KEY)');
    accounts.unshift({ accessKey, secretKey });
  } else if (v['secret-key'] !== undefined) {
    throw new UsageError('--secret-key needs --access-key');
  }
  if (!options.dataDir) throw new UsageError('--data DIR is required');
  if (accounts.length === 0)
    throw new UsageError('give an account: --access-key and --secret-key, --account KEY:SECRET or --accounts-file');
  if (!Number.isInteger(options.port)) throw new UsageError('--port needs an integer');
  // Live options are checked even with --simulated-live, so a typo is never silently ignored.
  const live: NonNullable<LocalPlatformOptions['live']> = { npmFallback: true };
  if (v['rtmp-port'] !== undefined) live.rtmpPort = integer('--rtmp-port', v['rtmp-port'], 0, 65535);
  if (v['max-live-channels'] !== undefined)
    live.maxLiveChannels = integer('--max-live-channels', v['max-live-channels'], 1, Number.MAX_SAFE_INTEGER);
  if (v['max-jobs'] !== undefined)
    options.media = { ...options.media, maxJobs: integer('--max-jobs', v['max-jobs'], 1, 64) };
  if (v.ffmpeg !== undefined) live.ffmpegDir = v.ffmpeg;
  if (v['allow-private-sources']) live.allowPrivateSources = true;
  if (v['test-public-address'] !== undefined) live.publicAddressesForTests = v['test-public-address'].map(testAddress);
  if (v['allow-remote-callbacks'] || v['allow-private-callbacks'])
    options.callbacks = {
      allowRemote: v['allow-remote-callbacks'] === true,
      allowPrivate: v['allow-private-callbacks'] === true,
    };
  if (v['callback-url'] !== undefined) {
    const policy = {
      allowRemote: options.callbacks?.allowRemote === true,
      allowPrivate: options.callbacks?.allowPrivate === true,
    };
    if (v['callback-url'].length > MAX_URLS)
      throw new UsageError(`--callback-url may be given at most ${MAX_URLS} times`);
    for (const url of v['callback-url']) {
      const problem = callbackUrlProblem(url, policy);
      if (problem) throw new UsageError(`--callback-url ${problem}`);
    }
    accounts[0] = { ...accounts[0], callbackUrls: v['callback-url'] };
  }
  if (v.faults !== undefined) {
    if (v.faults === '') throw new UsageError('--faults needs a file holding a fault profile (a JSON array of rules)');
    options.faultsFile = v.faults;
  }
  // Real live media unless asked not to (simulated anyway when no ffmpeg is found).
  if (!v['simulated-live']) options.live = live;
  return options;
}
