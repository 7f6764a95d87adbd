/**
 * Runs every benchmark in bench/ (files named *.bench.ts, each exporting `run(): Promise<void>`
 * that prints its own figures). `npm run bench -- --only NAME` (or `npm run bench -- NAME`) runs only the files
 * whose name contains NAME.
 * The run ends with one table: each figure with a goal, its goal, the measured value, met or not.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { goalTable } from './goalTable';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const filter = args[0] === '--only' ? args[1] : args[0];
  const files = readdirSync(__dirname)
    .filter((file) => file.endsWith('.bench.ts'))
    .filter((file) => !filter || file.includes(filter))
    .sort();
  if (files.length === 0) throw new Error(`no benchmark matches ${filter ?? '*.bench.ts'}`);
  for (const file of files) {
    console.log(`\n== ${file} ==`);
    const bench = (await import(join(__dirname, file))) as { run: () => Promise<void> };
    await bench.run();
  }
  const table = goalTable();
  if (table) console.log(`\n== goals (issue 29), this run ==\n${table}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
