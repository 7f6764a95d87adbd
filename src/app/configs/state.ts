/**
 * The state file of a pulled folder (`.video-platform-state.json`): for each file, the record's kind and id, the
 * hash of the platform's record (folder form) at the last pull or apply, and the hash of the file then. The two
 * differ only where the platform normalised what was sent (kept in `normalised`): then neither is a change.
 * Never credentials: the account is named by its address only.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { l10n } from '../../l10n/l10n';
import type { JsonObject } from '../../authoring/rules/ruleKit';
import type { FieldChange } from './diff';
import { CONFIG_KINDS, configKindOf, type ConfigKind, type GroupIdentity } from './folderForm';
import { STATE_FILE } from './stateFile';

export { STATE_FILE };

const VERSION = 1;
/** A state file larger than this is not one this tool wrote. */
const MAX_STATE_BYTES = 16 * 1024 * 1024;

export interface StateEntry {
  kind: ConfigKind;
  id: string;
  /** Hash of the platform's record in folder form at the last pull or apply. */
  hash: string;
  /** Hash of the file at the last pull or apply (the same as `hash` unless the platform normalised it). */
  fileHash: string;
  groups?: GroupIdentity[];
  /** The platform's record in folder form at the last pull or apply: the base of a conflict's two sides. */
  base?: JsonObject;
  /** Fields the platform answered differently from what was sent, at the last apply. */
  normalised?: FieldChange[];
  /** "Plan to put mine back": the file wins over a drifted record at the next plan. */
  restore?: boolean;
}

export interface FolderState {
  version: number;
  /** The platform's address the folder was pulled from (never a key). */
  baseUrl: string;
  pulledAt: string;
  /** By file name (relative to the folder). */
  files: Record<string, StateEntry>;
}

export function emptyState(baseUrl: string): FolderState {
  return { version: VERSION, baseUrl, pulledAt: new Date().toISOString(), files: {} };
}

/** The folder's state, or undefined when it was never pulled; an Error naming the rule when the file is broken. */
export async function readState(dir: string): Promise<FolderState | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, STATE_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (text.length > MAX_STATE_BYTES) throw new Error(l10n.t('{0} is larger than {1} MB.', STATE_FILE, 16));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(l10n.t('{0} is not valid JSON: delete it and pull the folder again.', STATE_FILE));
  }
  const state = value as FolderState;
  if (
    typeof value !== 'object' ||
    value === null ||
    state.version !== VERSION ||
    typeof state.baseUrl !== 'string' ||
    typeof state.files !== 'object' ||
    state.files === null ||
    !Object.values(state.files).every(isEntry)
  )
    throw new Error(
      l10n.t('{0} is not a state file of this version: delete it and pull the folder again.', STATE_FILE),
    );
  // Its file names are joined to the folder's path: only plain names of the folder's own documents.
  const outside = Object.keys(state.files).find((file) => basename(file) !== file || configKindOf(file) === undefined);
  if (outside !== undefined)
    throw new Error(
      l10n.t(
        '{0} names "{1}", which is not a document of this folder: delete it and pull the folder again.',
        STATE_FILE,
        outside,
      ),
    );
  return state;
}

function isEntry(entry: unknown): entry is StateEntry {
  const e = entry as StateEntry;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    (CONFIG_KINDS as readonly string[]).includes(e.kind) &&
    typeof e.id === 'string' &&
    typeof e.hash === 'string' &&
    typeof e.fileHash === 'string'
  );
}

/** Written whole to a temporary file and renamed, so a stop halfway never leaves half a state file. */
export async function writeState(dir: string, state: FolderState): Promise<void> {
  const sorted: Record<string, StateEntry> = {};
  for (const name of Object.keys(state.files).sort()) sorted[name] = state.files[name]!;
  const path = join(dir, STATE_FILE);
  await writeFile(`${path}.tmp`, `${JSON.stringify({ ...state, files: sorted }, null, 2)}\n`);
  await rename(`${path}.tmp`, path);
}
