import type { AppContext, CommandArgs } from '../context';
import { ResourceNode, ResourceSectionNode } from '../tree/resourceNodes';

/** videoPlatform.refreshResources: the clicked section (or a record's section) read again; from the title, all. */
export function refreshResources(ctx: AppContext, { node }: CommandArgs = {}): void {
  if (node instanceof ResourceSectionNode) ctx.models.resources.refresh(node.resourceKind);
  else if (node instanceof ResourceNode) ctx.models.resources.refresh(node.resource.kind);
  else ctx.models.resources.refresh();
}
