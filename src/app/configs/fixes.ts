/** The two ways out of drift: take the platform's version into the file, or mark the file to be put back. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { l10n } from '../../l10n/l10n';
import { folderText, hashOf } from './folderForm';
import type { PlannedOperation } from './plan';
import { readState, writeState } from './state';

/** Writes the platform's record (folder form) into the file, and makes it the new base of the state. */
export async function takePlatformVersion(dir: string, operation: PlannedOperation): Promise<void> {
  if (!operation.platformDoc) throw new Error(l10n.t('{0} has no platform version to take.', operation.file));
  const state = await readState(dir);
  const entry = state?.files[operation.file];
  if (!state || !entry)
    throw new Error(l10n.t("{0} is not in the folder's state: pull the folder again.", operation.file));
  await writeFile(join(dir, operation.file), folderText(operation.kind, operation.platformDoc));
  const hash = hashOf(operation.kind, operation.platformDoc);
  const { restore: _restore, normalised: _normalised, ...kept } = entry;
  state.files[operation.file] = { ...kept, hash, fileHash: hash, base: operation.platformDoc };
  await writeState(dir, state);
}

/** Marks the file so that the next plan sends it over the drifted record ("plan to put mine back"). */
export async function markToPutBack(dir: string, file: string): Promise<void> {
  const state = await readState(dir);
  const entry = state?.files[file];
  if (!state || !entry) throw new Error(l10n.t("{0} is not in the folder's state: pull the folder again.", file));
  state.files[file] = { ...entry, restore: true };
  await writeState(dir, state);
}
