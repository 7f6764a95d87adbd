/**
 * Measures a file, or segment files played one after another, with one ffmpeg run: ebur128 (loudness, true peak)
 * and silencedetect on the first audio stream, blackdetect and freezedetect on the first video stream. The start
 * offset of audio and video comes from the container's timestamps, read in-process (read.ts).
 *
 * Bounded: at most `maxFiles` files and `maxBytes` bytes, each a regular local file that read.ts reads as media (a
 * playlist or any other file naming other files is refused, so nothing here follows a reference); ffmpeg is told
 * to open files only, runs for at most `timeoutMs`, and is killed when `signal` aborts.
 */
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readMedia, type MediaReading } from '../read';
import { runTool, type RunOptions } from '../tools';
import { FilterLog } from './filterLog';
import { DEFAULT_THRESHOLDS, type ContentMeasurement, type StartOffset, type Thresholds } from './model';

export interface MeasureOptions {
  readonly signal?: AbortSignal;
  /** Kills ffmpeg after this long (default 15 minutes). */
  readonly timeoutMs?: number;
  /** Measures only the first this many seconds (default: all). */
  readonly maxSeconds?: number;
  /** Refuses inputs larger than this in total (default 8 GiB). */
  readonly maxBytes?: number;
  /** Refuses more files than this (default 2000 segments). */
  readonly maxFiles?: number;
  readonly thresholds?: Partial<Thresholds>;
  /** Seconds measured so far, and of how many (0 when unknown). */
  readonly onProgress?: (seconds: number, total: number) => void;
  /** The caller's watchdog (no ffmpeg outlives a killed caller). */
  readonly track?: RunOptions['track'];
}

/** A bad input or option: the message names it and the rule. Nothing was run. */
export class QaInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QaInputError';
  }
}

const GiB = 1024 ** 3;

/** The inputs as absolute paths of regular files, within the limits. */
export async function checkInputs(
  inputs: string | readonly string[],
  options: Pick<MeasureOptions, 'maxBytes' | 'maxFiles'> = {},
): Promise<string[]> {
  const files = typeof inputs === 'string' ? [inputs] : inputs;
  const maxFiles = options.maxFiles ?? 2000;
  const maxBytes = options.maxBytes ?? 8 * GiB;
  if (files.length === 0) throw new QaInputError('inputs: give one file, or the segment files in playing order');
  if (files.length > maxFiles) throw new QaInputError(`inputs: at most ${maxFiles} files (got ${files.length})`);
  let bytes = 0;
  const paths: string[] = [];
  for (const file of files) {
    // Addresses are for Inspect Stream; here only local files (ffmpeg would otherwise open any protocol).
    if (/^[a-z][a-z0-9+.-]+:\/\//i.test(file))
      throw new QaInputError(`inputs: "${file}" is an address, not a local file`);
    const path = resolve(file);
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) throw new QaInputError(`inputs: "${file}" is not a file`);
    bytes += info.size;
    paths.push(path);
  }
  if (bytes > maxBytes) {
    throw new QaInputError(
      `inputs: ${(bytes / GiB).toFixed(2)} GiB in all, more than the ${(maxBytes / GiB).toFixed(2)} GiB measured`,
    );
  }
  return paths;
}

/** Reads the first seconds of each file: it must be media (not a playlist), and gives the tracks and durations. */
async function readInputs(paths: readonly string[], signal: AbortSignal | undefined): Promise<MediaReading[]> {
  const readings: MediaReading[] = [];
  for (const path of paths) {
    try {
      readings.push(await readMedia(path, { maxSeconds: 2, ...(signal ? { signal } : {}) }));
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new QaInputError(`inputs: "${path}" is not media this tool reads (${(error as Error).message})`);
    }
  }
  return readings;
}

/** The input's length (s), NaN when its first seconds do not tell (MPEG-TS has no header that says). */
function lengthOf(reading: MediaReading): number {
  return reading.complete ? reading.duration : (reading.wholeDuration ?? NaN);
}

function startOffsetOf(first: MediaReading): StartOffset | undefined {
  if (!first.video || !first.audio) return undefined;
  // From the first packet of either: an MPEG-TS clock starts anywhere (1.4 s in ffmpeg's own muxer).
  const origin = Math.min(first.video.start, first.audio.start);
  const video = first.video.start - origin;
  const audio = first.audio.start - origin;
  return { video, audio, audioLag: audio - video };
}

