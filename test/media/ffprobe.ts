/**
 * ffprobe as an optional oracle for the tests: the product reads media in-process (src/media/read.ts); the tests
 * cross-check what it reads against ffprobe when a working one is found. The npm packages' static ffprobe dies
 * (SIGSEGV) on MPEG-TS and HLS, so `workingFfprobe()` tries the one it finds on a small TS file first, and a
 * cross-check is skipped (never the test) when none works.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findMediaTools, runTool, type MediaTools, type RunOptions } from '../../src/media/tools';

/** What ffprobe says of one stream (the fields this project reads). */
export interface ProbedStream {
  index: number;
  codec_type: 'video' | 'audio' | 'data' | 'subtitle' | string;
  codec_name?: string;
  profile?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  bit_rate?: string;
  sample_rate?: string;
  channels?: number;
  duration?: string;
}

export interface ProbeResult {
  streams: ProbedStream[];
  format: {
    format_name?: string;
    duration?: string;
    size?: string;
    bit_rate?: string;
    nb_streams?: number;
  };
}

/** `ffprobe -show_streams -show_format` of a file or an address, as JSON. */
export async function probe(
  tools: Pick<MediaTools, 'ffprobe'>,
  input: string,
  options: RunOptions = {},
): Promise<ProbeResult> {
  if (!tools.ffprobe) throw new Error('no ffprobe beside ffmpeg');
  const { stdout } = await runTool(
    tools.ffprobe,
    ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', input],
    { timeoutMs: 60_000, ...options },
  );
  const parsed = JSON.parse(stdout.toString('utf8')) as Partial<ProbeResult>;
  return { streams: parsed.streams ?? [], format: parsed.format ?? {} };
}

let working: Promise<string | undefined> | undefined;

/** The path of an ffprobe that reads MPEG-TS without crashing, or undefined. */
export function workingFfprobe(): Promise<string | undefined> {
  working ??= (async () => {
    const mode = await findMediaTools({ npmFallback: true });
    if (mode.kind !== 'real' || !mode.tools.ffprobe) return undefined;
    const ffprobe = mode.tools.ffprobe;
    const dir = await mkdtemp(join(tmpdir(), 'vpt-ffprobe-check-'));
    try {
      const file = join(dir, 'check.ts');
      await runTool(mode.tools.ffmpeg, [
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=64x64:rate=25',
        '-t',
        '0.2',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-f',
        'mpegts',
        '-y',
        file,
      ]);
      await runTool(ffprobe, ['-v', 'error', '-show_streams', file], { timeoutMs: 20_000 });
      return ffprobe;
    } catch {
      return undefined;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  return working;
}

/** ffprobe's packets of the video stream: presentation and decode times and the key flag, in file order. */
export async function probePackets(
  ffprobe: string,
  file: string,
): Promise<Array<{ pts: number; dts: number; key: boolean }>> {
  const { stdout } = await runTool(
    ffprobe,
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,dts_time,flags', '-of', 'json', file],
    { timeoutMs: 60_000 },
  );
  const packets = (JSON.parse(stdout.toString('utf8')) as { packets?: Array<Record<string, string>> }).packets ?? [];
  return packets.map((p) => ({
    pts: Number(p.pts_time),
    dts: Number(p.dts_time),
    key: (p.flags ?? '').startsWith('K'),
  }));
}
