/**
 * The ladder lab: encodes the first seconds of a reference once per rung, with the local platform's own encode
 * command (src/localPlatform/media/commands.ts: the same scaling, rate control, keyframes and advancedArguments as
 * its transcodes), then measures each rendition: bitrates from its packets (read in-process), luma PSNR and SSIM
 * against the reference scaled to the rendition's size, VMAF where the ffmpeg in use has libvmaf, encode time and
 * speed. For a group of a local platform's account, the platform makes the rungs instead (throughPlatform.ts: the
 * reference uploaded and transcoded with the group, each rendition fetched by its playback address) and the encode
 * times are not measured. Bounded (seconds, rungs, a timeout per ffmpeg) and cancellable (`signal` kills the running
 * ffmpeg and stops the waiting); every rendition is deleted once measured.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { l10n } from '../../l10n/l10n';
import { encodeArgs, KEYFRAME_SECONDS, sourceDemuxer, type SourceInput } from '../../localPlatform/media/commands';
import { readAdvanced } from '../../localPlatform/media/advanced';
import type { JobTemplate } from '../../localPlatform/store/records';
import { readMedia, type MediaReading } from '../../media/read';
import { runTool, ToolError, type MediaTools, type RunOptions } from '../../media/tools';
import { ladderFindings } from './findings';
import {
  PlatformSimulatesMedia,
  renditionsThroughPlatform,
  type PlatformRenditions,
  type PlatformTranscode,
} from './throughPlatform';
import { LadderInputError } from './group';
import type { Ladder, LadderEvaluation, ReferenceInfo, Rung, RungResult } from './model';

/** The local platform's default x264 preset (src/localPlatform/media/engine.ts). */
export const LAB_PRESET = 'veryfast';
export const DEFAULT_SECONDS = 10;
export const MAX_SECONDS = 120;

export interface LabOptions {
  /** Where the renditions are written while measured (removed after each). */
  readonly workDir: string;
  /** Seconds of the reference to encode (default 10, at most 120). */
  readonly seconds?: number;
  readonly signal?: AbortSignal;
  /** A step's words and how far the whole run is (0–1). */
  readonly onProgress?: (message: string, fraction: number) => void;
  readonly track?: RunOptions['track'];
  /** The group is an account's of a local platform: the platform makes the rungs (throughPlatform.ts). */
  readonly platform?: PlatformTranscode;
  /** Why the rungs are encoded with ffmpeg here although the group is an account's (said in the report). */
  readonly ffmpegWhy?: string;
}

export interface ReferenceChoice {
  readonly label: string;
  readonly file: string;
}

/** Kills any one ffmpeg of the lab after this long: a 120 s 4K rung on a slow machine stays well inside. */
const STEP_TIMEOUT_MS = 20 * 60_000;

function jobTemplate(rung: Rung): JobTemplate {
  return {
    name: rung.name,
    videoWidth: rung.width,
    videoHeight: rung.height,
    videoBitrate: rung.videoKbps,
    audioBitrate: rung.audioBps,
    hls: false,
    mp4: true,
    flv: false,
    ts: false,
    hlsEncryptType: 0,
    mp4EncryptType: 0,
    flvEncryptType: 0,
    tsEncryptType: 0,
    defaultVideo: 0,
    ...(rung.advancedArguments ? { advancedArguments: rung.advancedArguments } : {}),
  } as JobTemplate;
}

/** Whether this ffmpeg has a filter (`ffmpeg -filters`), asked once per binary. */
const filterLists = new Map<string, Promise<string>>();
async function hasFilter(ffmpeg: string, name: string, options: RunOptions): Promise<boolean> {
  let list = filterLists.get(ffmpeg);
  if (!list) {
    list = runTool(ffmpeg, ['-hide_banner', '-filters'], { timeoutMs: 30_000, ...options }).then((r) =>
      r.stdout.toString(),
    );
    filterLists.set(ffmpeg, list);
    list.catch(() => filterLists.delete(ffmpeg));
  }
  return new RegExp(`^\\s*\\S+\\s+${name}\\s`, 'm').test(await list);
}

