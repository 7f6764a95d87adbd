/**
 * The authoring commands: Validate Document, Create or Update on the Platform (from the open file),
 * Open as File (a channel as an editable *.channel.json), Refresh Ids. The logic is in src/authoring;
 * these handlers only find the document, ask, show and write back.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ApiError } from '../../api/errors';
import type { Channel } from '../../api/types';
import { channelDocumentFileName, channelDocumentText } from '../../authoring/channelDocument';
import { documentKind, KIND_LABELS, kindSuffix, DOCUMENT_KINDS } from '../../authoring/documentKind';
import { platformProblem } from '../../authoring/platformProblem';
import { hasErrors } from '../../authoring/problems';
import { describeVideoOutcome, sendRequest } from '../../authoring/send';
import { DocumentInvalidError, toRequest } from '../../authoring/toRequest';
import { idWriteBackEdits } from '../../authoring/writeBack';
import { reportFailure } from '../failures';
import type { ExtensionServices } from '../services';
import { toWorkspaceEdit } from './convert';
import type { AuthoringSession } from './session';

const SUFFIXES = DOCUMENT_KINDS.map((k) => `*${kindSuffix(k)}`).join(', ');

/** The document a command acts on: the Uri VS Code passes from the editor title, else the active editor's. */
async function targetDocument(arg: unknown): Promise<vscode.TextDocument | undefined> {
  if (arg instanceof vscode.Uri) return vscode.workspace.openTextDocument(arg);
  return vscode.window.activeTextEditor?.document;
}

function kindOf(document: vscode.TextDocument | undefined): ReturnType<typeof documentKind> {
  const kind = document ? documentKind(document.fileName) : undefined;
  if (!kind)
    void vscode.window.showErrorMessage(`Open a Video Platform document first: this works on ${SUFFIXES} files.`);
  return kind;
}

