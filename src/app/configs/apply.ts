/**
 * Apply: the plan's creates, updates and deletes in its order, each read back from the platform and its new hash
 * stored at once (a stop halfway leaves a true state file); it stops at the first refusal and says what ran and
 * what did not. A field that differs right after a successful update was normalised by the platform: reported,
 * remembered in the state file, and not a change at the next plan.
 */
import type { PlatformClient } from '../../api/client';
import { sleep } from '../../api/retry';
import { isChannelRunning } from '../../api/types';
import type { DocumentKind } from '../../authoring/documentKind';
import type { JsonObject } from '../../authoring/rules/ruleKit';
import { sendRequest } from '../../authoring/send';
import { toRequest } from '../../authoring/toRequest';
import { l10n } from '../../l10n/l10n';
import { describeFailure } from '../failures';
import type { FieldChange } from './diff';
import {
  hashOf,
  hasTemplates,
  NameBook,
  recordName,
  toFolderRecord,
  withKnownTemplates,
  type AnyRecord,
  type ConfigKind,
} from './folderForm';
import { runnable, changesBetween, planBlockersList, type Plan, type PlannedOperation } from './plan';
import { configKindLabel, toPlatformDocument } from './references';
import { emptyState, writeState, type FolderState } from './state';

export type ApplyClient = Pick<
  PlatformClient,
  | 'liveCreateChannel'
  | 'liveUpdate'
  | 'liveDelete'
  | 'liveGetChannelById'
  | 'templateGroup'
  | 'templateGroupList'
  | 'deleteTemplateGroup'
  | 'logoGroup'
  | 'getLogoGroupList'
  | 'deleteLogoGroup'
  | 'liveTemplateCreate'
  | 'liveTemplateUpdate'
  | 'liveGetTemplates'
  | 'liveLogoCreate'
  | 'liveLogoList'
  | 'liveChannelTypeCreate'
  | 'liveChannelTypeList'
  | 'secondTranscodeV2'
  | 'liveStopChannel'
  | 'liveStartChannel'
>;

/** How long apply waits for a stopped channel to leave the running statuses before it updates it. */
export const STOP_WAIT_MS = 30_000;

export interface AppliedOperation {
  readonly operation: PlannedOperation;
  readonly id: string;
  /** Fields the platform answered differently from what was sent. */
  readonly normalised: FieldChange[];
  /** A running channel stopped for its update and started again. */
  readonly restarted?: true;
}

export interface ApplyResult {
  readonly ran: AppliedOperation[];
  /** The refused operation and why; the ones after it did not run. */
  readonly failed?: { operation: PlannedOperation; message: string };
  readonly notRun: PlannedOperation[];
}

/** The operations apply sends (drift, conflicts and no-change are not sent). */
export function operationsToRun(plan: Plan): PlannedOperation[] {
  return plan.operations.filter(
    (op) =>
      op.action === 'create' || op.action === 'update' || op.action === 'delete' || (op.action === 'none' && !op.doc),
  );
}

export async function applyPlan(
  client: ApplyClient,
  plan: Plan,
  options: { signal?: AbortSignal; onStep?: (operation: PlannedOperation) => void } = {},
): Promise<ApplyResult> {
  if (!runnable(plan))
    throw new Error(l10n.t('The plan has problems or conflicts, so nothing was sent: {0}', planBlockersList(plan)));
  const state: FolderState = plan.state ? { ...plan.state, files: { ...plan.state.files } } : emptyState(plan.account);
  const book = NameBook.of(plan.snapshot);
  const queue = operationsToRun(plan);
  const ran: AppliedOperation[] = [];
  for (let i = 0; i < queue.length; i++) {
    const operation = queue[i]!;
    options.onStep?.(operation);
    try {
      ran.push(await runOne(client, operation, state, book, options.signal));
    } catch (error) {
      return { ran, failed: { operation, message: describeFailure(error) }, notRun: queue.slice(i + 1) };
    } finally {
      await writeState(plan.dir, state);
    }
  }
  return { ran, notRun: [] };
}

async function runOne(
  client: ApplyClient,
  operation: PlannedOperation,
  state: FolderState,
  book: NameBook,
  signal?: AbortSignal,
): Promise<AppliedOperation> {
  const { kind, file } = operation;
  if (operation.action === 'none' || operation.action === 'delete') {
    if (operation.action === 'delete') await deleteRecord(client, kind, operation.id!, signal);
    delete state.files[file];
    return { operation, id: operation.id!, normalised: [] };
  }
  if (!operation.needsStop) return sendOne(client, operation, state, book, signal);
  // The platform updates only a stopped channel: stopped, updated, started again, even when the update is refused.
  const id = operation.id!;
  await stopChannel(client, id, signal);
  let applied: AppliedOperation;
  try {
    applied = await sendOne(client, operation, state, book, signal);
  } catch (error) {
    await client.liveStartChannel(id, { signal }).catch((startError: unknown) => {
      throw new Error(
        l10n.t(
          '{0} Channel "{1}" was stopped for the update and did not start again: {2}',
          describeFailure(error),
          operation.name,
          describeFailure(startError),
        ),
      );
    });
    throw error;
  }
  try {
    await client.liveStartChannel(id, { signal });
  } catch (error) {
    throw new Error(
      l10n.t(
        'Channel "{0}" was updated but did not start again (it was stopped for the update): {1}',
        operation.name,
        describeFailure(error),
      ),
    );
  }
  return { ...applied, restarted: true };
}

