/**
 * A video's cover and thumbnail, captured from a source. Transcoding runs (jobs.ts) and the demo's media
 * (demoMedia.ts) write them the same way; an upload (upload.ts) captures more pictures of its own.
 */
import { chmod, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { runTool, type RunOptions } from '../../media/tools';
import { frameArgs, type SourceInput } from './commands';
import { exists, FILE_MODE, makeDir, videoDir } from './files';

/**
 * cover.jpg (full size) and thumbnail.jpg (320 wide) of the frame at `seconds`, each one only where missing;
 * written beside as `.part` and renamed, so a listed picture is never half written.
 */
export async function ensureCovers(
  ffmpeg: string,
  accountDir: string,
  videoId: string,
  source: SourceInput,
  seconds: number,
  run: RunOptions,
): Promise<void> {
  const dir = videoDir(accountDir, videoId);
  await makeDir(dir);
  for (const [name, width] of [
    ['cover.jpg', undefined],
    ['thumbnail.jpg', 320],
  ] as const) {
    const file = join(dir, name);
    if (exists(file)) continue;
    await runTool(ffmpeg, frameArgs(source, seconds, `${file}.part`, width), { timeoutMs: 60_000, ...run });
    await chmod(`${file}.part`, FILE_MODE);
    await rename(`${file}.part`, file);
  }
}
