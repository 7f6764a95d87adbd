/**
 * The built-in reference clip: motion and fine detail that an encoder has to spend bits on (a Mandelbrot zoom
 * blended with ffmpeg's moving test pattern), with a tone, encoded near-losslessly (x264 CRF 12). Made once per
 * size and kept in the cache folder: rendering the fractal takes a while on two cores.
 */
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { runTool, type RunOptions } from '../../media/tools';

export interface BuiltinSize {
  readonly width: number;
  readonly height: number;
  readonly seconds: number;
}

export const BUILTIN_SIZE: BuiltinSize = { width: 1280, height: 720, seconds: 8 };

/** The clip's file in `cacheDir`, made first when missing. */
export async function builtinReference(
  ffmpeg: string,
  cacheDir: string,
  size: BuiltinSize = BUILTIN_SIZE,
  options: RunOptions = {},
): Promise<string> {
  const { width, height, seconds } = size;
  const file = join(cacheDir, `ladder-reference-${width}x${height}-${seconds}s-v1.mp4`);
  if ((await stat(file).catch(() => undefined))?.isFile()) return file;
  await mkdir(cacheDir, { recursive: true });
  // Written beside it, then renamed: a cancelled or failed run leaves no half clip to be taken for the clip.
  const partial = `${file}.${process.pid}.partial.mp4`;
  const video =
    `mandelbrot=s=${width}x${height}:r=25:maxiter=150:end_pts=${seconds * 50},trim=duration=${seconds}[m];` +
    `testsrc2=s=${width}x${height}:r=25:d=${seconds}[t];` +
    '[m][t]blend=all_mode=overlay:all_opacity=0.35,format=yuv420p[v]';
  try {
    await runTool(
      ffmpeg,
      [
        ...['-hide_banner', '-nostdin', '-v', 'error', '-y', '-filter_complex', video],
        ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`],
        ...['-map', '[v]', '-map', '0:a', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '12', '-g', '50'],
        ...['-c:a', 'aac', '-b:a', '128k', '-t', String(seconds), '-movflags', '+faststart', '-f', 'mp4', partial],
      ],
      { timeoutMs: 15 * 60_000, ...options },
    );
    await rename(partial, file);
  } finally {
    await rm(partial, { force: true });
  }
  return file;
}
