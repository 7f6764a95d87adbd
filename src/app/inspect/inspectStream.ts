import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { escapeHtml, renderReportHtml } from '../../inspector/html';
import { inspect } from '../../inspector/inspect';
import type { Report } from '../../inspector/report';
import { resolveUri, toAddress } from '../../inspector/source';
import { makeContactSheet, makeThumbnail } from '../../inspector/stills';
import { TARGETS, type TargetName } from '../../media/qa/checks';
import { INSTALL_HINT, type MediaTools } from '../../media/tools';
import type { AppContext, CommandArgs } from '../context';
import { describeFailure, inBackground, reportFailure } from '../failures';
import { l10n } from '../../l10n/l10n';
import { formatDateTime, formatMilliseconds, formatSeconds } from '../util/format';
import { askAddress } from './askAddress';
import { CONTENT_FAMILY, type ContentFamilyOptions } from './contentFamily';
import type { WebPanel } from './panels';
import { targetOfArgs, type StreamTarget } from './streamTargets';
import { videoLadder } from './videoLadder';
import { isRunning } from '../tree/channelPresentation';
import { ChannelNode, OutputGroupNode, VideoNode } from '../tree/nodes';
import { waitForLivePlaylists } from './liveStart';

/** Variants of a ladder that get a still in the report. */
const MAX_STILLS = 8;

/** What ffmpeg reads: a file path for a file: URI, the address otherwise. */
export function mediaInput(address: string): string {
  return /^file:/i.test(address) ? fileURLToPath(address) : address;
}

/**
 * One report panel: runs the inspection (with progress and cancel), shows the report, re-runs on the page's
 * Re-run button, and for a live stream runs again (ctx.inspection.live.refreshMs) while the panel is open.
 */
export class InspectSession {
  readonly panel: WebPanel;
  report: Report | undefined;
  /** Runs so far (the first included). */
  runs = 0;
  disposed = false;
  private running: Promise<Report | undefined> | undefined;
  private liveTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly closed = new AbortController();

  /** `notes`: said above every report of this panel (what was inspected, when it is not the address as given). */
  /** `content`: the content checks run too (contentFamily.ts), against this loudness target. */
  constructor(
    private readonly ctx: AppContext,
    readonly target: StreamTarget,
    private readonly notes: readonly string[] = [],
    private readonly content?: TargetName,
  ) {
    this.panel = ctx.inspection.panels.open({ kind: 'report', title: l10n.t('Inspect {0}', target.name) });
    this.panel.setHtml(this.page(`<p>${escapeHtml(l10n.t('Inspecting {0}…', target.address))}</p>`));
    this.panel.onMessage((message) => {
      if ((message as { type?: unknown })?.type === 'rerun') void this.rerun();
    });
    this.panel.onDidDispose(() => {
      this.disposed = true;
      this.closed.abort();
      if (this.liveTimer) clearTimeout(this.liveTimer);
      this.liveTimer = undefined;
    });
  }

  /** The Re-run button: failures are shown like a command's. */
  async rerun(): Promise<void> {
    try {
      await this.run(true);
    } catch (error) {
      void reportFailure(this.ctx.ui, this.ctx.log, l10n.t('Inspect {0}', this.target.name), error);
    }
  }

  /** One inspection; with `progress`, under a cancellable notification. A run already going is joined. */
  run(progress: boolean): Promise<Report | undefined> {
    this.running ??= this.runOnce(progress).finally(() => (this.running = undefined));
    return this.running;
  }

