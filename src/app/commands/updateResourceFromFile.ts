import { parse } from 'jsonc-parser';
import { documentKind } from '../../authoring/documentKind';
import { createOrUpdateCommand } from '../authoring/commands';
import type { AppContext, CommandArgs, EditorDocument } from '../context';
import { l10n } from '../../l10n/l10n';
import { isBuiltinGroup, resourceId, resourceName, resourceWords, type Resource } from '../tree/resourceNodes';
import { openResourceAsFile } from './openResourceAsFile';
import { DOCUMENT_KIND_OF, resolveResource } from './resourceTargets';

/** The id a document names (`"id": 1001` or `"id": "1001"` alike), or undefined. */
export function documentId(text: string): string | undefined {
  const value: unknown = parse(text);
  const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/** The open documents of the resource's kind that name its id, the active editor's first. */
export function documentsOf(ctx: AppContext, resource: Resource): EditorDocument[] {
  const kind = DOCUMENT_KIND_OF[resource.kind];
  return ctx.editor
    .openDocuments()
    .filter(
      (document) => documentKind(document.fileName) === kind && documentId(document.text()) === resourceId(resource),
    );
}

/**
 * videoPlatform.updateResourceFromFile: sends the open file of the clicked template group, logo group or live
 * template (the file that names its id) with the kind's update operation, after the same checks as "Create or
 * Update on the Platform". Without such a file it offers Open as File.
 */
/** True when the file was sent; false when there was none to send; undefined when a pick was dismissed. */
export async function updateResourceFromFile(ctx: AppContext, args: CommandArgs = {}): Promise<boolean | undefined> {
  const title = l10n.t('Update from File');
  const resource = await resolveResource(ctx, args, {
    title,
    kinds: ['templateGroup', 'logoGroup', 'liveTemplate'],
    eligible: (candidate) => !isBuiltinGroup(candidate),
  });
  if (!resource) return undefined;
  const words = resourceWords(resource.kind);
  const name = resourceName(resource);
  if (isBuiltinGroup(resource)) {
    void ctx.ui.error(
      l10n.t('"{0}" is one of the platform\'s built-in template groups, which cannot be modified.', name),
    );
    return false;
  }
  const [document] = documentsOf(ctx, resource);
  if (!document) {
    const open = l10n.t('Open as File');
    const choice = await ctx.ui.warn(
      l10n.t(
        'No open file holds {0} "{1}" (id {2}): open it as a file, change it, then update from it.',
        words.one,
        name,
        resourceId(resource),
      ),
      open,
    );
    if (choice === open) await openResourceAsFile(ctx, { node: args.node ?? resource });
    return false;
  }
  await createOrUpdateCommand(ctx, { uri: document.uri });
  return true;
}
