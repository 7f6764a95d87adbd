/**
 * Plan: a three-way comparison of the last pull (the state file), the folder's files and the platform now, per
 * record; every document that would be sent is checked first (schema, rules, references in the folder and on the
 * account), so what the platform would refuse is a line of the plan and nothing is sent.
 */
import { isChannelRunning } from '../../api/types';
import type { DocumentKind } from '../../authoring/documentKind';
import { hasErrors } from '../../authoring/problems';
import type { JsonObject } from '../../authoring/rules/ruleKit';
import { validateDocument } from '../../authoring/validate';
import { l10n } from '../../l10n/l10n';
import { structuralDiff, type FieldChange } from './diff';
import { documentName, readFolderFiles, type FolderFile } from './folderFiles';
import {
  CONFIG_KINDS,
  folderText,
  hasTemplates,
  hashOf,
  NameBook,
  ownedRecords,
  toFolderRecord,
  withKnownTemplates,
  type ConfigKind,
  type ReferredKind,
  type Snapshot,
} from './folderForm';
import { configKindLabel, toPlatformDocument, type Resolver } from './references';
import { findRecord, readSnapshot, type SnapshotClient } from './snapshot';
import { readState, type FolderState, type StateEntry } from './state';

export type PlanAction = 'create' | 'update' | 'delete' | 'drift' | 'conflict' | 'none';

export interface PlannedOperation {
  readonly action: PlanAction;
  readonly kind: ConfigKind;
  readonly name: string;
  readonly file: string;
  /** The record's id (not for a create). */
  readonly id?: string;
  /** What apply changes on the platform (old: the platform's, new: the file's); for drift, what the platform changed. */
  readonly changes: FieldChange[];
  /** A conflict's other side: what the platform changed since the pull. */
  readonly platformChanges?: FieldChange[];
  /** The folder document (create, update). */
  readonly doc?: JsonObject;
  readonly entry?: StateEntry;
  /** The platform's record in folder form now (update, drift, conflict: "take the platform's version"). */
  readonly platformDoc?: JsonObject;
  /** A template group the platform listed without its templates: compared with the last pull's templates. */
  readonly templatesUnlisted?: true;
  /**
   * An update of a running channel (live, pulling, starting): the platform updates only a stopped one, so apply
   * stops it, updates it and starts it again.
   */
  readonly needsStop?: true;
}

/** A line of the plan that makes apply refuse: a file (or "" for the folder) and what is wrong. */
export interface PlanProblem {
  readonly file: string;
  readonly message: string;
  /** Set on a removed file's line: planning again with deletes allowed clears it. */
  readonly needsAllowDelete?: true;
}

export interface Plan {
  readonly dir: string;
  readonly account: string;
  readonly operations: PlannedOperation[];
  readonly problems: PlanProblem[];
  readonly snapshot: Snapshot;
  readonly state: FolderState | undefined;
  readonly allowDelete: boolean;
}

export interface PlanOptions {
  /** The platform's address: the folder must have been pulled from it. */
  readonly account: string;
  readonly allowDelete?: boolean;
  readonly signal?: AbortSignal;
}

/** Kinds with no update operation, and kinds with no delete operation, in the platform's interface. */
const NO_UPDATE: ReadonlySet<ConfigKind> = new Set(['livelogo', 'category']);
const DELETABLE: ReadonlySet<ConfigKind> = new Set(['channel', 'templategroup', 'logogroup']);
const PLACEHOLDER: Readonly<Record<ReferredKind, string>> = {
  logogroup: '1',
  livetemplate: '0'.repeat(32),
  livelogo: '0'.repeat(32),
  category: '0'.repeat(32),
};

export async function planFolder(client: SnapshotClient, dir: string, options: PlanOptions): Promise<Plan> {
  const state = await readState(dir);
  const files = await readFolderFiles(dir);
  const snapshot = await readSnapshot(client, options.signal);
  return comparePlan({ dir, account: options.account, state, files, snapshot, allowDelete: options.allowDelete });
}

