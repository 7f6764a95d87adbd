import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { makePreview } from '../../inspector/stills';
import { INSTALL_HINT } from '../../media/tools';
import { l10n } from '../../l10n/l10n';
import type { AppContext, CommandArgs } from '../context';
import { askAddress } from './askAddress';
import { mediaInput } from './inspectStream';
import { openPlayerFor } from './player';
import type { WebPanel } from './panels';
import { previewPageHtml } from './previewPage';
import { targetOfArgs, type StreamTarget } from './streamTargets';

/** What the preview webview said it can play (posted back by its page). */
export interface CanPlay {
  readonly h264: string;
  readonly mp3: string;
  readonly aac: string;
  readonly mediaSource: boolean;
}

/** How long the page has to say what it can play before the preview is left as it is. */
const CAN_PLAY_WAIT_MS = 15_000;
/** A preview holds at most this much of the stream. */
export const PREVIEW_SECONDS = 120;

/** The button that opens the browser player (translated when shown). */
const openPlayer = (): string => l10n.t('Open Player in Browser');

export interface PreviewResult {
  readonly panel: WebPanel;
  readonly file: string;
  /** undefined when the page did not answer in time. */
  readonly canPlay: CanPlay | undefined;
}

function waitForCanPlay(panel: WebPanel): Promise<CanPlay | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), CAN_PLAY_WAIT_MS);
    panel.onDidDispose(() => {
      clearTimeout(timer);
      resolve(undefined);
    });
    panel.onMessage((message) => {
      const m = message as Partial<CanPlay> & { type?: unknown };
      if (m?.type !== 'canPlay') return;
      clearTimeout(timer);
      resolve({
        h264: String(m.h264 ?? ''),
        mp3: String(m.mp3 ?? ''),
        aac: String(m.aac ?? ''),
        mediaSource: m.mediaSource === true,
      });
    });
  });
}

/** The preview file of an address: made once per address (and kept in the extension's storage). */
async function previewFile(ctx: AppContext, target: StreamTarget): Promise<string> {
  const mode = await ctx.inspection.tools.mode();
  if (mode.kind !== 'real') throw new Error(l10n.t('a preview needs ffmpeg: {0}', INSTALL_HINT));
  const dir = ctx.inspection.previewDir;
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${createHash('sha256').update(target.address).digest('hex').slice(0, 24)}.mp4`);
  const made = await stat(file).then(
    (info) => info.size > 0,
    () => false,
  );
  if (made) return file;
  const partial = `${file}.${randomBytes(4).toString('hex')}.part`;
  await ctx.ui.withProgress(
    { title: l10n.t('Making a preview of {0}', target.name), cancellable: true },
    async ({ signal }) => {
      try {
        // ffmpeg reads the address itself: through the proxy the settings choose for it.
        const env = ctx.inspection.fetch.toolEnv(target.address);
        await makePreview(mode.tools, mediaInput(target.address), partial, {
          signal,
          maxSeconds: PREVIEW_SECONDS,
          ...(env ? { env } : {}),
        });
        await rename(partial, file);
      } finally {
        await rm(partial, { force: true });
      }
    },
  );
  return file;
}

/**
 * videoPlatform.previewStream: a rendition, a video's best rendition or a media file, made into an H.264 + MP3 MP4
 * (what VS Code's webviews decode: no AAC, no MediaSource) and played in a webview. The page says what it can
 * play; when it cannot, the user is told and offered the browser player.
 */
export async function previewStream(ctx: AppContext, args: CommandArgs = {}): Promise<PreviewResult | undefined> {
  const target = (await targetOfArgs(ctx, args)) ?? (await askAddress(ctx, l10n.t('Preview')));
  if (!target) return undefined;
  const file = await previewFile(ctx, target);
  const panel = ctx.inspection.panels.open({
    kind: 'preview',
    title: l10n.t('Preview {0}', target.name),
    folders: [ctx.inspection.previewDir],
  });
  const answer = waitForCanPlay(panel);
  panel.setHtml(
    previewPageHtml({
      cspSource: panel.cspSource,
      nonce: randomBytes(16).toString('base64'),
      src: panel.resource(file),
      name: target.name,
    }),
  );
  const canPlay = await answer;
  if (canPlay && (!canPlay.h264 || !canPlay.mp3)) {
    const missing =
      !canPlay.h264 && !canPlay.mp3
        ? l10n.t('H.264 video and MP3 audio')
        : !canPlay.h264
          ? l10n.t('H.264 video')
          : l10n.t('MP3 audio');
    const button = openPlayer();
    const choice = await ctx.ui.warn(
      l10n.t(
        "This VS Code's webviews cannot play {0}, so the preview of {1} will not play here. The browser player plays it.",
        missing,
        target.name,
      ),
      button,
    );
    if (choice === button) await openPlayerFor(ctx, target);
  }
  return { panel, file, canPlay };
}
