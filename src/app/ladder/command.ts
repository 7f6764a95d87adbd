/**
 * videoPlatform.evaluateTemplateGroup ("Evaluate Template Group..."): from a template group row of the Resources
 * view, a `*.templategroup.json` document (editor title, Explorer) or the palette. Asks for a reference (the
 * built-in test clip or a local media file), runs the ladder lab under a cancellable progress notification (a
 * group of a local platform's account through that platform: throughPlatform.ts), and
 * shows the panel: the rate-quality chart, the table, the findings, Compare with another group, Export JSON/CSV.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { basename, join } from 'node:path';
import { documentKind } from '../../authoring/documentKind';
import { l10n } from '../../l10n/l10n';
import { Watchdog } from '../../localPlatform/live/watchdog';
import type { MediaTools } from '../../media/tools';
import type { TranscodedStream, Video } from '../../api/types';
import { freshResource, resolveResource } from '../commands/resourceTargets';
import { resolveVideos } from '../ask/targets';
import { setUpFfmpeg } from '../commands/setUpFfmpeg';
import type { AppContext, CommandArgs } from '../context';
import { reportFailure } from '../failures';
import type { PickItem } from '../ui';
import { ladderCsv, ladderJson } from './exports';
import { ladderFromDocument, ladderFromRecord } from './group';
import { evaluateLadder, type ReferenceChoice } from './lab';
import type { PlatformTranscode } from './throughPlatform';
import { isLoopback } from '../accounts/connection';
import type { Ladder, LadderEvaluation } from './model';
import { isLadderPageMessage, ladderPageHtml } from './page';
import { builtinReference, BUILTIN_SIZE } from './reference';

const MEDIA_EXTENSIONS = ['mp4', 'mov', 'm4v', 'mkv', 'webm', 'ts', 'flv'];

/** A document's ladder, when it is a template group document. */
function ladderOfText(text: string, fileName: string): Ladder {
  return ladderFromDocument(text, basename(fileName));
}

async function ladderOfFile(ctx: AppContext, path: string): Promise<Ladder> {
  // An open document's text wins over the file on disk (it may have unsaved edits).
  const open = ctx.editor.openDocuments().find((doc) => doc.fileName === path);
  return ladderOfText(open ? open.text() : await readFile(path, 'utf8'), path);
}

async function ladderOfAccount(ctx: AppContext, args: CommandArgs): Promise<Ladder | undefined> {
  const chosen = await resolveResource(ctx, args, {
    title: l10n.t('Evaluate Template Group'),
    kinds: ['templateGroup'],
  });
  if (!chosen) return undefined;
  const resource = await freshResource(ctx, chosen);
  if (resource.kind !== 'templateGroup') return undefined;
  return ladderFromRecord(resource.record);
}

type GroupSource = { kind: 'document'; path: string } | { kind: 'account' } | { kind: 'file' };

/** The group a command acts on: the clicked row or document, else one asked for. */
export async function resolveLadder(ctx: AppContext, args: CommandArgs): Promise<Ladder | undefined> {
  // A row of the Resources view (or a group record handed over by another command).
  if (args.node !== undefined) return ladderOfAccount(ctx, args);
  const given = args.files?.[0] ?? (args.uri ? (await ctx.editor.document(args.uri))?.fileName : undefined);
  if (given && documentKind(given) === 'templategroup') return ladderOfFile(ctx, given);
  const items: PickItem<GroupSource>[] = [
    ...ctx.editor
      .openDocuments()
      .filter((doc) => documentKind(doc.fileName) === 'templategroup')
      .map((doc) => ({
        label: basename(doc.fileName),
        description: l10n.t('open document'),
        value: { kind: 'document' as const, path: doc.fileName },
      })),
    ...(ctx.accounts.list().length > 0
      ? [{ label: l10n.t('A template group of the account…'), value: { kind: 'account' as const } }]
      : []),
    { label: l10n.t('A template group file…'), value: { kind: 'file' as const } },
  ];
  const source = await ctx.ui.pick(items, {
    title: l10n.t('Evaluate Template Group'),
    placeHolder: l10n.t('Which template group?'),
  });
  if (!source) return undefined;
  if (source.kind === 'document') return ladderOfFile(ctx, source.path);
  if (source.kind === 'account') return ladderOfAccount(ctx, {});
  const files = await ctx.ui.openFiles({
    title: l10n.t('Evaluate Template Group'),
    openLabel: l10n.t('Evaluate'),
    filters: { [l10n.t('Template groups')]: ['json'] },
  });
  return files?.[0] ? ladderOfFile(ctx, files[0]) : undefined;
}