interface PlanInput {
  dir: string;
  account: string;
  state: FolderState | undefined;
  files: FolderFile[];
  snapshot: Snapshot;
  allowDelete?: boolean;
}

/** The plan from what was read: no requests here. */
export function comparePlan(input: PlanInput): Plan {
  const { state, files, snapshot } = input;
  const problems: PlanProblem[] = [];
  const operations: PlannedOperation[] = [];
  const plan = {
    dir: input.dir,
    account: input.account,
    operations,
    problems,
    snapshot,
    state,
    allowDelete: input.allowDelete === true,
  };
  if (state && state.baseUrl !== input.account) {
    problems.push({
      file: '',
      message: l10n.t(
        'This folder was pulled from {0}, not from {1}: pull it into another folder.',
        state.baseUrl,
        input.account,
      ),
    });
    return plan;
  }
  const book = NameBook.of(snapshot);
  const readable = files.filter((file) => {
    if (file.problem) problems.push({ file: file.file, message: file.problem });
    return file.doc !== undefined;
  });
  const named = readable.filter((file) => {
    if (documentName(file.kind, file.doc!) !== undefined) return true;
    const field = file.kind === 'livetemplate' ? 'displayName' : 'name';
    problems.push({ file: file.file, message: l10n.t('"{0}" is required: it names the record.', field) });
    return false;
  });
  problems.push(...duplicates(named));
  const created = new Set(
    named
      .filter((file) => !state?.files[file.file])
      .map((file) => `${file.kind}:${documentName(file.kind, file.doc!)}`),
  );
  const resolve: Resolver = (kind, reference) =>
    book.resolve(kind, reference) ?? (created.has(`${kind}:${reference}`) ? PLACEHOLDER[kind] : undefined);

  for (const file of named) {
    const entry = state?.files[file.file];
    const compared = entry
      ? compareRecord(file, entry, snapshot, book, problems)
      : planCreate(file, snapshot, problems);
    if (!compared) continue;
    const operation = runningChannelUpdate(compared, snapshot) ? { ...compared, needsStop: true as const } : compared;
    if (operation.action === 'create' || operation.action === 'update')
      problems.push(...checkDocument(file, entry, resolve, operation));
    operations.push(operation);
  }
  for (const [file, entry] of Object.entries(state?.files ?? {}))
    if (!files.some((present) => present.file === file)) {
      const operation = planDelete(file, entry, snapshot, input.allowDelete === true, problems);
      if (operation) operations.push(operation);
    }
  operations.sort(byRunOrder);
  return plan;
}

/** Creates and updates in the kinds' order (referred records first), deletes last in the reverse order. */
function byRunOrder(a: PlannedOperation, b: PlannedOperation): number {
  const rank = (op: PlannedOperation): number =>
    op.action === 'delete'
      ? 100 + (CONFIG_KINDS.length - CONFIG_KINDS.indexOf(op.kind))
      : CONFIG_KINDS.indexOf(op.kind);
  return rank(a) - rank(b) || a.name.localeCompare(b.name) || a.file.localeCompare(b.file);
}

