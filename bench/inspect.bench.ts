/**
 * How long the inspector takes on a 3-variant, 60-second VOD ladder (2-second segments) served over loopback
 * HTTP: the figure behind README's "within seconds". Prints the time; asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from '../src/inspector/inspect';
import { nodeFetch } from '../src/inspector/source';
import { makeLadder, realTools, serve } from '../test/inspector/golden';

export async function run(): Promise<void> {
  const tools = await realTools();
  const dir = mkdtempSync(join(tmpdir(), 'vpt-bench-inspect-'));
  try {
    let started = Date.now();
    await makeLadder(tools, dir, { seconds: 60, segmentSeconds: 2, gops: [50, 50, 50] });
    console.log(`ladder made (3 variants × 30 segments) in ${Date.now() - started} ms`);
    const server = await serve(dir);
    try {
      for (let round = 1; round <= 3; round++) {
        started = Date.now();
        const report = await inspect(`${server.url}/master.m3u8`, { fetch: nodeFetch });
        const ms = Date.now() - started;
        const s = report.sampled;
        console.log(
          `inspect round ${round}: ${ms} ms, ${s.requests.get} GET + ${s.requests.head} HEAD, ` +
            `${Math.round(s.bytesRead / 1024)} KiB read, ${s.segmentsProbed} segments probed, ` +
            `${report.findings.filter((f) => f.severity === 'error').length} error(s)`,
        );
      }
    } finally {
      await server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
