/**
 * Pull: every record of the account a folder holds (built-in template groups aside) written as one file each in
 * folder form, and the state file. Pulling again updates the files, removes those of records gone from the
 * platform, and says what changed.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { l10n } from '../../l10n/l10n';
import {
  CONFIG_KINDS,
  folderFileName,
  folderText,
  hashOf,
  NameBook,
  ownedRecords,
  toFolderRecord,
  type AnyRecord,
  withKnownTemplates,
  type ConfigKind,
} from './folderForm';
import { readSnapshot, type SnapshotClient } from './snapshot';
import { emptyState, readState, writeState, type FolderState } from './state';

export type FileChange = 'created' | 'updated' | 'removed' | 'unchanged';

export interface PulledFile {
  readonly file: string;
  readonly kind: ConfigKind;
  readonly name: string;
  readonly change: FileChange;
  /** A template group the platform listed without its templates: the file keeps the ones it had, if any. */
  readonly templatesUnlisted?: true;
}

export interface PullResult {
  readonly files: PulledFile[];
}

export async function pullFolder(
  client: SnapshotClient,
  dir: string,
  options: { account: string; signal?: AbortSignal },
): Promise<PullResult> {
  await mkdir(dir, { recursive: true });
  const previous = await readState(dir);
  if (previous && previous.baseUrl !== options.account)
    throw new Error(
      l10n.t(
        'This folder was pulled from {0}, not from {1}: pull it into another folder.',
        previous.baseUrl,
        options.account,
      ),
    );
  const snapshot = await readSnapshot(client, options.signal);
  const book = NameBook.of(snapshot);
  const state: FolderState = emptyState(options.account);
  const taken = new Set<string>();
  const files: PulledFile[] = [];
  for (const kind of CONFIG_KINDS) {
    const records = ownedRecords(kind, snapshot[kind]) as AnyRecord[];
    for (const record of records) {
      const folder = toFolderRecord(kind, record, book);
      const file = fileFor(previous, folder.kind, folder.id, folder.name, taken);
      taken.add(file.toLowerCase());
      const before = await readFile(join(dir, file), 'utf8').catch(() => undefined);
      // Templates the platform did not list are not written as none: the file keeps the ones it has.
      const doc = withKnownTemplates(folder, parsed(before));
      const text = folderText(kind, doc);
      if (before !== text) await writeFile(join(dir, file), text);
      const change: FileChange = before === undefined ? 'created' : before === text ? 'unchanged' : 'updated';
      files.push({
        file,
        kind,
        name: folder.name,
        change,
        ...(folder.templatesUnlisted ? { templatesUnlisted: true } : {}),
      });
      const hash = hashOf(kind, doc);
      state.files[file] = {
        kind,
        id: folder.id,
        hash,
        fileHash: hash,
        base: doc,
        ...(folder.groups ? { groups: folder.groups } : {}),
      };
    }
  }
  for (const [file, entry] of Object.entries(previous?.files ?? {}))
    if (!state.files[file]) {
      await rm(join(dir, file), { force: true });
      files.push({ file, kind: entry.kind, name: entry.id, change: 'removed' });
    }
  await writeState(dir, state);
  return { files };
}

/** A file's document, or undefined when there is none or it does not parse. */
function parsed(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The file a record had at the last pull while its name gives the same file name, else a new one. */
function fileFor(
  previous: FolderState | undefined,
  kind: ConfigKind,
  id: string,
  name: string,
  taken: ReadonlySet<string>,
): string {
  const fresh = folderFileName(kind, name, id, new Set());
  const earlier = Object.entries(previous?.files ?? {}).find(
    ([, entry]) => entry.kind === kind && entry.id === id,
  )?.[0];
  const stem = fresh.slice(0, -`.${kind}.json`.length);
  if (earlier && !taken.has(earlier.toLowerCase()) && (earlier === fresh || earlier.startsWith(`${stem} (`)))
    return earlier;
  return folderFileName(kind, name, id, taken);
}

/** "3 created, 1 updated, 0 removed, 12 unchanged" */
export function pullSummary(result: PullResult): string {
  const count = (change: FileChange): number => result.files.filter((f) => f.change === change).length;
  return l10n.t(
    '{0} created, {1} updated, {2} removed, {3} unchanged.',
    count('created'),
    count('updated'),
    count('removed'),
    count('unchanged'),
  );
}

/** What the pull could not read: the template groups the platform listed without their templates. */
export function pullNotes(result: PullResult): string[] {
  const unlisted = result.files.filter((f) => f.templatesUnlisted);
  if (unlisted.length === 0) return [];
  return [
    l10n.t(
      'The platform listed these template groups without their templates: {0}. Their files keep the templates they had (a new file has none: add them before planning a change).',
      unlisted.map((f) => f.file).join(', '),
    ),
  ];
}