/** Video bitrate from the packets: the average, and the highest 2 s window (what one HLS segment would carry). */
function bitrates(reading: MediaReading): { average: number; peak: number; total: number } {
  const video = (reading.packets ?? []).filter((p) => p.track === 'video');
  const windows = new Map<number, number>();
  for (const p of video) {
    const w = Math.floor(p.pts / KEYFRAME_SECONDS);
    windows.set(w, (windows.get(w) ?? 0) + p.size);
  }
  const full = [...windows.entries()].filter(([w]) => (w + 1) * KEYFRAME_SECONDS <= (reading.video?.end ?? 0) + 0.05);
  const peakBytes = Math.max(0, ...(full.length > 0 ? full : [...windows.entries()]).map(([, bytes]) => bytes));
  return {
    average: reading.video?.bitRate ?? 0,
    peak: (peakBytes * 8) / KEYFRAME_SECONDS,
    total: reading.bitRate ?? 0,
  };
}

function reading(stderr: string, pattern: RegExp): number {
  const match = pattern.exec(stderr);
  if (!match) return NaN;
  return match[1] === 'inf' ? Infinity : Number(match[1]);
}

/** libvmaf's own words for its failure (a model file it cannot read, typically), else the tool's error. */
function vmafProblem(error: unknown): string {
  if (!(error instanceof ToolError)) return String(error);
  const line = error.stderr.split('\n').find((l) => /model/i.test(l));
  return line?.trim() ?? error.message;
}

/**
 * The rendition and the reference, both from 0, at one size (bicubic): the rendition's (the reference scaled down to
 * it) or the reference's (the rendition scaled up, as a player shows it on a screen of the reference's size).
 */
function compareGraph(size: Size, at: 'rendition' | 'reference', metrics: string[]): string {
  const n = metrics.length;
  const split = (label: string): string =>
    n > 1 ? `,split=${n}${metrics.map((_, i) => `[${label}${i}]`).join('')}` : `[${label}0]`;
  const scale = `,scale=${size.width}:${size.height}:flags=bicubic`;
  return [
    `[0:v]setpts=PTS-STARTPTS${at === 'reference' ? scale : ''},setsar=1,format=yuv420p${split('d')}`,
    `[1:v]setpts=PTS-STARTPTS${at === 'rendition' ? scale : ''},setsar=1,format=yuv420p${split('r')}`,
    ...metrics.map((metric, i) => `[d${i}][r${i}]${metric}[m${i}]`),
  ].join(';');
}

interface Size {
  readonly width: number;
  readonly height: number;
}

async function compare(
  ffmpeg: string,
  rendition: string,
  reference: SourceInput,
  seconds: number,
  size: Size,
  at: 'rendition' | 'reference',
  metrics: string[],
  options: RunOptions,
): Promise<string> {
  const { stderr } = await runTool(
    ffmpeg,
    [
      ...['-hide_banner', '-nostdin', '-nostats', '-t', String(seconds), '-i', rendition],
      ...['-protocol_whitelist', 'file', '-f', reference.demuxer, '-t', String(seconds), '-i', reference.file],
      ...['-filter_complex', compareGraph(size, at, metrics)],
      ...metrics.flatMap((_, i) => ['-map', `[m${i}]`]),
      ...['-f', 'null', '-'],
    ],
    { timeoutMs: STEP_TIMEOUT_MS, stderrLimit: 16 * 1024, ...options },
  );
  return stderr;
}

/** Reads the reference: it must be media with video (a playlist or any list of other files is not). */
export async function readReference(
  choice: ReferenceChoice,
  seconds: number,
  signal?: AbortSignal,
): Promise<{ info: ReferenceInfo; source: SourceInput; hasAudio: boolean }> {
  let media: MediaReading;
  try {
    media = await readMedia(choice.file, { maxSeconds: 1, ...(signal ? { signal } : {}) });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new LadderInputError(
      l10n.t('reference: {0} is not media this tool reads ({1})', choice.label, (error as Error).message),
    );
  }
  if (!media.video) throw new LadderInputError(l10n.t('reference: {0} has no video', choice.label));
  const length = media.complete ? media.duration : (media.wholeDuration ?? seconds);
  return {
    info: {
      label: choice.label,
      file: choice.file,
      width: media.video.width,
      height: media.video.height,
      frameRate: media.video.frameRate,
      seconds: Math.min(seconds, length),
    },
    source: { file: choice.file, demuxer: sourceDemuxer(media.container) },
    hasAudio: media.audio !== undefined,
  };
}