function countWords(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export async function validateDocumentCommand(session: AuthoringSession, arg?: unknown): Promise<void> {
  const document = await targetDocument(arg);
  const kind = kindOf(document);
  if (!document || !kind) return;
  const { problems } = await session.diagnostics.validateFully(document, kind);
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.filter((p) => p.severity === 'warning').length;
  if (problems.length === 0) {
    void vscode.window.showInformationMessage(`This ${KIND_LABELS[kind]} document is valid.`);
    return;
  }
  const text = `This ${KIND_LABELS[kind]} document has ${countWords(errors, 'error')} and ${countWords(warnings, 'warning')}; see the Problems panel.`;
  const show = errors > 0 ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;
  if ((await show(text, 'Show Problems')) === 'Show Problems')
    await vscode.commands.executeCommand('workbench.actions.view.problems');
}

export async function createOrUpdateCommand(
  session: AuthoringSession,
  services: ExtensionServices,
  arg?: unknown,
): Promise<void> {
  const document = await targetDocument(arg);
  const kind = kindOf(document);
  if (!document || !kind) return;
  const label = KIND_LABELS[kind];

  const { value, problems } = await session.diagnostics.validateFully(document, kind);
  if (value === undefined || hasErrors(problems)) {
    const errors = problems.filter((p) => p.severity === 'error');
    const choice = await vscode.window.showErrorMessage(
      `Nothing was sent: the ${label} document has ${countWords(errors.length, 'error')} (first: ${errors[0]?.message ?? 'not valid JSON'}).`,
      'Show Problems',
    );
    if (choice === 'Show Problems') await vscode.commands.executeCommand('workbench.actions.view.problems');
    return;
  }

  let request;
  try {
    request = toRequest(kind, value);
  } catch (error) {
    if (error instanceof DocumentInvalidError) {
      void vscode.window.showErrorMessage(error.message);
      return;
    }
    throw error;
  }
  if (request.operation === 'secondTranscodeV2' && request.input.replace) {
    const go = await vscode.window.showWarningMessage(
      `Transcode ${countWords(request.input.videoIds.length, 'video')} and replace their earlier renditions? The old transcoded files are deleted when the run completes.`,
      { modal: true },
      'Transcode and Replace',
    );
    if (go !== 'Transcode and Replace') return;
  }

  const client = await services.activeClient().catch(async (error: unknown) => {
    await reportCommandFailure(services, `Sending the ${label} to the platform`, error);
    return undefined;
  });
  if (!client) return;

  const wasDirty = document.isDirty;
  try {
    const outcome = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Sending the ${label} to the platform (${request.operation})`,
        cancellable: true,
      },
      (_progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        return sendRequest(client, request, abort.signal);
      },
    );
    services.log.info(outcome.summary);
    for (const video of outcome.videos ?? []) services.log.info(`  ${describeVideoOutcome(video)}`);

    if (outcome.created) {
      const edits = idWriteBackEdits(document.getText(), outcome.created);
      if (
        edits.length > 0 &&
        (await vscode.workspace.applyEdit(toWorkspaceEdit(document, edits))) &&
        !wasDirty &&
        !document.isUntitled
      )
        await document.save();
    }
    // What was created is an id documents may now name (this document's own id included): the lists behind the
    // reference checks are fetched again and the open documents checked again, or the new id would show as
    // unknown right away. Transcoding makes videos, whose list is never complete enough to flag an id.
    if (kind !== 'transcode') {
      session.references.clear();
      session.diagnostics.revalidateAll();
    } else {
      session.diagnostics.validate(document);
    }
    services.refreshViews(
      outcome.reveal?.view === 'video' || kind === 'transcode' ? 'videos' : kind === 'channel' ? 'channels' : 'all',
    );
    if (outcome.reveal?.view === 'channel') await services.revealChannel(outcome.reveal.id).catch(() => undefined);
    if (outcome.reveal?.view === 'video') await services.revealVideo(outcome.reveal.id).catch(() => undefined);

    if (outcome.partial) {
      const choice = await vscode.window.showWarningMessage(outcome.summary, 'Show Log');
      if (choice === 'Show Log') services.log.show();
    } else {
      void vscode.window.showInformationMessage(outcome.summary);
    }
  } catch (error) {
    if (error instanceof ApiError) {
      session.diagnostics.addPlatformProblem(document, platformProblem(document.getText(), error));
    }
    await reportCommandFailure(services, `Sending the ${label} to the platform (${request.operation})`, error);
  }
}

/** A failed command: logged, shown with "Show Log" (the shared wording), a cancellation only logged. */
function reportCommandFailure(services: ExtensionServices, what: string, error: unknown): Promise<void> {
  const ui = {
    error: (message: string, ...actions: string[]) =>
      Promise.resolve(vscode.window.showErrorMessage(message, ...actions)),
    showLog: () => services.log.show(),
  };
  return reportFailure(ui, services.log, what, error);
}

function channelOf(arg: unknown): Channel | undefined {
  const candidate = (arg as { channel?: unknown } | undefined)?.channel;
  return typeof candidate === 'object' && candidate !== null && typeof (candidate as Channel).id === 'string'
    ? (candidate as Channel)
    : undefined;
}

async function pickChannel(services: ExtensionServices): Promise<Channel | undefined> {
  const client = await services.activeClient();
  const page = await client.liveGetChannelsByPage({ start: 1, number: 100, sort: 'createTime', order: 'desc' });
  const picked = await vscode.window.showQuickPick(
    page.channels.map((channel) => ({ label: channel.name, description: channel.id, channel })),
    {
      title: 'Open a channel as a file',
      placeHolder:
        page.count > page.channels.length ? `The newest ${page.channels.length} of ${page.count} channels` : 'Channel',
    },
  );
  return picked?.channel;
}

/** A free untitled path for the document, in the first workspace folder (or the temp folder). */
function untitledUri(fileName: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? tmpdir();
  const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.fsPath));
  const base = fileName.replace(/\.channel\.json$/, '');
  for (let n = 1; ; n++) {
    const path = join(folder, n === 1 ? fileName : `${base} (${n}).channel.json`);
    if (!existsSync(path) && !open.has(path)) return vscode.Uri.file(path).with({ scheme: 'untitled' });
  }
}

export async function openChannelAsFileCommand(services: ExtensionServices, arg?: unknown): Promise<void> {
  try {
    const chosen = channelOf(arg) ?? (await pickChannel(services));
    if (!chosen) return;
    // The tree may be a poll behind; the file starts from the channel as it is now.
    const channel = await (await services.activeClient()).liveGetChannelById(chosen.id);
    const document = await vscode.workspace.openTextDocument(untitledUri(channelDocumentFileName(channel)));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, new vscode.Position(0, 0), channelDocumentText(channel));
    await vscode.workspace.applyEdit(edit);
    await vscode.window.showTextDocument(document);
  } catch (error) {
    await reportCommandFailure(services, 'Open the channel as a file', error);
  }
}

export function refreshReferencesCommand(session: AuthoringSession): void {
  session.references.clear();
  session.diagnostics.revalidateAll();
  void vscode.window.showInformationMessage('Ids for completion and checks will be fetched again from the platform.');
}
