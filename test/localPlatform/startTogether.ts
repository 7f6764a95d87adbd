/**
 * A child process that starts a local platform at a given instant (argv: data folder, access key,
 * secret key, start time in ms), so two children race for a data folder for real. Prints `serving`
 * and holds the folder until killed, or prints `refused: <reason>` and exits 1.
 */
import { startLocalPlatform } from '../../src/localPlatform/server';

async function main(): Promise<void> {
  const [dataDir, accessKey, secretKey, at] = process.argv.slice(2);
  const wait = Number(at) - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  try {
    await startLocalPlatform({ dataDir, accounts: [{ accessKey, secretKey }], port: 0 });
    process.stdout.write('serving\n');
  } catch (error) {
    process.stdout.write(`refused: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

void main();