/** What every rung's evaluation shares: the tools, the reference and whether VMAF still works. */
interface RungContext {
  tools: Pick<MediaTools, 'ffmpeg' | 'version'>;
  info: ReferenceInfo;
  source: SourceInput;
  hasAudio: boolean;
  run: RunOptions;
  options: LabOptions;
  /** Set once VMAF is known not to work (no filter, or no model file): said once, PSNR and SSIM kept. */
  vmafUnavailable: string | undefined;
}

/** VMAF at the reference's size, or undefined when this ffmpeg cannot measure it (then said once in `ctx`). */
async function vmafOf(ctx: RungContext, output: string): Promise<number | undefined> {
  if (ctx.vmafUnavailable) return undefined;
  try {
    const { tools, source, info, run } = ctx;
    const text = await compare(tools.ffmpeg, output, source, info.seconds, info, 'reference', ['libvmaf'], run);
    const score = reading(text, /VMAF score[:=]\s*([\d.]+)/);
    if (!Number.isFinite(score)) throw new Error('no VMAF score in its output');
    return score;
  } catch (error) {
    if (ctx.options.signal?.aborted) throw error;
    // libvmaf present but unusable (no model file in this build): say so once, keep PSNR and SSIM.
    ctx.vmafUnavailable = l10n.t('libvmaf failed: {0}', vmafProblem(error));
    return undefined;
  }
}

/** Encodes one rung from the reference with this machine's ffmpeg: the rendition's file and the encode's time. */
async function encodeRung(ctx: RungContext, rung: Rung, output: string): Promise<number> {
  const { tools, info, source, run } = ctx;
  const started = performance.now();
  await runTool(
    tools.ffmpeg,
    encodeArgs({
      source,
      output,
      template: jobTemplate(rung),
      preset: LAB_PRESET,
      durationSeconds: info.seconds,
      limitSeconds: info.seconds,
      hasAudio: ctx.hasAudio,
      logos: [],
      advanced: readAdvanced(rung.advancedArguments, info.frameRate),
    }),
    { timeoutMs: STEP_TIMEOUT_MS, ...run },
  );
  return (performance.now() - started) / 1000;
}

/** Measures one rendition against the reference: bitrates from its packets, PSNR, SSIM, VMAF. */
async function measureRung(
  ctx: RungContext,
  rung: Rung,
  output: string,
): Promise<Omit<RungResult, 'encodeSeconds' | 'speed'>> {
  const { tools, info, source, run, options } = ctx;
  const media = await readMedia(output, { packets: true, ...(options.signal ? { signal: options.signal } : {}) });
  const size = { width: media.video?.width ?? rung.width, height: media.video?.height ?? rung.height };
  const metrics = ['psnr', 'ssim'];
  const own = await compare(tools.ffmpeg, output, source, info.seconds, size, 'rendition', metrics, run);
  const atReference = await compare(tools.ffmpeg, output, source, info.seconds, info, 'reference', metrics, run);
  const vmaf = await vmafOf(ctx, output);
  const rates = bitrates(media);
  return {
    rung,
    ...size,
    averageBitrate: rates.average,
    peakBitrate: rates.peak,
    totalBitrate: rates.total,
    psnr: reading(own, /PSNR y:([\d.]+|inf)/),
    ssim: reading(own, /SSIM .*All:([\d.]+)/),
    psnrAtReference: reading(atReference, /PSNR y:([\d.]+|inf)/),
    ssimAtReference: reading(atReference, /SSIM .*All:([\d.]+)/),
    ...(vmaf !== undefined ? { vmaf } : {}),
  };
}

