/**
 * The authoring commands: Validate Document, Create or Update on the Platform (from the open file),
 * Open as File (a channel as an editable *.channel.json), Refresh Ids. The logic is in src/authoring;
 * these handlers only find the document, ask, show and write back, through the context's ports.
 */
import { ApiError } from '../../api/errors';
import type { SecondTranscodeJob, SecondTranscodeResult } from '../../api/types';
import { transcodeJobWords } from '../tree/videoPresentation';
import { channelDocumentFileName, channelDocumentText } from '../../authoring/channelDocument';
import { documentKind, kindLabel, kindSuffix, DOCUMENT_KINDS, type DocumentKind } from '../../authoring/documentKind';
import { platformProblem } from '../../authoring/platformProblem';
import { hasErrors, type Problem } from '../../authoring/problems';
import { describeVideoOutcome, sendRequest, type SendOutcome } from '../../authoring/send';
import { DocumentInvalidError, toRequest, type DocumentRequest } from '../../authoring/toRequest';
import { idWriteBackEdits } from '../../authoring/writeBack';
import type { AccountProfile } from '../accounts/accountStore';
import { accountOfDocument } from '../accounts/documentAccountCommands';
import { resolveChannels } from '../ask/targets';
import type { AppContext, CommandArgs, EditorDocument } from '../context';
import { step } from '../failures';
import { l10n } from '../../l10n/l10n';

const SUFFIXES = DOCUMENT_KINDS.map((k) => `*${kindSuffix(k)}`).join(', ');

/** The document a command acts on (the editor title's, else the active editor's) and its kind; says so when none. */
async function targetDocument(
  ctx: AppContext,
  args: CommandArgs,
): Promise<{ document: EditorDocument; kind: DocumentKind } | undefined> {
  const document = await ctx.editor.document(args.uri);
  const kind = document ? documentKind(document.fileName) : undefined;
  if (!document || !kind) {
    void ctx.ui.error(l10n.t('Open a Video Platform document first: this works on {0} files.', SUFFIXES));
    return undefined;
  }
  return { document, kind };
}

/** videoPlatform.validateDocument */
export async function validateDocumentCommand(ctx: AppContext, args: CommandArgs = {}): Promise<void> {
  const target = await targetDocument(ctx, args);
  if (!target) return;
  const { document, kind } = target;
  const { problems } = await ctx.authoring.diagnostics.validateFully(document, kind);
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.filter((p) => p.severity === 'warning').length;
  if (problems.length === 0) {
    void ctx.ui.info(l10n.t('This {0} document is valid.', kindLabel(kind)));
    return;
  }
  const text = l10n.t(
    'This {0} document has {1} and {2}; see the Problems panel.',
    kindLabel(kind),
    errors === 1 ? l10n.t('1 error') : l10n.t('{0} errors', errors),
    warnings === 1 ? l10n.t('1 warning') : l10n.t('{0} warnings', warnings),
  );
  const showProblems = l10n.t('Show Problems');
  const choice = errors > 0 ? await ctx.ui.error(text, showProblems) : await ctx.ui.warn(text, showProblems);
  if (choice === showProblems) await ctx.editor.showProblems();
}

/** A document with errors: nothing is sent, the first error said, the Problems panel a click away. */
async function refuseInvalid(ctx: AppContext, label: string, problems: readonly Problem[]): Promise<void> {
  const errors = problems.filter((p) => p.severity === 'error');
  const showProblems = l10n.t('Show Problems');
  const choice = await ctx.ui.error(
    l10n.t(
      'Nothing was sent: the {0} document has {1} (first: {2}).',
      label,
      errors.length === 1 ? l10n.t('1 error') : l10n.t('{0} errors', errors.length),
      errors[0]?.message ?? l10n.t('not valid JSON'),
    ),
    showProblems,
  );
  if (choice === showProblems) await ctx.editor.showProblems();
}

