import type { AppContext, CommandArgs } from '../context';
import { l10n } from '../../l10n/l10n';
import { ResourceNode, resourceId, resourceName, resourceWords } from '../tree/resourceNodes';

/** videoPlatform.copyResourceId: the clicked record's id (documents and channel definitions name them). */
export async function copyResourceId(ctx: AppContext, { node }: CommandArgs = {}): Promise<string | undefined> {
  if (!(node instanceof ResourceNode)) return undefined;
  const id = resourceId(node.resource);
  await ctx.ui.copy(id);
  void ctx.ui.info(
    l10n.t('Copied the id of {0} "{1}": {2}', resourceWords(node.resource.kind).one, resourceName(node.resource), id),
  );
  return id;
}
