import { findMediaTools, type MediaMode } from '../../media/tools';

/**
 * ffmpeg and ffprobe for the inspection commands: the folder of `videoPlatform.ffmpegPath` (read on each use),
 * else FFMPEG_DIR and the PATH (src/media/tools.ts). The answer is kept per folder: finding runs both tools.
 */
export class MediaToolsFinder {
  private found: { dir: string; mode: Promise<MediaMode> } | undefined;
  constructor(private readonly folder: () => string) {}

  mode(): Promise<MediaMode> {
    const dir = this.folder().trim();
    if (this.found?.dir !== dir) {
      const mode = findMediaTools(dir ? { dir } : {});
      this.found = { dir, mode };
      // Not found is not kept: ffmpeg installed meanwhile is found on the next use.
      const forget = (): void => {
        if (this.found?.mode === mode) this.found = undefined;
      };
      mode.then((found) => found.kind !== 'real' && forget(), forget);
    }
    return this.found.mode;
  }
}
