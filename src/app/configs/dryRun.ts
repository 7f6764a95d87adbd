/**
 * `--dry-run`: the plan applied to a scratch copy of the account in a local platform started in-process (bound to
 * 127.0.0.1, its data in a temporary folder removed afterwards). The account's records are copied in the kinds'
 * order through the same sending as apply, the folder's files and state (ids mapped to the copies') go to a
 * temporary folder, and the plan runs there: what the platform would refuse shows before the real account is
 * touched. The real folder and account are only read.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '../../api/client';
import { startLocalPlatform } from '../../localPlatform/server';
import { applyPlan, readBack, sendDocument, type ApplyClient, type ApplyResult } from './apply';
import { readFolderFiles } from './folderFiles';
import {
  CONFIG_KINDS,
  NameBook,
  ownedRecords,
  recordName,
  toFolderRecord,
  type AnyRecord,
  type Snapshot,
} from './folderForm';
import { planFolder, type Plan } from './plan';
import { configKindLabel, toPlatformDocument } from './references';
import { describeFailure } from '../failures';
import { readSnapshot } from './snapshot';
import { readState, writeState, type FolderState } from './state';

export interface DryRunResult {
  readonly plan: Plan;
  readonly result: ApplyResult;
  /** Records the scratch platform would not take (a source only the real one serves): left out of the dry run. */
  readonly notCopied: string[];
}

export async function dryRun(
  client: ApplyClient & Parameters<typeof readSnapshot>[0],
  dir: string,
  options: { account: string; allowDelete?: boolean; signal?: AbortSignal },
): Promise<DryRunResult> {
  const scratchData = await mkdtemp(join(tmpdir(), 'vp-dry-run-data-'));
  const scratchDir = await mkdtemp(join(tmpdir(), 'vp-dry-run-folder-'));
  const keys = { accessKey: `dry-run-${randomBytes(6).toString('hex')}`, secretKey: randomBytes(24).toString('hex') };
  const scratch = await startLocalPlatform({ dataDir: scratchData, accounts: [keys], host: '127.0.0.1', port: 0 });
  const scratchClient = new PlatformClient({ baseUrl: scratch.baseUrl, ...keys });
  try {
    const snapshot = await readSnapshot(client, options.signal);
    const notCopied: string[] = [];
    const ids = await copyAccount(scratchClient, snapshot, notCopied, options.signal);
    await copyFolder(dir, scratchDir, scratch.baseUrl, ids, scratchClient, options.signal);
    const plan = await planFolder(scratchClient, scratchDir, {
      account: scratch.baseUrl,
      allowDelete: options.allowDelete,
      signal: options.signal,
    });
    return { plan, result: await applyPlan(scratchClient, plan, { signal: options.signal }), notCopied };
  } finally {
    await scratchClient.close();
    await scratch.close();
    await rm(scratchData, { recursive: true, force: true });
    await rm(scratchDir, { recursive: true, force: true });
  }
}

/** Each owned record created again in the scratch account; the map from the real ids to the copies'. */
async function copyAccount(
  scratch: ApplyClient,
  snapshot: Snapshot,
  notCopied: string[],
  signal?: AbortSignal,
): Promise<Map<string, string>> {
  const real = NameBook.of(snapshot);
  const copies = new NameBook();
  const ids = new Map<string, string>();
  for (const kind of CONFIG_KINDS) {
    for (const record of ownedRecords(kind, snapshot[kind]) as AnyRecord[]) {
      const folder = toFolderRecord(kind, record, real);
      const { doc, problems } = toPlatformDocument(kind, folder.doc, undefined, (k, ref) => copies.resolve(k, ref));
      const id =
        problems.length > 0
          ? undefined
          : await sendDocument(scratch, kind, doc, undefined, signal).catch((error: unknown) => {
              notCopied.push(`${configKindLabel(kind)} "${folder.name}": ${describeFailure(error)}`);
              return undefined;
            });
      if (id === undefined) continue;
      ids.set(`${kind}:${folder.id}`, id);
      if (kind !== 'templategroup' && kind !== 'channel') copies.add(kind, id, recordName(kind, record));
    }
  }
  return ids;
}

/** The folder's documents and its state with the copies' ids (hashes as they were: the copies read the same). */
async function copyFolder(
  dir: string,
  scratchDir: string,
  baseUrl: string,
  ids: Map<string, string>,
  scratch: PlatformClient,
  signal?: AbortSignal,
): Promise<void> {
  const state = await readState(dir);
  const copied = (file: string): boolean => {
    const entry = state?.files[file];
    return !entry || ids.has(`${entry.kind}:${entry.id}`);
  };
  for (const file of await readFolderFiles(dir))
    if (copied(file.file)) await copyFile(join(dir, file.file), join(scratchDir, file.file));
  if (!state) return;
  const mapped: FolderState = { ...state, baseUrl, files: {} };
  const book = NameBook.of(await readSnapshot(scratch, signal));
  for (const [file, entry] of Object.entries(state.files)) {
    const id = ids.get(`${entry.kind}:${entry.id}`);
    // Not copied (gone from the account, or refused by the scratch platform): left out of the dry run.
    if (id === undefined) continue;
    const copy =
      entry.kind === 'channel'
        ? toFolderRecord('channel', await readBack(scratch, 'channel', id, signal), book)
        : undefined;
    mapped.files[file] = { ...entry, id, ...(copy?.groups ? { groups: copy.groups } : {}) };
  }
  await writeState(scratchDir, mapped);
}
