/**
 * The local platform as the extension starts it (embeddedPlatformOptions), in a process of its own so that
 * idle.bench.ts reads its CPU alone. Argument: the data folder. Prints `ready <baseUrl>`; ends when its
 * standard input closes (the benchmark ended, however it ended).
 */
import { embeddedPlatformOptions } from '../src/app/accounts/localPlatformHost';
import { startLocalPlatform } from '../src/localPlatform/server';

async function main(): Promise<void> {
  const account = { accessKey: 'bench-idle-key', secretKey: 'bench-idle-secret-0123456789' };
  const platform = await startLocalPlatform(embeddedPlatformOptions(process.argv[2], account, undefined));
  console.log(`ready ${platform.baseUrl} ${platform.rtmpUrl ?? 'simulated-live'}`);
  const stop = (): void => void platform.close().finally(() => process.exit(0));
  process.stdin.on('end', stop).on('error', stop).resume();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