/**
 * One rung: encoded here (or already made by the platform: `made`), then measured. The rendition goes once
 * measured, and also when its encode fails or is cancelled half-written.
 */
async function evaluateRung(
  ctx: RungContext,
  rung: Rung,
  i: number,
  count: number,
  made?: string,
): Promise<RungResult> {
  const { info, options } = ctx;
  const output = made ?? join(options.workDir, `rung-${i}.mp4`);
  try {
    let encodeSeconds: number | undefined;
    if (!made) {
      options.onProgress?.(l10n.t('Encoding "{0}" ({1} of {2})', rung.name, i + 1, count), i / count);
      encodeSeconds = await encodeRung(ctx, rung, output);
    }
    const base = made ? 0.5 : 0;
    options.onProgress?.(
      l10n.t('Measuring "{0}" ({1} of {2})', rung.name, i + 1, count),
      base + ((i + 0.5) / count) * (1 - base),
    );
    const measured = await measureRung(ctx, rung, output);
    return encodeSeconds === undefined
      ? measured
      : { ...measured, encodeSeconds, speed: info.seconds / Math.max(encodeSeconds, 0.001) };
  } finally {
    await rm(output, { force: true });
  }
}

/** Evaluates the ladder on the reference: one encode and one comparison per rung. */
export async function evaluateLadder(
  tools: Pick<MediaTools, 'ffmpeg' | 'version'>,
  ladder: Ladder,
  choice: ReferenceChoice,
  options: LabOptions,
): Promise<LadderEvaluation> {
  const seconds = options.seconds ?? DEFAULT_SECONDS;
  if (!(seconds > 0 && seconds <= MAX_SECONDS)) {
    throw new LadderInputError(l10n.t('seconds: from more than 0 to {0} (not {1})', MAX_SECONDS, seconds));
  }
  if (ladder.rungs.length === 0 || ladder.rungs.length > 20) {
    throw new LadderInputError(l10n.t('transcodeTemplates: 1 to 20 renditions (not {0})', ladder.rungs.length));
  }
  const run: RunOptions = {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.track ? { track: options.track } : {}),
  };
  const { info, source, hasAudio } = await readReference(choice, seconds, options.signal);
  const vmaf = await hasFilter(tools.ffmpeg, 'libvmaf', run);
  const ctx: RungContext = {
    tools,
    info,
    source,
    hasAudio,
    run,
    options,
    vmafUnavailable: vmaf ? undefined : l10n.t('this ffmpeg ({0}) has no libvmaf filter', tools.version),
  };
  let ffmpegWhy = options.ffmpegWhy;
  let made: PlatformRenditions | undefined;
  try {
    made = options.platform
      ? await renditionsThroughPlatform(options.platform, tools.ffmpeg, info, ladder.rungs, {
          dir: options.workDir,
          signal: options.signal ?? new AbortController().signal,
          run,
          say: (message, fraction) => options.onProgress?.(message, fraction),
        })
      : undefined;
  } catch (error) {
    if (!(error instanceof PlatformSimulatesMedia)) throw error;
    ffmpegWhy = l10n.t('the local platform takes no uploads ({0})', error.message);
  }
  const results: RungResult[] = [];
  for (const [i, rung] of ladder.rungs.entries()) {
    results.push(await evaluateRung(ctx, rung, i, ladder.rungs.length, made?.files.get(rung.name)));
  }
  options.onProgress?.(l10n.t('Done'), 1);
  return {
    ladder,
    reference: info,
    results,
    findings: ladderFindings(results, info),
    ffmpegVersion: tools.version,
    ...(ctx.vmafUnavailable ? { vmafUnavailable: ctx.vmafUnavailable } : {}),
    preset: LAB_PRESET,
    encodedBy: made
      ? { way: 'platform', videoId: made.videoId, title: made.title, groupId: options.platform!.groupId }
      : { way: 'ffmpeg', ...(ffmpegWhy ? { why: ffmpegWhy } : {}) },
  };
}
