/**
 * A still (JPEG) at each timed finding, so that a reader sees the black, the frozen picture or what was on screen
 * during a silence. The same ffmpeg command as the inspector's tooltip still (src/inspector/stills.ts
 * makeThumbnail), written here because src/media may not import the inspector; it also takes segment lists.
 */
import { runTool, type RunOptions } from '../tools';
import type { QaFinding } from './checks';
import { checkInputs, withInput } from './measure';
import type { ContentMeasurement } from './model';

export interface StillOptions {
  readonly signal?: AbortSignal;
  /** Width of the picture (default 320). */
  readonly width?: number;
  readonly track?: RunOptions['track'];
}

/** Where in a finding's range its still is taken: the middle (the black itself, not the cut into it). */
export function stillTime(finding: QaFinding): number | undefined {
  if (!finding.range || finding.code === 'QA-AV-OFFSET') return undefined;
  return (finding.range.start + finding.range.end) / 2;
}

/** One JPEG at `seconds` into the input (one file, or segment files in order). */
export async function stillAt(
  ffmpeg: string,
  inputs: string | readonly string[],
  seconds: number,
  options: StillOptions = {},
): Promise<Buffer> {
  const paths = await checkInputs(inputs);
  const width = Math.max(16, Math.min(1920, Math.floor(options.width ?? 320)));
  const { stdout } = await withInput(paths, (input) =>
    runTool(
      ffmpeg,
      [
        ...['-hide_banner', '-nostdin', '-v', 'error', '-ss', Math.max(0, seconds).toFixed(3), ...input],
        ...['-an', '-frames:v', '1', '-vf', `scale=${width}:-2`, '-f', 'image2pipe', '-c:v', 'mjpeg', 'pipe:1'],
      ],
      {
        timeoutMs: 60_000,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.track ? { track: options.track } : {}),
      },
    ),
  );
  if (stdout.length === 0) throw new Error(`no picture at ${seconds.toFixed(2)} s`);
  return stdout;
}

export interface FindingStill {
  readonly finding: QaFinding;
  readonly at: number;
  readonly jpeg: Buffer;
}

/** A still for each timed finding of a video input (at most `max`, default 50), one ffmpeg after the other. */
export async function stillsFor(
  ffmpeg: string,
  measurement: Pick<ContentMeasurement, 'hasVideo'>,
  inputs: string | readonly string[],
  findings: readonly QaFinding[],
  options: StillOptions & { max?: number } = {},
): Promise<FindingStill[]> {
  const stills: FindingStill[] = [];
  if (!measurement.hasVideo) return stills;
  for (const finding of findings) {
    const at = stillTime(finding);
    if (at === undefined) continue;
    if (stills.length >= (options.max ?? 50)) break;
    stills.push({ finding, at, jpeg: await stillAt(ffmpeg, inputs, at, options) });
  }
  return stills;
}
