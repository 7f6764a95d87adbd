/**
 * The inspector on a 3-variant, 60-second VOD ladder (2-second segments, 30 per variant) served over loopback
 * HTTP, against ffprobe run once per segment on the same segment files (issue 29's reference: what a user
 * checking each segment by hand pays). The row says how many segments the inspector measured (all 90 in the
 * runs of 2026-11-28); the goal counts as met only when it measured every one.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from '../src/inspector/inspect';
import { nodeFetch } from '../src/inspector/source';
import { runTool } from '../src/media/tools';
import { workingFfprobe } from '../test/media/ffprobe';
import { makeLadder, realTools, serve } from '../test/inspector/golden';
import { goalRow } from './goalTable';

/** The arguments the inspector ran ffprobe with before media was read in-process (as read.bench.ts). */
const probeArgs = (file: string): string[] => [
  ...['-v', 'error', '-show_entries'],
  'stream=index,codec_type,codec_name,profile,level,width,height,avg_frame_rate,r_frame_rate,sample_rate,channels:' +
    'packet=stream_index,pts_time,dts_time,duration_time,flags:format=format_name,bit_rate',
  ...['-of', 'json', file],
];

export async function run(): Promise<void> {
  const tools = await realTools();
  const ffprobe = await workingFfprobe();
  const dir = mkdtempSync(join(tmpdir(), 'vpt-bench-inspect-'));
  try {
    let started = Date.now();
    await makeLadder(tools, dir, { seconds: 60, segmentSeconds: 2, gops: [50, 50, 50] });
    const segments = readdirSync(dir).filter((file) => file.endsWith('.ts'));
    console.log(`ladder made (3 variants, ${segments.length} segments) in ${Date.now() - started} ms`);
    const server = await serve(dir);
    const inspectMs: number[] = [];
    const probeMs: number[] = [];
    let probed = 0;
    try {
      // Alternating: an inspection, then ffprobe over every segment, three times.
      for (let round = 1; round <= 3; round++) {
        started = Date.now();
        const report = await inspect(`${server.url}/master.m3u8`, { fetch: nodeFetch });
        inspectMs.push(Date.now() - started);
        const s = report.sampled;
        probed = s.segmentsProbed;
        console.log(
          `inspect round ${round}: ${inspectMs[round - 1]} ms, ${s.requests.get} GET + ${s.requests.head} HEAD, ` +
            `${Math.round(s.bytesRead / 1024)} KiB read, ${s.segmentsProbed} segments probed, ` +
            `${report.findings.filter((f) => f.severity === 'error').length} error(s)`,
        );
        if (!ffprobe) continue;
        started = Date.now();
        for (const file of segments) await runTool(ffprobe, probeArgs(join(dir, file)), { timeoutMs: 60_000 });
        probeMs.push(Date.now() - started);
        console.log(`ffprobe once per segment, round ${round}: ${probeMs[round - 1]} ms for ${segments.length}`);
      }
    } finally {
      await server.close();
    }
    if (!ffprobe) {
      console.log('no working ffprobe: no reference');
      return;
    }
    const median = (values: number[]): number => [...values].sort((a, b) => a - b)[1]!;
    const ratio = median(inspectMs) / median(probeMs);
    const every = probed >= segments.length;
    goalRow({
      figure: `inspect, 3-variant ${segments.length}-segment VOD ladder, vs ffprobe once per segment`,
      goal: 'at most 0.5x, every segment measured',
      measured: `${ratio.toFixed(2)}x, ${probed} of ${segments.length} segments measured`,
      met: every && ratio <= 0.5,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
