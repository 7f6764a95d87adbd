/**
 * Media read in-process (src/media/read.ts) against one ffprobe run per segment, as the inspector did before
 * (`-show_entries stream=...:packet=...`), on a 6 s 720p MPEG-TS segment and a 6 s fMP4 segment (with its init
 * section), alternating sides in the same rounds. Prints the times and their ratio; asserts nothing. Without a
 * working ffprobe (the npm packages' one dies on MPEG-TS) only the in-process side is measured.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMedia } from '../src/media/read';
import { findMediaTools, runTool } from '../src/media/tools';
import { workingFfprobe } from '../test/media/ffprobe';
import { goalRow } from './goalTable';

const ROUNDS = 10;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

export async function run(): Promise<void> {
  const mode = await findMediaTools({ npmFallback: true });
  if (mode.kind !== 'real') throw new Error(mode.reason);
  const ffprobe = await workingFfprobe();
  const dir = mkdtempSync(join(tmpdir(), 'vpt-bench-read-'));
  try {
    // 12 s of 720p, cut in 6 s segments, as TS and as fMP4.
    for (const type of ['mpegts', 'fmp4'] as const) {
      mkdirSync(join(dir, type));
      await runTool(mode.tools.ffmpeg, [
        ...['-hide_banner', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25:duration=12'],
        ...['-f', 'lavfi', '-i', 'sine=duration=12', '-c:v', 'libx264', '-preset', 'veryfast', '-g', '50'],
        ...['-c:a', 'aac', '-f', 'hls', '-hls_time', '6', '-hls_playlist_type', 'vod', '-hls_segment_type', type],
        ...['-hls_segment_filename', join(dir, type, type === 'fmp4' ? 's%d.m4s' : 's%d.ts')],
        join(dir, type, 'index.m3u8'),
      ]);
    }
    const ts = join(dir, 'mpegts', 's1.ts');
    const init = readFileSync(join(dir, 'fmp4', 'init.mp4'));
    const fmp4 = readFileSync(join(dir, 'fmp4', 's1.m4s'));
    // ffprobe reads files: the fMP4 segment with its init section in front, as the inspector wrote it.
    const fmp4File = join(dir, 'fmp4', 'joined.mp4');
    writeFileSync(fmp4File, Buffer.concat([init, fmp4]));
    const probeArgs = (file: string): string[] => [
      ...['-v', 'error', '-show_entries'],
      'stream=index,codec_type,codec_name,profile,level,width,height,avg_frame_rate,r_frame_rate,sample_rate,channels:' +
        'packet=stream_index,pts_time,dts_time,duration_time,flags:format=format_name,bit_rate',
      ...['-of', 'json', file],
    ];
    for (const [name, inProcess, file] of [
      ['6 s TS segment', () => readMedia(readFileSync(ts)), ts],
      ['6 s fMP4 segment', () => readMedia(fmp4, { init }), fmp4File],
    ] as const) {
      await inProcess(); // warm up the reader (JIT, module load)
      const ours: number[] = [];
      const theirs: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        ours.push(await timed(inProcess));
        if (ffprobe) theirs.push(await timed(() => runTool(ffprobe, probeArgs(file), { timeoutMs: 60_000 })));
      }
      const a = median(ours);
      if (!ffprobe) {
        console.log(`${name}: in-process ${a.toFixed(1)} ms (median of ${ROUNDS}); no working ffprobe to compare`);
        continue;
      }
      const b = median(theirs);
      console.log(
        `${name}: in-process ${a.toFixed(1)} ms, ffprobe ${b.toFixed(1)} ms (medians of ${ROUNDS}, same rounds); ` +
          `ffprobe / in-process ${(b / a).toFixed(2)}`,
      );
      goalRow({
        figure: `media reading in-process vs one ffprobe run, per ${name}`,
        goal: 'at least 5x less time',
        measured: `${(b / a).toFixed(1)}x less (${a.toFixed(1)} / ${b.toFixed(1)} ms)`,
        met: b / a >= 5,
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
