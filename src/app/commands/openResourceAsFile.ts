import {
  documentText,
  liveLogoToDocument,
  liveTemplateToDocument,
  logoGroupToDocument,
  resourceFileName,
  templateGroupToDocument,
} from '../../authoring/resourceDocuments';
import type { AppContext, CommandArgs } from '../context';
import { l10n } from '../../l10n/l10n';
import { resourceId, resourceName, type Resource } from '../tree/resourceNodes';
import { DOCUMENT_KIND_OF, freshResource, resolveResource } from './resourceTargets';

/** The document of a resource and whether it is complete (a template group listed without its templates is not). */
export function resourceDocument(resource: Resource): { text: string; complete: boolean } | undefined {
  switch (resource.kind) {
    case 'templateGroup': {
      const { doc, templatesListed } = templateGroupToDocument(resource.record);
      return { text: documentText(doc), complete: templatesListed };
    }
    case 'logoGroup':
      return { text: documentText(logoGroupToDocument(resource.record)), complete: true };
    case 'liveTemplate':
      return { text: documentText(liveTemplateToDocument(resource.record)), complete: true };
    case 'liveLogo':
      return { text: documentText(liveLogoToDocument(resource.record)), complete: true };
    case 'channelCategory':
      return undefined;
  }
}

/**
 * videoPlatform.openResourceAsFile: a template group, logo group, live template or live logo as an editable
 * document of its kind (checked by its schema while it is edited); from the palette, one picked.
 */
export async function openResourceAsFile(ctx: AppContext, args: CommandArgs = {}): Promise<string | undefined> {
  const chosen = await resolveResource(ctx, args, {
    title: l10n.t('Open as File'),
    kinds: ['templateGroup', 'logoGroup', 'liveTemplate', 'liveLogo'],
  });
  if (!chosen) return undefined;
  // The file starts from the record as it is now.
  const resource = await freshResource(ctx, chosen);
  const kind = DOCUMENT_KIND_OF[resource.kind];
  const made = resourceDocument(resource);
  if (!kind || !made) return undefined;
  const fileName = resourceFileName(kind, resourceName(resource), resourceId(resource));
  await ctx.editor.openUntitled(fileName, made.text);
  if (!made.complete)
    void ctx.ui.warn(
      l10n.t(
        'The platform lists template group "{0}" without its templates: fill in "transcodeTemplates" before sending the file, as they replace the group\'s.',
        resourceName(resource),
      ),
    );
  if (resource.kind === 'liveLogo')
    void ctx.ui.info(
      l10n.t('Live logos cannot be modified: remove "id" from the file to create another logo from it.'),
    );
  return made.text;
}
