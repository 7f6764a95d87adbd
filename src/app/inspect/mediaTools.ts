import { l10n } from '../../l10n/l10n';
import type * as Tools from '../../media/tools';
import type { MediaMode } from '../../media/tools';
import { lazyPart } from '../lazyPart';
import type { LogSink } from '../log';

/** Finding ffmpeg, a part of its own in the extension (scripts/build.mjs): first asked after activation. */
const tools = lazyPart('mediaTools', () => require('../../media/tools') as typeof Tools);

/**
 * ffmpeg for the inspection commands: the folder of `videoPlatform.ffmpegPath` (read on each use), else
 * FFMPEG_DIR, the PATH and the usual install places (src/media/tools.ts). The answer is kept per folder: finding
 * checks the binary with a test encode.
 */
export class MediaToolsFinder {
  private found: { dir: string; mode: Promise<MediaMode> } | undefined;
  private logged: string | undefined;
  constructor(
    private readonly setting: () => string,
    private readonly saveSetting: (dir: string) => Promise<void> = () => Promise.resolve(),
  ) {}

  /** `videoPlatform.ffmpegPath` as it is now ('' when unset). */
  folder(): string {
    return this.setting().trim();
  }

  /** Saves `videoPlatform.ffmpegPath`; the next use looks again. */
  async setFolder(dir: string): Promise<void> {
    await this.saveSetting(dir);
    this.found = undefined;
  }

  mode(): Promise<MediaMode> {
    const dir = this.folder();
    if (this.found?.dir !== dir) {
      const mode = (async () => tools().findMediaTools(dir ? { dir } : {}))();
      this.found = { dir, mode };
      // Not found is not kept: ffmpeg installed meanwhile is found on the next use.
      const forget = (): void => {
        if (this.found?.mode === mode) this.found = undefined;
      };
      mode.then((found) => found.kind !== 'real' && forget(), forget);
    }
    return this.found.mode;
  }

  /** Finds ffmpeg, logs what works with and without it (when that changed) and returns the status bar's text. */
  async status(log: LogSink): Promise<MediaToolsStatus> {
    const status = mediaToolsStatus(await this.mode());
    const text = status.log.join('\n');
    if (text !== this.logged) {
      this.logged = text;
      for (const line of status.log) (status.found ? log.info : log.warn).call(log, line);
    }
    return status;
  }
}

/** What the status bar and the log say of ffmpeg. */
export interface MediaToolsStatus {
  readonly found: boolean;
  /** The status bar item's text (shown only when ffmpeg is missing). */
  readonly text: string;
  readonly tooltip: string;
  readonly log: readonly string[];
}

/** What needs no ffmpeg, and what does: the same sentences in the tooltip, the log and Set Up ffmpeg. */
export function worksWithoutFfmpeg(): string {
  return l10n.t(
    'Works without ffmpeg: stream and file inspection, authoring of platform documents, and every platform operation over REST.',
  );
}

export function needsFfmpeg(): string {
  return l10n.t(
    'Needs ffmpeg: stills, the contact sheet, Preview, Evaluate Template Group, and real transcoding and live channels in the local platform.',
  );
}

export function mediaToolsStatus(mode: MediaMode): MediaToolsStatus {
  if (mode.kind === 'real') {
    const found = l10n.t('ffmpeg {0} found: {1}', mode.tools.version, mode.tools.ffmpeg);
    const skipped = (mode.rejected ?? []).map((reason) => l10n.t('ffmpeg skipped (it failed its check): {0}', reason));
    return { found: true, text: `$(check) ffmpeg ${mode.tools.version}`, tooltip: found, log: [found, ...skipped] };
  }
  const missing = l10n.t('ffmpeg is not available: {0}', mode.reason);
  return {
    found: false,
    text: `$(warning) ${l10n.t('No ffmpeg')}`,
    tooltip: `${missing}\n\n${worksWithoutFfmpeg()}\n\n${needsFfmpeg()}\n\n${l10n.t('Click to set up ffmpeg.')}`,
    log: [missing, worksWithoutFfmpeg(), needsFfmpeg()],
  };
}