  private async runOnce(progress: boolean): Promise<Report | undefined> {
    if (this.disposed) return undefined;
    if (this.liveTimer) clearTimeout(this.liveTimer);
    this.liveTimer = undefined;
    const work = async (signal: AbortSignal, report: (text: string) => void): Promise<Report> => {
      const both = AbortSignal.any([signal, this.closed.signal]);
      const fetch = this.ctx.inspection.fetch.port();
      const mode = await this.ctx.inspection.tools.mode();
      // Media is read in-process: the measuring needs no ffmpeg; the pictures below and the content checks do
      // (Check Content: contentFamily.ts; on the first run of a live stream only, not on each refresh).
      const content: ContentFamilyOptions | undefined = !this.content
        ? undefined
        : mode.kind === 'real'
          ? { ffmpeg: mode.tools.ffmpeg, target: this.content }
          : { ffmpeg: undefined, missing: INSTALL_HINT };
      const result = await inspect(this.target.address, {
        fetch,
        ...(content && progress ? { mediaFamilies: { [CONTENT_FAMILY]: content } } : {}),
        ...(this.ctx.inspection.live.watchSeconds !== undefined
          ? { liveSeconds: this.ctx.inspection.live.watchSeconds }
          : {}),
        signal: both,
        onProgress: report,
      });
      if (mode.kind !== 'real') {
        const notes = [
          l10n.t(
            'ffmpeg was not found, so the report has no pictures (everything else was measured): {0}.',
            INSTALL_HINT,
          ),
        ];
        this.show(result, undefined, notes);
        return result;
      }
      // A rendition or a file: a contact sheet of its pictures (a live stream changes too fast for one); a
      // ladder: a still per variant.
      let sheet: string | undefined;
      let stills: Record<string, string> = {};
      if (this.target.single && !result.live) {
        report(l10n.t('making the contact sheet'));
        sheet = await this.contactSheet(mode.tools, both);
      } else if (result.kind === 'hls-master' && !result.live) {
        report(l10n.t('making a still per variant'));
        stills = await this.variantStills(mode.tools, result, both);
      }
      this.show(result, sheet, [], stills);
      return result;
    };
    const result = progress
      ? await this.ctx.ui.withProgress(
          { title: l10n.t('Inspecting {0}', this.target.name), cancellable: true },
          (handle) => work(handle.signal, (text) => handle.report(text)),
        )
      : await work(new AbortController().signal, () => undefined);
    this.report = result;
    this.runs++;
    if (result.live && !this.disposed) this.scheduleLive();
    return result;
  }

  private scheduleLive(): void {
    this.liveTimer = setTimeout(() => {
      this.liveTimer = undefined;
      this.run(false).catch((error: unknown) => {
        // A failed refresh is logged and shown in the panel; the next one is still tried.
        this.ctx.log.warn(`Live refresh of ${this.target.name} failed: ${describeFailure(error)}`);
        if (!this.disposed) this.scheduleLive();
      });
    }, this.ctx.inspection.live.refreshMs);
  }

  /** A live refresh is waiting to run (false once the panel is closed). */
  get liveScheduled(): boolean {
    return this.liveTimer !== undefined;
  }

  /** One small still per variant (at most MAX_STILLS), by the variant's name in the report. */
  private async variantStills(tools: MediaTools, report: Report, signal: AbortSignal): Promise<Record<string, string>> {
    const stills: Record<string, string> = {};
    for (const variant of report.variants.slice(0, MAX_STILLS)) {
      try {
        const address = resolveUri(variant.name, toAddress(this.target.address));
        const still = await makeThumbnail(tools, mediaInput(address), {
          signal,
          width: 160,
          at: 0,
          ...this.toolEnv(address),
        });
        stills[variant.name] = `data:image/jpeg;base64,${still.toString('base64')}`;
      } catch (error) {
        if (signal.aborted) throw error;
        this.ctx.log.warn(`No still of ${variant.name}: ${describeFailure(error)}`);
      }
    }
    return stills;
  }

  /** ffmpeg reads the address itself: through the proxy the settings choose for it (ProxyFetch.toolEnv). */
  private toolEnv(address: string): { env?: Record<string, string> } {
    const env = this.ctx.inspection.fetch.toolEnv(address);
    return env ? { env } : {};
  }

