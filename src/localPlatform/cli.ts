/**
 * Command line of the local platform (bundled to dist/localPlatform.js):
 *
 *   npm run platform -- --port 8790 --host 127.0.0.1 --data DIR --access-key K --secret-key S [--demo]
 *
 * Prints exactly one line on stdout when ready: `listening http://HOST:PORT/rest`. Never prints a
 * secret. Stops cleanly on SIGINT / SIGTERM.
 */
import { CALLBACK_VERBS, CALLBACKS_USAGE, CallbackUsageError, runCallbackVerb } from './callbacks/cliCommands';
import { parseArgs, USAGE, UsageError } from './cliArgs';
import { startLocalPlatform } from './server';

/** `callbacks`, `trigger`, `resend`, `callback-faults`: talk to a running platform (callbacks/cliCommands.ts). */
async function callbackVerb(argv: string[]): Promise<void> {
  try {
    process.stdout.write(await runCallbackVerb(argv, process.env));
  } catch (error) {
    if (error instanceof CallbackUsageError) {
      process.stderr.write(`localPlatform: ${error.message}\n\n${CALLBACKS_USAGE}`);
      process.exit(2);
    }
    process.stderr.write(`localPlatform: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

async function main(): Promise<void> {
  const first = process.argv[2] ?? '';
  if ((CALLBACK_VERBS as readonly string[]).includes(first)) return callbackVerb(process.argv.slice(2));
  let options: ReturnType<typeof parseArgs>;
  try {
    options = parseArgs(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof UsageError) {
      // --help prints the usage on stdout; a mistake prints it on stderr with the reason.
      if (!error.message) {
        process.stdout.write(USAGE);
        process.exit(0);
      }
      process.stderr.write(`localPlatform: ${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    throw error;
  }
  const { verbose, ...platformOptions } = options;
  if (verbose) {
    platformOptions.onRequest = (e) => process.stderr.write(`${e.action} ${e.code} ${e.durationMs.toFixed(1)}ms\n`);
  }
  const platform = await startLocalPlatform(platformOptions);
  process.stdout.write(`listening ${platform.restUrl}\n`);
  // Beside the one stdout line (the contract scripts read): which media mode runs, and where uploads go.
  process.stderr.write(`media: ${platform.mediaDescription}\nupload: ${platform.baseUrl}/multipart/upload\n`);
  // stdout keeps its one line; the media mode goes to stderr.
  if (platform.rtmpUrl) process.stderr.write(`localPlatform: real live media, RTMP ingest ${platform.rtmpUrl}\n`);
  else if (platform.liveSimulatedReason)
    process.stderr.write(`localPlatform: simulated live media (${platform.liveSimulatedReason})\n`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    platform.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(
          `localPlatform: error while stopping: ${error instanceof Error ? error.message : String(error)}\n`,
        );
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  const e = error as NodeJS.ErrnoException;
  const message =
    e.code === 'EADDRINUSE'
      ? `the port is already in use (${e.message})`
      : e instanceof Error
        ? e.message
        : String(error);
  process.stderr.write(`localPlatform: ${message}\n`);
  process.exit(1);
});