/** Stops a channel and waits (bounded) until the platform no longer has it running. */
async function stopChannel(client: ApplyClient, id: string, signal?: AbortSignal): Promise<void> {
  let channel = await client.liveStopChannel(id, { signal });
  const until = Date.now() + STOP_WAIT_MS;
  while (isChannelRunning(channel.status)) {
    if (Date.now() > until)
      throw new Error(
        l10n.t('Channel "{0}" was still running {1} s after it was stopped: nothing was updated.', channel.name, 30),
      );
    await sleep(500, signal, () => new Error(l10n.t('Cancelled while channel "{0}" was stopping.', channel.name)));
    channel = await client.liveGetChannelById(id, { signal });
  }
}

async function sendOne(
  client: ApplyClient,
  operation: PlannedOperation,
  state: FolderState,
  book: NameBook,
  signal?: AbortSignal,
): Promise<AppliedOperation> {
  const { kind, file } = operation;
  const entry = state.files[file];
  const resolved = toPlatformDocument(
    kind,
    operation.doc!,
    operation.action === 'update' ? entry : undefined,
    (k, ref) => book.resolve(k, ref),
  );
  if (resolved.problems.length > 0) throw new Error(resolved.problems.join(' '));
  // Never a template group without templates: the plan refuses it, and a plan made by hand is refused here too.
  if (kind === 'templategroup' && !hasTemplates(operation.doc))
    throw new Error(l10n.t('{0} has no templates: a template group is never sent without them.', file));
  const id = await sendDocument(client, kind, resolved.doc, entry?.id, signal);
  const record = await readBack(client, kind, id, signal);
  if (kind !== 'templategroup' && kind !== 'channel') book.add(kind, id, recordName(kind, record));
  // Templates the platform does not list read back as the ones just sent (they are not "normalised away").
  const folder = toFolderRecord(kind, record, book);
  const doc = withKnownTemplates(folder, operation.doc);
  const normalised = changesBetween(kind, operation.doc, doc);
  state.files[file] = {
    kind,
    id,
    hash: hashOf(kind, doc),
    fileHash: hashOf(kind, operation.doc),
    base: doc,
    ...(folder.groups ? { groups: folder.groups } : {}),
    ...(normalised.length > 0 ? { normalised } : {}),
  };
  return { operation, id, normalised };
}

/** Sends the document; the record's id (the new one after a create). */
export async function sendDocument(
  client: ApplyClient,
  kind: ConfigKind,
  doc: JsonObject,
  knownId: string | undefined,
  signal?: AbortSignal,
): Promise<string> {
  if (kind === 'category') return (await client.liveChannelTypeCreate(String(doc.name), { signal })).id;
  const outcome = await sendRequest(client, toRequest(kind as DocumentKind, doc), signal);
  if (outcome.created?.id !== undefined) return String(outcome.created.id);
  if (outcome.reveal) return outcome.reveal.id;
  if (knownId !== undefined) return knownId;
  throw new Error(l10n.t('The platform did not say the id of the new {0}.', configKindLabel(kind)));
}

/** The record as the platform has it now, by one list request (or the channel by its id). */
export async function readBack(
  client: ApplyClient,
  kind: ConfigKind,
  id: string,
  signal?: AbortSignal,
): Promise<AnyRecord> {
  const o = { signal };
  const byId = <T extends { id: string | number }>(records: T[]): T | undefined =>
    records.find((record) => String(record.id) === id);
  let found: AnyRecord | undefined;
  switch (kind) {
    case 'channel':
      return client.liveGetChannelById(id, o);
    case 'templategroup':
      found = byId(await client.templateGroupList({}, o));
      break;
    case 'logogroup':
      found = byId(await client.getLogoGroupList(o));
      break;
    case 'livetemplate':
      found = byId(await client.liveGetTemplates({}, o));
      break;
    case 'livelogo':
      found = byId(await client.liveLogoList({ id }, o));
      break;
    case 'category':
      found = byId(await client.liveChannelTypeList({ id }, o));
      break;
  }
  if (!found)
    throw new Error(l10n.t('{0} {1} is not on the platform right after it was sent.', configKindLabel(kind), id));
  return found;
}

async function deleteRecord(client: ApplyClient, kind: ConfigKind, id: string, signal?: AbortSignal): Promise<void> {
  const o = { signal };
  if (kind === 'channel') return client.liveDelete([id], o);
  if (kind === 'templategroup') return client.deleteTemplateGroup({ ids: [id] }, o);
  if (kind === 'logogroup') return client.deleteLogoGroup({ ids: [id] }, o);
  throw new Error(l10n.t("A {0} cannot be deleted through the platform's interface.", configKindLabel(kind)));
}

/** "2 ran (1 update, 1 create); refused: ...; not run: ..." in plain words. */
export function applySummary(result: ApplyResult): string {
  const ran =
    result.ran
      .map((r) =>
        r.restarted
          ? l10n.t('{0} {1} (stopped, updated and started again)', r.operation.action, r.operation.file)
          : `${r.operation.action} ${r.operation.file}`,
      )
      .join(', ') || l10n.t('nothing');
  if (!result.failed) return l10n.t('Applied: {0}.', ran);
  const notRun = result.notRun.map((op) => `${op.action} ${op.file}`).join(', ') || l10n.t('nothing');
  return l10n.t(
    'Stopped at {0} {1}: {2}. Ran: {3}. Not run: {4}.',
    result.failed.operation.action,
    result.failed.operation.file,
    result.failed.message,
    ran,
    notRun,
  );
}