/** The request a valid document makes; undefined (said as the document's own fault) when it cannot make one. */
function requestOf(ctx: AppContext, kind: DocumentKind, value: unknown): DocumentRequest | undefined {
  try {
    return toRequest(kind, value);
  } catch (error) {
    // The document's own fault, said as it is (no "failed", no Show Log).
    if (error instanceof DocumentInvalidError) {
      void ctx.ui.error(error.message);
      return undefined;
    }
    throw error;
  }
}

/** A transcode that replaces renditions deletes files: confirmed first. */
async function confirmReplace(ctx: AppContext, request: DocumentRequest, account: AccountProfile): Promise<boolean> {
  if (request.operation !== 'secondTranscodeV2' || !request.input.replace) return true;
  return ctx.ui.confirm(
    l10n.t(
      'Transcode {0} on account "{1}" and replace their earlier renditions? The old transcoded files are deleted when the run completes.',
      request.input.videoIds.length === 1 ? l10n.t('1 video') : l10n.t('{0} videos', request.input.videoIds.length),
      account.name,
    ),
    '',
    l10n.t('Transcode and Replace'),
    { destructive: true },
  );
}

/** One document being sent: what the steps after the sending need. */
interface Sending {
  readonly document: EditorDocument;
  readonly kind: DocumentKind;
  readonly label: string;
  readonly account: AccountProfile;
  readonly request: DocumentRequest;
}

/** Sends the request to the document's account; a refusal is shown on the document too, where the user fixes it. */
async function send(ctx: AppContext, sending: Sending): Promise<SendOutcome> {
  const { document, kind, label, account, request } = sending;
  const client = await step(l10n.t('Sending the {0} to account "{1}"', label, account.name), () =>
    ctx.connection.clientFor(account.id),
  );
  const what = l10n.t('Sending the {0} to account "{1}" ({2})', label, account.name, request.operation);
  return step(what, async () => {
    try {
      return await ctx.ui.withProgress({ title: what, cancellable: true }, ({ signal }) =>
        sendRequest(client, request, signal),
      );
    } catch (error) {
      if (error instanceof ApiError)
        ctx.authoring.diagnostics.addPlatformProblem(document, platformProblem(document.text(), error, kind));
      throw error;
    }
  });
}

/** A created id written into the document (saved when it was saved before), and the documents checked again. */
async function writeBack(ctx: AppContext, sending: Sending, outcome: SendOutcome, wasDirty: boolean): Promise<void> {
  const { document, kind } = sending;
  const { diagnostics, references } = ctx.authoring;
  if (outcome.created) {
    const edits = idWriteBackEdits(document.text(), outcome.created);
    if (edits.length > 0 && (await ctx.editor.applyEdits(document, edits)) && !wasDirty && !document.isUntitled)
      await ctx.editor.save(document);
  }
  // What was created is an id documents may now name (this document's own id included): the lists behind the
  // reference checks are fetched again and the open documents checked again, or the new id would show as
  // unknown right away. Transcoding makes videos, whose list is never complete enough to flag an id.
  if (kind !== 'transcode') {
    references.clear();
    diagnostics.revalidateAll();
  } else {
    diagnostics.validate(document);
  }
}

/** The views of the active account refreshed, transcoding followed, the record revealed. */
async function showInViews(ctx: AppContext, sending: Sending, outcome: SendOutcome, epoch: number): Promise<void> {
  const { kind, request } = sending;
  // The views show the active account: another account's record is neither listed nor revealed there.
  if (sending.account.id !== ctx.connection.accountId) return;
  const views =
    outcome.reveal?.view === 'video' || kind === 'transcode' ? 'videos' : kind === 'channel' ? 'channels' : 'all';
  // Template groups, logo groups, live templates and logos are listed in the Resources view.
  if (kind !== 'channel' && kind !== 'transcode') ctx.models.resources.refresh();
  if (views !== 'videos') ctx.models.channels.refresh();
  if (views !== 'channels') ctx.models.videos.refresh();
  if (request.operation === 'secondTranscodeV2') followTranscoding(ctx, outcome.videos ?? [], epoch, request.input);
  // Revealing is a courtesy: the record was sent all the same.
  if (outcome.reveal?.view === 'channel') await ctx.reveal.channel(outcome.reveal.id).catch(() => undefined);
  if (outcome.reveal?.view === 'video') await ctx.reveal.video(outcome.reveal.id).catch(() => undefined);
}

