import { parse } from 'jsonc-parser';
import type { PlatformClient } from '../../api/client';
import { accountOfDocument } from '../accounts/documentAccountCommands';
import { documentKind, kindLabel, type DocumentKind } from '../../authoring/documentKind';
import { normalForm, recordToDocument, type PlatformRecord } from '../../authoring/resourceDocuments';
import type { AppContext, CommandArgs } from '../context';
import { step } from '../failures';
import { l10n } from '../../l10n/l10n';

/** The two sides of a comparison, in the same normal form; `note` says what was left out of both. */
export interface Comparison {
  readonly file: string;
  readonly platform: string;
  readonly same: boolean;
  readonly note?: string;
}

/**
 * Both texts of Compare with Platform: the file's value and the platform's record as a document of the same kind
 * (read-only fields left out), each in normalForm (the kind's key order, two-space JSON). A template group listed
 * without its templates is compared without `transcodeTemplates` on either side.
 */
export function buildComparison(kind: DocumentKind, fileValue: unknown, found: PlatformRecord): Comparison {
  const platformDoc = recordToDocument(found);
  let fileDoc = fileValue;
  let note: string | undefined;
  if (found.kind === 'templategroup' && !Array.isArray(found.record.transcodeTemplates)) {
    delete platformDoc.transcodeTemplates;
    if (typeof fileDoc === 'object' && fileDoc !== null && !Array.isArray(fileDoc)) {
      const { transcodeTemplates: _left, ...rest } = fileDoc as Record<string, unknown>;
      fileDoc = rest;
    }
    note = l10n.t(
      'The platform lists this template group without its templates: "transcodeTemplates" is not compared.',
    );
  }
  const file = normalForm(kind, fileDoc);
  const platform = normalForm(kind, platformDoc);
  return { file, platform, same: file === platform, ...(note ? { note } : {}) };
}

/** The platform's record a document's id names, read now; an Error naming the id when there is none. */
export async function platformRecordOf(
  client: PlatformClient,
  kind: DocumentKind,
  id: string,
  signal?: AbortSignal,
): Promise<PlatformRecord> {
  const o = { signal };
  const missing = (): Error =>
    new Error(l10n.t('the platform has no {0} with id {1} in this account', kindLabel(kind), id));
  switch (kind) {
    case 'channel':
      return { kind, record: await client.liveGetChannelById(id, o) };
    case 'templategroup': {
      const record = (await client.templateGroupList({}, o)).find((group) => String(group.id) === id);
      if (!record) throw missing();
      return { kind, record };
    }
    case 'logogroup': {
      const record = (await client.getLogoGroupList(o)).find((group) => String(group.id) === id);
      if (!record) throw missing();
      return { kind, record };
    }
    case 'livetemplate': {
      const record = (await client.liveGetTemplates({}, o)).find((template) => template.id === id);
      if (!record) throw missing();
      return { kind, record };
    }
    case 'livelogo': {
      const record = (await client.liveLogoList({ id }, o)).find((logo) => logo.id === id);
      if (!record) throw missing();
      return { kind, record };
    }
    case 'transcode':
      throw new Error(l10n.t('a transcode job is not a record the platform keeps, so there is nothing to compare'));
  }
}

/**
 * videoPlatform.compareWithPlatform: the open document (editor title, or the active editor from the palette)
 * beside the record its id names as the platform has it now, in VS Code's diff editor (both sides read-only).
 */
export async function compareWithPlatform(ctx: AppContext, args: CommandArgs = {}): Promise<Comparison | undefined> {
  const document = await ctx.editor.document(args.uri);
  const kind = document ? documentKind(document.fileName) : undefined;
  if (!document || !kind || kind === 'transcode') {
    void ctx.ui.error(
      l10n.t(
        'Open a document with an id first: a *.channel.json, *.templategroup.json, *.logogroup.json, *.livetemplate.json or *.livelogo.json file.',
      ),
    );
    return undefined;
  }
  const label = kindLabel(kind);
  const value: unknown = parse(document.text());
  const rawId = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
  if (typeof rawId !== 'string' && typeof rawId !== 'number') {
    void ctx.ui.error(
      l10n.t(
        'This {0} document has no "id", so it is not on the platform yet: "Create or Update on the Platform" creates it.',
        label,
      ),
    );
    return undefined;
  }
  const id = String(rawId);
  // The document's own account (asked once when it has none), whichever account is active.
  const owner = await accountOfDocument(ctx, document);
  if (!owner) return undefined;
  const found = await step(l10n.t('Read {0} {1} from the platform', label, id), async () => {
    const client = await ctx.connection.clientFor(owner.id);
    return ctx.ui.withProgress(
      { title: l10n.t('Reading {0} {1} from the platform', label, id), cancellable: true },
      ({ signal }) => platformRecordOf(client, kind, id, signal),
    );
  });
  const comparison = buildComparison(kind, value, found);
  const fileName = document.fileName.split(/[\\/]/).pop() ?? document.fileName;
  const account = owner.name;
  await ctx.editor.showDiff(
    { name: fileName, text: comparison.file },
    { name: fileName.replace(/(\.[a-z]+\.json)$/i, '.platform$1'), text: comparison.platform },
    account ? l10n.t('{0} ↔ platform ({1})', fileName, account) : l10n.t('{0} ↔ platform', fileName),
  );
  if (comparison.note) void ctx.ui.warn(comparison.note);
  else if (comparison.same) void ctx.ui.info(l10n.t('The file matches {0} {1} on the platform.', label, id));
  return comparison;
}