/** A video of the account as the reference: its largest MP4 rendition (the platform keeps no source to read). */
type VideoReference = { readonly kind: 'video'; readonly label: string; readonly url: string };
type Reference = ReferenceChoice | VideoReference | 'builtin';

/** The largest http(s) MP4 rendition of a video, or why there is none. */
function largestMp4(video: Video): TranscodedStream | undefined {
  return video.transcodedVideoList
    .filter((stream) => stream.mp4Url && /^https?:\/\//i.test(stream.mp4Url))
    .sort((a, b) => b.videoWidth * b.videoHeight - a.videoWidth * a.videoHeight || b.videoBitrate - a.videoBitrate)[0];
}

async function videoReference(ctx: AppContext): Promise<VideoReference | undefined> {
  const videos = await resolveVideos(
    ctx,
    {},
    {
      title: l10n.t('Reference video'),
      many: false,
      eligible: (video) => largestMp4(video) !== undefined,
      why: l10n.t('it has no MP4 rendition'),
    },
  );
  const video = videos?.[0];
  const stream = video ? largestMp4(video) : undefined;
  if (!video || !stream) return undefined;
  const label = l10n.t('"{0}" ({1}x{2} MP4)', video.title || video.fileName, stream.videoWidth, stream.videoHeight);
  return { kind: 'video', label, url: stream.mp4Url! };
}

/** At most this much of a video is downloaded to be the reference. */
const MAX_REFERENCE_BYTES = 2 * 1024 ** 3;

/** Downloads the video's MP4 (through VS Code's proxy settings, bounded) into the run's folder. */
async function download(
  ctx: AppContext,
  reference: VideoReference,
  folder: string,
  signal: AbortSignal,
): Promise<ReferenceChoice> {
  const file = join(folder, 'reference.mp4');
  const response = await ctx.inspection.fetch.get(reference.url, signal);
  if (!response.ok || !response.body)
    throw new Error(l10n.t('reference: {0} answered HTTP {1}', reference.label, response.status));
  let bytes = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(
        bytes > MAX_REFERENCE_BYTES ? new Error(l10n.t('reference: {0} is larger than 2 GiB', reference.label)) : null,
        chunk,
      );
    },
  });
  await pipeline(Readable.fromWeb(response.body as never), limit, createWriteStream(file), { signal });
  return { label: reference.label, file };
}

/** The reference: the built-in clip (made once, kept in the extension's storage), a local media file, or a video. */
async function resolveReference(ctx: AppContext): Promise<Reference | undefined> {
  const choice = await ctx.ui.pick<'builtin' | 'file' | 'video'>(
    [
      {
        label: l10n.t('Built-in test clip'),
        description: l10n.t(
          '{0}x{1}, {2} s, motion and fine detail',
          BUILTIN_SIZE.width,
          BUILTIN_SIZE.height,
          BUILTIN_SIZE.seconds,
        ),
        value: 'builtin',
      },
      { label: l10n.t('A local media file…'), value: 'file' },
      ...(ctx.connection.hasAccount
        ? [
            {
              label: l10n.t('A video of the account…'),
              description: l10n.t('its largest MP4 rendition'),
              value: 'video' as const,
            },
          ]
        : []),
    ],
    { title: l10n.t('Evaluate Template Group'), placeHolder: l10n.t('Which reference video?') },
  );
  if (choice === 'video') return videoReference(ctx);
  if (choice !== 'file') return choice;
  const files = await ctx.ui.openFiles({
    title: l10n.t('Reference video'),
    openLabel: l10n.t('Use as reference'),
    filters: { [l10n.t('Media')]: MEDIA_EXTENSIONS },
  });
  return files?.[0] ? { label: basename(files[0]), file: files[0] } : undefined;
}

/** ffmpeg, or a warning that offers Set Up ffmpeg (the lab encodes and compares pictures). */
async function ffmpegOrSay(ctx: AppContext): Promise<MediaTools | undefined> {
  const mode = await ctx.inspection.tools.mode();
  if (mode.kind === 'real') return mode.tools;
  const setUp = l10n.t('Set Up ffmpeg');
  const answer = await ctx.ui.warn(
    l10n.t(
      'Evaluate Template Group encodes and compares pictures with ffmpeg, which is not available: {0}',
      mode.reason,
    ),
    setUp,
  );
  if (answer === setUp) await setUpFfmpeg(ctx);
  return undefined;
}

/**
 * The platform makes the rungs when the group is an account's and the account is a local platform (its address on
 * this machine: the embedded sandbox or `npm run platform`); a real platform's group is encoded with ffmpeg here.
 */
