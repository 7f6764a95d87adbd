/** The documents of a pulled folder: its files of the six kinds (not its subfolders), bounded in number and size. */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { JsonObject } from '../../authoring/rules/ruleKit';
import { l10n } from '../../l10n/l10n';
import { configKindOf, type ConfigKind } from './folderForm';

export const MAX_FILES = 5000;
export const MAX_FILE_BYTES = 1024 * 1024;

export interface FolderFile {
  readonly file: string;
  readonly kind: ConfigKind;
  /** The parsed document; absent when `problem` says why it could not be read. */
  readonly doc?: JsonObject;
  readonly problem?: string;
}

export async function readFolderFiles(dir: string): Promise<FolderFile[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && configKindOf(entry.name)).map((entry) => entry.name);
  if (files.length > MAX_FILES)
    throw new Error(l10n.t('The folder holds {0} documents; at most {1} are read.', files.length, MAX_FILES));
  return Promise.all(files.sort().map((file) => readOne(dir, file, configKindOf(file)!)));
}

async function readOne(dir: string, file: string, kind: ConfigKind): Promise<FolderFile> {
  const path = join(dir, file);
  if ((await stat(path)).size > MAX_FILE_BYTES)
    return { file, kind, problem: l10n.t('The file is larger than {0} KB.', MAX_FILE_BYTES / 1024) };
  const text = await readFile(path, 'utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { file, kind, problem: l10n.t('The file is not valid JSON: {0}', (error as Error).message) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { file, kind, problem: l10n.t('The file should hold one JSON object {…}.') };
  const doc = value as JsonObject;
  delete doc.$schema;
  return { file, kind, doc };
}

/** The name a document gives its record (a live template's displayName). */
export function documentName(kind: ConfigKind, doc: JsonObject): string | undefined {
  const name = kind === 'livetemplate' ? doc.displayName : doc.name;
  return typeof name === 'string' && name.trim() !== '' ? name : undefined;
}