/** videoPlatform.createOrUpdateFromDocument */
export async function createOrUpdateCommand(ctx: AppContext, args: CommandArgs = {}): Promise<void> {
  const target = await targetDocument(ctx, args);
  if (!target) return;
  const { document, kind } = target;
  const label = kindLabel(kind);
  // Checked against and sent to the document's own account, whichever is active (asked once when it has none).
  const account = await accountOfDocument(ctx, document);
  if (!account) return;
  const { value, problems } = await ctx.authoring.diagnostics.validateFully(document, kind);
  if (value === undefined || hasErrors(problems)) return refuseInvalid(ctx, label, problems);
  const request = requestOf(ctx, kind, value);
  if (!request || !(await confirmReplace(ctx, request, account))) return;

  const sending: Sending = { document, kind, label, account, request };
  const wasDirty = document.isDirty;
  const epoch = ctx.connection.epoch;
  const outcome = await send(ctx, sending);
  ctx.log.info(outcome.summary);
  for (const video of outcome.videos ?? []) ctx.log.info(`  ${describeVideoOutcome(video)}`);
  await writeBack(ctx, sending, outcome, wasDirty);
  await showInViews(ctx, sending, outcome, epoch);

  const summary = l10n.t('{0} on account "{1}".', outcome.summary.replace(/\.$/, ''), account.name);
  if (outcome.partial) {
    const showLog = l10n.t('Show Log');
    if ((await ctx.ui.warn(summary, showLog)) === showLog) ctx.ui.showLog();
  } else {
    void ctx.ui.info(summary);
  }
}

/**
 * The view follows the videos the platform accepted until they settle, as Transcode... does; a "Save as" job
 * (`replace: false`) lists the new copies when a source settles, without a Refresh.
 */
function followTranscoding(
  ctx: AppContext,
  results: readonly SecondTranscodeResult[],
  epoch: number,
  job: SecondTranscodeJob,
): void {
  const accepted = results.filter((result) => result.code === 0).map((result) => result.id);
  if (accepted.length === 0) return;
  ctx.models.videos.track(accepted, epoch, false, !job.replace);
  ctx.models.videos.describeJob(accepted, transcodeJobWords(job));
  for (const id of accepted) void ctx.models.videos.refreshVideo(id).catch(() => undefined);
  ctx.poller.videos.kick();
}

/** videoPlatform.openChannelAsFile: the clicked channel, or one picked (searchable) from the palette. */
export async function openChannelAsFileCommand(ctx: AppContext, args: CommandArgs = {}): Promise<void> {
  const title = l10n.t('Open the channel as a file');
  const [chosen] = (await resolveChannels(ctx, { node: args.node }, { title, many: false })) ?? [];
  if (!chosen) return;
  // The tree may be a poll behind; the file starts from the channel as it is now.
  const channel = await (await ctx.connection.activeClient()).liveGetChannelById(chosen.id);
  await ctx.editor.openUntitled(channelDocumentFileName(channel), channelDocumentText(channel));
}

/** videoPlatform.refreshAuthoringReferences */
export function refreshReferencesCommand(ctx: AppContext): void {
  ctx.authoring.references.clear();
  ctx.authoring.diagnostics.revalidateAll();
  void ctx.ui.info(l10n.t('Ids for completion and checks will be fetched again from the platform.'));
}
