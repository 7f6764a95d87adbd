/**
 * The prologue the media command lines share (`npm run qa`, `npm run ladder`): options read with node:util
 * `parseArgs` (strict: an unknown option or a missing value is a usage error), ffmpeg found as the platform finds
 * it (`--ffmpeg DIR`, then FFMPEG_DIR, the PATH, the usual places, the npm packages), the work aborted on SIGINT or
 * SIGTERM, and one exit code convention: the work's own (0 clean, 1 findings), 2 could not run (bad option, no
 * ffmpeg, unreadable input), 130 stopped (`runUntilStopped`, which `npm run inspect` uses too).
 */
import { parseArgs } from 'node:util';
import { findMediaTools, type MediaTools } from './tools';

/** A mistake in what the user gave (options, files): its message is shown as it is. */
export class UsageError extends Error {}

type OptionSpecs = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

/** `argv` read against `options` (`--help` / `-h` answer with the usage); every problem a UsageError naming it. */
export function readOptions<O extends OptionSpecs>(
  argv: readonly string[],
  options: O,
  usage: string,
  allowPositionals = false,
): { values: Record<string, string | boolean | string[] | boolean[] | undefined>; positionals: string[] } {
  if (argv.includes('--help') || argv.includes('-h')) throw new UsageError(usage);
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options, allowPositionals, strict: true });
    return { values: values as Record<string, string | boolean | string[] | boolean[] | undefined>, positionals };
  } catch (error) {
    // parseArgs's messages name the option ("Option '--format <value>' argument missing"); the usage follows. Its
    // hint on positionals that start with a dash is left out (none of these commands takes one).
    const message = (error as Error).message
      .split('. To specify a positional')[0]!
      .replace(/([.?]?)\n/g, (_, end: string) => `${end || '.'} `);
    throw new UsageError(`${message.replace(/\.$/, '')}; ${usage}`);
  }
}

export interface MediaCommandLine<A> {
  /** The prefix of every message: `qa`, `ladder`. */
  readonly name: string;
  /** Reads the options; throws a UsageError (or the command's own input error) on a mistake. */
  parse(argv: readonly string[]): A;
  ffmpegDir(args: A): string | undefined;
  /** What ffmpeg is needed for, said when it is not found ("the content checks decode pictures ... with ffmpeg"). */
  readonly needs: string;
  /** Errors whose message is the user's to read as it is (besides UsageError): the command's input errors. */
  isInputError(error: unknown): boolean;
  /** Said before any other failure's message: "could not check". */
  readonly couldNot: string;
  /** The work; its result is the exit code (0 clean, 1 findings). */
  run(args: A, tools: MediaTools, signal: AbortSignal): Promise<number>;
}

/** Runs a media command line to its exit code, messages on stderr. */
export async function runMediaCommandLine<A>(command: MediaCommandLine<A>, argv: readonly string[]): Promise<number> {
  const say = (text: string): void => void process.stderr.write(`${command.name}: ${text}\n`);
  let args: A;
  try {
    args = command.parse(argv);
  } catch (error) {
    say((error as Error).message);
    return 2;
  }
  const dir = command.ffmpegDir(args);
  const mode = await findMediaTools({ ...(dir ? { dir } : {}), npmFallback: true });
  if (mode.kind !== 'real') {
    say(`${command.needs}: ${mode.reason}`);
    return 2;
  }
  return runUntilStopped(
    command.name,
    (signal) => command.run(args, mode.tools, signal),
    (error) => {
      const message = (error as Error).message ?? String(error);
      return error instanceof UsageError || command.isInputError(error) ? message : `${command.couldNot}: ${message}`;
    },
  );
}

/**
 * Runs a command line's work with a signal that SIGINT and SIGTERM abort: its result is the exit code; stopped is
 * 130 (`<name>: stopped`), any other failure 2 with `describe`'s words on stderr.
 */
export async function runUntilStopped(
  name: string,
  work: (signal: AbortSignal) => Promise<number>,
  describe: (error: unknown) => string,
): Promise<number> {
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    return await work(controller.signal);
  } catch (error) {
    process.stderr.write(`${name}: ${controller.signal.aborted ? 'stopped' : describe(error)}\n`);
    return controller.signal.aborted ? 130 : 2;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/** The entry point of a command line's module: sets the exit code, never throws. */
export function startMediaCommandLine<A>(command: MediaCommandLine<A>): void {
  runMediaCommandLine(command, process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${command.name}: ${String(error)}\n`);
      process.exitCode = 2;
    },
  );
}
