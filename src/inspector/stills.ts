/**
 * Pictures and a playable preview made with ffmpeg: a still for tooltips, a contact sheet of a rendition,
 * and a preview MP4 that VS Code's webviews can play (H.264 + MP3, moov first: webviews decode H.264 and
 * MP3 but not AAC, and have no MediaSource). Inputs are files or addresses ffmpeg reads itself.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTool, ToolError, type MediaTools, type RunOptions } from '../media/tools';

type Tools = Pick<MediaTools, 'ffmpeg'>;

/**
 * The input's duration as ffmpeg reads it (its `Duration:` line): the input may be an address ffmpeg reads itself
 * (HLS over http included), which the in-process reader does not follow. 0 when unknown (live).
 */
async function durationOf(tools: Tools, input: string, options: RunOptions): Promise<number> {
  let stderr = '';
  try {
    // No output named: ffmpeg reads the input's header, prints it, and exits with an error.
    ({ stderr } = await runTool(tools.ffmpeg, ['-hide_banner', '-i', input], { timeoutMs: 60_000, ...options }));
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    stderr = error.stderr;
  }
  const match = /Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(stderr);
  return match ? Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]) : 0;
}

export interface ContactSheetOptions extends RunOptions {
  /** How many pictures (default 12). */
  count?: number;
  /** Pictures per row (default 4). */
  columns?: number;
  /** Width of each picture in pixels (default 160). */
  width?: number;
  /** Where to write the PNG (default: a new temporary folder). */
  outPath?: string;
}

/** A PNG of `count` pictures spread evenly over the input, in a grid (ffmpeg's tile filter). Returns its path. */
export async function makeContactSheet(
  tools: Tools,
  input: string,
  options: ContactSheetOptions = {},
): Promise<string> {
  const count = Math.max(1, Math.min(64, Math.floor(options.count ?? 12)));
  const columns = Math.max(1, Math.min(count, Math.floor(options.columns ?? 4)));
  const rows = Math.ceil(count / columns);
  const width = Math.max(16, Math.floor(options.width ?? 160));
  const duration = await durationOf(tools, input, options);
  const folder = options.outPath ? undefined : await mkdtemp(join(tmpdir(), 'vpt-sheet-'));
  const out = options.outPath ?? join(folder!, 'contact-sheet.png');
  // One picture every duration/count seconds; an unknown duration (live) takes one a second.
  const rate = duration > 0 ? count / duration : 1;
  try {
    await runTool(
      tools.ffmpeg,
      [
        '-hide_banner',
        '-v',
        'error',
        '-y',
        '-i',
        input,
        '-an',
        '-vf',
        `fps=${rate.toFixed(6)},scale=${width}:-2,tile=${columns}x${rows}`,
        '-frames:v',
        '1',
        out,
      ],
      { timeoutMs: 120_000, ...options },
    );
  } catch (error) {
    // Cancelled or failed: the folder made for it goes too (the caller removes it only after a success).
    if (folder) await rm(folder, { recursive: true, force: true });
    throw error;
  }
  return out;
}

/** A JPEG still (default: 10 % into the input, 320 pixels wide) for a tooltip. */
export async function makeThumbnail(
  tools: Tools,
  input: string,
  options: RunOptions & { at?: number; width?: number } = {},
): Promise<Buffer> {
  const at = options.at ?? (await durationOf(tools, input, options).catch(() => 0)) * 0.1;
  const { stdout } = await runTool(
    tools.ffmpeg,
    [
      '-hide_banner',
      '-v',
      'error',
      '-ss',
      at.toFixed(3),
      '-i',
      input,
      '-an',
      '-frames:v',
      '1',
      '-vf',
      `scale=${Math.floor(options.width ?? 320)}:-2`,
      '-f',
      'image2pipe',
      '-c:v',
      'mjpeg',
      'pipe:1',
    ],
    { timeoutMs: 60_000, ...options },
  );
  return stdout;
}

/**
 * A preview MP4 a webview can play: H.264 (yuv420p, Main profile, at most 1280 wide), MP3 audio, and the
 * moov atom at the front (+faststart) so it starts before it has all loaded. `maxSeconds` caps its length.
 */
export async function makePreview(
  tools: Tools,
  input: string,
  outPath: string,
  options: RunOptions & { maxSeconds?: number } = {},
): Promise<string> {
  await runTool(
    tools.ffmpeg,
    [
      '-hide_banner',
      '-v',
      'error',
      '-y',
      '-i',
      input,
      '-t',
      String(options.maxSeconds ?? 120),
      '-map',
      '0:v:0',
      '-map',
      '0:a:0?',
      '-vf',
      "scale='min(1280,iw)':-2",
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-profile:v',
      'main',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '128k',
      '-ac',
      '2',
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      outPath,
    ],
    { timeoutMs: 600_000, ...options },
  );
  return outPath;
}