/** The filter graph for what the input has. */
function filterGraph(hasVideo: boolean, hasAudio: boolean, t: Thresholds): string {
  const parts: string[] = [];
  if (hasAudio) {
    // framelog=verbose keeps ebur128's ten lines a second out of the log: only its summary is read.
    parts.push(
      `[0:a:0]ebur128=peak=true:framelog=verbose,silencedetect=n=${t.silenceDb}dB:d=${t.silenceSeconds}[aout]`,
    );
  }
  if (hasVideo) {
    parts.push(
      `[0:v:0]blackdetect=d=${t.blackSeconds}:pix_th=${t.blackPixel},freezedetect=n=${t.freezeNoiseDb}dB:d=${t.freezeSeconds}[vout]`,
    );
  }
  return parts.join(';');
}

/** Measures `inputs` (one file, or segment files in playing order). */
export async function measureContent(
  ffmpeg: string,
  inputs: string | readonly string[],
  options: MeasureOptions = {},
): Promise<ContentMeasurement> {
  const thresholds = { ...DEFAULT_THRESHOLDS, ...options.thresholds };
  const paths = await checkInputs(inputs, options);
  const readings = await readInputs(paths, options.signal);
  const hasVideo = readings.some((r) => r.video);
  const hasAudio = readings.some((r) => r.audio);
  if (!hasVideo && !hasAudio) throw new QaInputError('inputs: no video or audio stream to measure');
  const summed = readings.reduce((sum, r) => sum + lengthOf(r), 0);
  const total = Number.isFinite(summed) ? summed : 0;
  const limit = options.maxSeconds !== undefined && options.maxSeconds > 0 ? options.maxSeconds : undefined;
  const log = new FilterLog();
  const graph = filterGraph(hasVideo, hasAudio, thresholds);
  const maps = [...(hasVideo ? ['-map', '[vout]'] : []), ...(hasAudio ? ['-map', '[aout]'] : [])];
  await withInput(paths, (input) =>
    runTool(
      ffmpeg,
      [
        ...['-hide_banner', '-nostdin', ...input],
        ...(limit ? ['-t', String(limit)] : []),
        ...['-filter_complex', graph, ...maps, '-f', 'null', '-'],
      ],
      {
        timeoutMs: options.timeoutMs ?? 15 * 60_000,
        stderrLimit: 16 * 1024,
        onStderrLine: (line) => {
          const before = log.time;
          log.read(line);
          if (log.time !== before) options.onProgress?.(log.time, limit ? Math.min(limit, total) : total);
        },
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.track ? { track: options.track } : {}),
      },
    ),
  );
  const duration = log.time > 0 ? log.time : total;
  log.finish(duration);
  const loudness = hasAudio ? log.loudness() : undefined;
  const startOffset = startOffsetOf(readings[0]!);
  return {
    input: paths[0]!,
    files: paths.length,
    duration,
    hasVideo,
    hasAudio,
    ...(loudness ? { loudness } : {}),
    black: log.black,
    frozen: log.frozen,
    silence: log.silence,
    ...(startOffset ? { startOffset } : {}),
    complete: !limit || duration < limit - 0.05,
  };
}

/** ffmpeg's concat demuxer over the segment files (quoted as its list syntax wants), files only. */
async function concatList(folder: string, paths: readonly string[]): Promise<string[]> {
  const list = join(folder, 'segments.txt');
  await writeFile(list, paths.map((path) => `file '${path.replace(/'/g, "'\\''")}'\n`).join(''));
  return ['-f', 'concat', '-safe', '0', '-i', list];
}

/**
 * ffmpeg's input arguments for one file or segment files in order (a concat list in a temporary folder, removed
 * after `work`), with only the file protocol allowed.
 */
export async function withInput<T>(paths: readonly string[], work: (args: string[]) => Promise<T>): Promise<T> {
  const folder = paths.length > 1 ? await mkdtemp(join(tmpdir(), 'vpt-qa-')) : undefined;
  try {
    const input = folder ? await concatList(folder, paths) : ['-i', paths[0]!];
    return await work(['-protocol_whitelist', 'file', ...input]);
  } finally {
    if (folder) await rm(folder, { recursive: true, force: true });
  }
}