async function platformWay(
  ctx: AppContext,
  ladder: Ladder,
  made: { video?: { id: string; title: string } },
): Promise<{ platform?: PlatformTranscode; ffmpegWhy?: string }> {
  if (ladder.groupId === undefined) return {};
  const account = ctx.connection.activeAccount;
  if (!account || !isLoopback(account.baseUrl)) {
    return { ffmpegWhy: l10n.t('the group is a real platform’s, whose encoder this tool cannot time or reach') };
  }
  return {
    platform: {
      client: await ctx.connection.activeClient(),
      groupId: ladder.groupId,
      fetch: (url, signal) => ctx.inspection.fetch.get(url, signal),
      onVideo: (video) => (made.video = video),
    },
  };
}

/** Cancelled after the upload: the video stays in the account, and the user is told where. */
function sayVideoStays(ctx: AppContext, video: { id: string; title: string } | undefined, signal: AbortSignal): void {
  if (!video || !signal.aborted) return;
  void ctx.ui.info(
    l10n.t(
      'Stopped waiting for the platform: the uploaded reference, video {0} ("{1}"), stays in the account.',
      video.id,
      video.title,
    ),
  );
}

/** One evaluation under a cancellable progress notification; every ffmpeg stops with the extension host. */
async function runLab(
  ctx: AppContext,
  tools: MediaTools,
  ladder: Ladder,
  reference: Reference,
): Promise<LadderEvaluation> {
  const watchdog = new Watchdog();
  await mkdir(ctx.inspection.ladderDir, { recursive: true });
  const workDir = await mkdtemp(join(ctx.inspection.ladderDir, 'run-'));
  try {
    return await ctx.ui.withProgress(
      { title: l10n.t('Evaluating "{0}"', ladder.name), cancellable: true },
      async ({ signal, report }) => {
        let choice: ReferenceChoice;
        if (reference === 'builtin') {
          report(l10n.t('Making the built-in test clip (once)'));
          const file = await builtinReference(tools.ffmpeg, ctx.inspection.ladderDir, BUILTIN_SIZE, {
            signal,
            track: watchdog,
          });
          choice = { label: l10n.t('Built-in test clip'), file };
        } else if ('kind' in reference) {
          // A video is downloaded for each run (into the run's folder, removed after it).
          report(l10n.t('Downloading {0}', reference.label));
          choice = await download(ctx, reference, workDir, signal);
        } else choice = reference;
        let done = 0;
        const made: { video?: { id: string; title: string } } = {};
        try {
          return await evaluateLadder(tools, ladder, choice, {
            workDir,
            signal,
            track: watchdog,
            ...(await platformWay(ctx, ladder, made)),
            onProgress: (message, fraction) => {
              report(message, Math.max(0, Math.round((fraction - done) * 100)));
              done = Math.max(done, fraction);
            },
          });
        } finally {
          sayVideoStays(ctx, made.video, signal);
        }
      },
    );
  } finally {
    watchdog.close();
    await rm(workDir, { recursive: true, force: true });
  }
}

/** The command: evaluate, then the panel. Returns the evaluations shown (tests read them). */
export async function evaluateTemplateGroup(
  ctx: AppContext,
  args: CommandArgs = {},
): Promise<LadderEvaluation[] | undefined> {
  const ladder = await resolveLadder(ctx, args);
  if (!ladder) return undefined;
  const tools = await ffmpegOrSay(ctx);
  if (!tools) return undefined;
  const reference = await resolveReference(ctx);
  if (!reference) return undefined;
  const evaluations = [await runLab(ctx, tools, ladder, reference)];
  const panel = ctx.inspection.panels.open({ kind: 'ladder', title: l10n.t('Ladder: {0}', ladder.name) });
  const render = (): void =>
    panel.setHtml(
      ladderPageHtml({ cspSource: panel.cspSource, nonce: randomBytes(16).toString('base64'), evaluations }),
    );
  render();
  panel.onMessage((message) => {
    if (!isLadderPageMessage(message)) return;
    if (message.type === 'exportJson')
      void ctx.editor.openUntitled(`${ladder.name}.ladder.json`, ladderJson(evaluations));
    else if (message.type === 'exportCsv')
      void ctx.editor.openUntitled(`${ladder.name}.ladder.csv`, ladderCsv(evaluations));
    else
      void compareWithAnother(ctx, tools, reference, evaluations).then(
        (added) => added && render(),
        (error: unknown) => reportFailure(ctx.ui, ctx.log, l10n.t('Compare with another group'), error),
      );
  });
  return evaluations;
}

/** Compare with another group: the same reference, a second curve on the same chart. */
async function compareWithAnother(
  ctx: AppContext,
  tools: MediaTools,
  reference: Reference,
  evaluations: LadderEvaluation[],
): Promise<boolean> {
  const other = await resolveLadder(ctx, {});
  if (!other) return false;
  evaluations.push(await runLab(ctx, tools, other, reference));
  return true;
}