/** Two files that would be one record: the same kind and name. */
function duplicates(files: FolderFile[]): PlanProblem[] {
  const seen = new Map<string, string>();
  const problems: PlanProblem[] = [];
  for (const file of files) {
    const key = `${file.kind}:${documentName(file.kind, file.doc!)}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, file.file);
    else
      problems.push({
        file: file.file,
        message: l10n.t(
          '{0} and {1} are two files for one {2} "{3}": keep one.',
          first,
          file.file,
          configKindLabel(file.kind),
          documentName(file.kind, file.doc!)!,
        ),
      });
  }
  return problems;
}

function compareRecord(
  file: FolderFile,
  entry: StateEntry,
  snapshot: Snapshot,
  book: NameBook,
  problems: PlanProblem[],
): PlannedOperation | undefined {
  const base = {
    kind: file.kind,
    name: documentName(file.kind, file.doc!)!,
    file: file.file,
    id: entry.id,
    entry,
    doc: file.doc,
  };
  if (entry.kind !== file.kind) {
    problems.push({
      file: file.file,
      message: l10n.t('The state file has this file as a {0}: pull the folder again.', configKindLabel(entry.kind)),
    });
    return undefined;
  }
  const record = findRecord(snapshot, file.kind, entry.id);
  if (!record) {
    problems.push({
      file: file.file,
      message: l10n.t(
        '{0} {1} was deleted on the platform since the pull: pull again (the file goes), or delete the file.',
        configKindLabel(file.kind),
        entry.id,
      ),
    });
    return undefined;
  }
  const folder = toFolderRecord(file.kind, record, book);
  // Templates the platform did not list are taken as the last pull had them (it cannot say they changed).
  const platformDoc = withKnownTemplates(folder, entry.base);
  const fileChanged = hashOf(file.kind, file.doc) !== entry.fileHash;
  const platformChanged = hashOf(file.kind, platformDoc) !== entry.hash;
  const toPlatform = withoutNormalised(entry, changesBetween(file.kind, platformDoc, file.doc!));
  const withPlatform = {
    ...base,
    platformDoc,
    ...(folder.templatesUnlisted ? { templatesUnlisted: true as const } : {}),
  };
  if (!fileChanged && !platformChanged) return { ...withPlatform, action: 'none', changes: [] };
  if (!platformChanged || (entry.restore && !fileChanged))
    return { ...withPlatform, action: 'update', changes: toPlatform };
  if (!fileChanged)
    return { ...withPlatform, action: 'drift', changes: changesBetween(file.kind, file.doc!, platformDoc) };
  if (toPlatform.length === 0) return { ...withPlatform, action: 'none', changes: [] };
  return {
    ...withPlatform,
    action: 'conflict',
    changes: toPlatform,
    platformChanges: changesBetween(file.kind, entry.base ?? file.doc!, platformDoc),
  };
}

/** The two documents compared in normal form (flags as text, the kind's key order). */
export function changesBetween(kind: ConfigKind, before: unknown, after: unknown): FieldChange[] {
  return structuralDiff(JSON.parse(folderText(kind, before)), JSON.parse(folderText(kind, after)));
}

/** A field the platform normalised at the last apply is not a change again (no perpetual diff). */
function withoutNormalised(entry: StateEntry, changes: FieldChange[]): FieldChange[] {
  const known = entry.normalised ?? [];
  return changes.filter(
    (change) =>
      !known.some(
        (n) =>
          n.path === change.path &&
          JSON.stringify(n.old) === JSON.stringify(change.new) &&
          JSON.stringify(n.new) === JSON.stringify(change.old),
      ),
  );
}

function planCreate(file: FolderFile, snapshot: Snapshot, problems: PlanProblem[]): PlannedOperation | undefined {
  const name = documentName(file.kind, file.doc!)!;
  // A category's name is its identity: a second one of the same name would be refused.
  if (file.kind === 'category' && snapshot.category.some((category) => category.name === name)) {
    problems.push({
      file: file.file,
      message: l10n.t('A category "{0}" is already on the account: pull to take it into the folder.', name),
    });
    return undefined;
  }
  return {
    action: 'create',
    kind: file.kind,
    name,
    file: file.file,
    doc: file.doc,
    changes: structuralDiff({}, JSON.parse(folderText(file.kind, file.doc))),
  };
}

function planDelete(
  file: string,
  entry: StateEntry,
  snapshot: Snapshot,
  allowDelete: boolean,
  problems: PlanProblem[],
): PlannedOperation | undefined {
  const record = findRecord(snapshot, entry.kind, entry.id);
  const name = record
    ? String((record as { name?: unknown; displayName?: unknown }).displayName ?? (record as { name: string }).name)
    : entry.id;
  // Gone from both sides: nothing to do but forget it.
  if (!record) return { action: 'none', kind: entry.kind, name, file, id: entry.id, entry, changes: [] };
  if (!DELETABLE.has(entry.kind))
    problems.push({
      file,
      message: l10n.t(
        "The file was removed from the folder, but a {0} cannot be deleted through the platform's interface: pull again to restore it.",
        configKindLabel(entry.kind),
      ),
    });
  else if (!allowDelete)
    problems.push({
      file,
      message: l10n.t(
        'The file was removed from the folder: deleting {0} "{1}" needs --allow-delete (or pull again to restore it).',
        configKindLabel(entry.kind),
        name,
      ),
      needsAllowDelete: true,
    });
  return { action: 'delete', kind: entry.kind, name, file, id: entry.id, entry, changes: [] };
}

/**
 * What the platform would refuse, found now: references, schema and rules, kinds that cannot change, a template
 * group update that would empty the group. (A running channel is not refused: apply stops and restarts it.)
 */
function checkDocument(
  file: FolderFile,
  entry: StateEntry | undefined,
  resolve: Resolver,
  operation: PlannedOperation,
): PlanProblem[] {
  const { action } = operation;
  const problem = (message: string): PlanProblem => ({ file: file.file, message });
  // An update replaces the group's whole list: one from a file without templates would leave the group empty.
  if (action === 'update' && operation.templatesUnlisted && !hasTemplates(file.doc))
    return [
      problem(
        l10n.t(
          'The platform lists template group "{0}" without its templates, and this file has none: the update would leave the group without templates, so it is not sent. Put the group\'s templates in "transcodeTemplates".',
          operation.name,
        ),
      ),
    ];
  if (action === 'update' && NO_UPDATE.has(file.kind))
    return [
      problem(
        l10n.t(
          'A {0} cannot be modified on the platform: put the file back as it was pulled, or create a new one under another name.',
          configKindLabel(file.kind),
        ),
      ),
    ];
  const resolved = toPlatformDocument(file.kind, file.doc!, entry, resolve);
  // A name that names nothing is the one problem there (the schema would also call it a malformed id).
  const problems = resolved.problems.map(problem);
  if (problems.length > 0 || file.kind === 'category') return problems;
  const { problems: found } = validateDocument(file.kind as DocumentKind, JSON.stringify(resolved.doc, null, 2));
  if (hasErrors(found)) for (const p of found) if (p.severity === 'error') problems.push(problem(p.message));
  return problems;
}

/** An update of a channel that is running now: apply stops it first and starts it again after. */
function runningChannelUpdate(operation: PlannedOperation, snapshot: Snapshot): boolean {
  if (operation.action !== 'update' || operation.kind !== 'channel') return false;
  const channel = snapshot.channel.find((c) => c.id === operation.id);
  return channel !== undefined && isChannelRunning(channel.status);
}

/** The channels apply stops and starts again, by name. */
export function channelsToRestart(plan: Plan): string[] {
  return plan.operations.filter((op) => op.needsStop).map((op) => op.name);
}

/** Owned records of a kind (built-in template groups left out). */
export function ownedOf(snapshot: Snapshot, kind: ConfigKind): Snapshot[ConfigKind] {
  return ownedRecords(kind, snapshot[kind]);
}

/** Nothing blocks apply: no problem, no conflict. */
export function runnable(plan: Plan): boolean {
  return plan.problems.length === 0 && !plan.operations.some((op) => op.action === 'conflict');
}

/** The lines that block apply, for its refusal. */
export function planBlockersList(plan: Plan): string {
  const lines = plan.problems.map((p) => (p.file ? `${p.file}: ${p.message}` : p.message));
  for (const op of plan.operations)
    if (op.action === 'conflict')
      lines.push(l10n.t('{0}: changed in the file and on the platform since the pull.', op.file));
  return lines.join(' ');
}

/** The plan as `--json` prints it for scripts. */
export function planJson(plan: Plan): unknown {
  return {
    operations: plan.operations.map(({ action, kind, name, file, needsStop, changes, platformChanges }) => ({
      action,
      kind,
      name,
      file,
      // A running channel that apply stops, updates and starts again (viewers lose it for a moment).
      ...(needsStop ? { needsStop } : {}),
      ...(changes.length > 0 ? { changes } : {}),
      ...(platformChanges?.length ? { platformChanges } : {}),
    })),
    problems: plan.problems,
  };
}