  private async contactSheet(tools: MediaTools, signal: AbortSignal): Promise<string | undefined> {
    try {
      const file = await makeContactSheet(tools, mediaInput(this.target.address), {
        signal,
        ...this.toolEnv(this.target.address),
      });
      try {
        return `data:image/png;base64,${(await readFile(file)).toString('base64')}`;
      } finally {
        await rm(dirname(file), { recursive: true, force: true });
      }
    } catch (error) {
      if (signal.aborted) throw error;
      this.ctx.log.warn(`No contact sheet for ${this.target.name}: ${describeFailure(error)}`);
      return undefined;
    }
  }

  private show(
    report: Report,
    contactSheet: string | undefined,
    notes: readonly string[],
    thumbnails: Readonly<Record<string, string>> = {},
  ): void {
    if (this.disposed) return;
    const nonce = randomBytes(16).toString('base64');
    const { refreshMs } = this.ctx.inspection.live;
    const watched = report.sampled.liveSeconds;
    const live = report.live
      ? [
          watched !== undefined
            ? l10n.t(
                'Live: inspected again every {0} while this panel is open (each run watches the playlist for {1}); last run {2}.',
                formatMilliseconds(refreshMs),
                formatSeconds(watched),
                formatDateTime(new Date()),
              )
            : l10n.t(
                'Live: inspected again every {0} while this panel is open; last run {1}.',
                formatMilliseconds(refreshMs),
                formatDateTime(new Date()),
              ),
        ]
      : [];
    const html = renderReportHtml(report, {
      cspSource: this.panel.cspSource,
      nonce,
      thumbnails,
      ...(contactSheet ? { contactSheet } : {}),
    });
    const banner = [...this.notes, ...notes, ...live]
      .map((note) => `<p class="note">${escapeHtml(note)}</p>`)
      .join('\n');
    this.panel.setHtml(banner ? html.replace('<body>\n', `<body>\n${banner}\n`) : html);
  }

  /** A page before the first report (no script). */
  private page(body: string): string {
    return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'"></head><body>${body}</body></html>`;
  }
}

/** videoPlatform.inspectStream: the item's stream, the file, or an address asked for; the report in a panel. */
export function inspectStream(ctx: AppContext, args: CommandArgs = {}): Promise<InspectSession | undefined> {
  return openInspection(ctx, args, l10n.t('Inspect stream'));
}

/**
 * videoPlatform.checkContent: Inspect Stream with the content checks (loudness against the chosen target, true
 * peak, black, frozen video, silence, audio/video start offset) over one rendition, each finding with its time
 * range and a still.
 */
export async function checkContent(ctx: AppContext, args: CommandArgs = {}): Promise<InspectSession | undefined> {
  const target = await ctx.ui.pick(
    Object.values(TARGETS).map((t) => ({
      label: t.label,
      description: `${t.integrated} LUFS, ${t.maxTruePeak} dBTP`,
      value: t.name,
    })),
    { title: l10n.t('Check content: loudness target') },
  );
  if (!target) return undefined;
  return openInspection(ctx, args, l10n.t('Check content'), target);
}

async function openInspection(
  ctx: AppContext,
  args: CommandArgs,
  title: string,
  content?: TargetName,
): Promise<InspectSession | undefined> {
  // A transcoded video: its whole ladder (videoLadder.ts), so that the checks across variants run.
  const ladder = args.node instanceof VideoNode ? await videoLadder(args.node.video) : undefined;
  const target = ladder?.target ?? (await targetOfArgs(ctx, args)) ?? (await askAddress(ctx, title));
  if (!target) return undefined;
  // A channel that runs may not have written its playlists yet (liveStart.ts).
  const channel =
    args.node instanceof ChannelNode || args.node instanceof OutputGroupNode ? args.node.channel : undefined;
  if (channel && isRunning(channel)) await waitForLivePlaylists(ctx, target.address, channel.name);
  const session = new InspectSession(ctx, target, ladder ? [ladder.note] : [], content);
  if (ladder)
    session.panel.onDidDispose(() => inBackground(ctx.log, "Removing the ladder's playlists", ladder.dispose()));
  try {
    await session.run(true);
  } catch (error) {
    // Nothing to show: the panel goes, the wrapper reports why.
    session.panel.dispose();
    throw error;
  }
  return session;
}
