import type { AppContext, CommandArgs } from '../context';
import { l10n } from '../../l10n/l10n';
import { isBuiltinGroup, resourceId, resourceName, resourceWords, type Resource } from '../tree/resourceNodes';
import { resolveResource } from './resourceTargets';

/**
 * videoPlatform.deleteResource: a template group (deleteTemplateGroup) or logo group (deleteLogoGroup), after a
 * modal confirmation. The platform's built-in template groups cannot be deleted (it refuses): they are not offered,
 * and one handed over is refused here with nothing sent. Live templates, live logos and categories have no delete
 * operation in the interface.
 */
export async function deleteResource(ctx: AppContext, args: CommandArgs = {}): Promise<Resource | undefined> {
  const title = l10n.t('Delete');
  const resource = await resolveResource(ctx, args, {
    title,
    kinds: ['templateGroup', 'logoGroup'],
    eligible: (candidate) => !isBuiltinGroup(candidate),
  });
  if (!resource) return undefined;
  const words = resourceWords(resource.kind);
  const name = resourceName(resource);
  if (isBuiltinGroup(resource)) {
    void ctx.ui.error(
      l10n.t('"{0}" is one of the platform\'s built-in template groups, which cannot be deleted.', name),
    );
    return undefined;
  }
  const detail =
    resource.kind === 'templateGroup' && resource.record.defaultGroup
      ? l10n.t(
          "It is the account's default group: uploads without a group and transcodings without templates then use another regular group. This cannot be undone.",
        )
      : l10n.t('This cannot be undone.');
  // The account too: a name alone does not say which platform loses the group.
  const account = ctx.connection.activeAccount?.name;
  const where = account ? `${l10n.t('Account "{0}".', account)} ` : '';
  if (
    !(await ctx.ui.confirm(
      l10n.t('Delete {0} "{1}" ({2})?', words.one, name, resourceId(resource)),
      where + detail,
      title,
      { destructive: true },
    ))
  )
    return undefined;
  const client = await ctx.connection.activeClient();
  const ids = [resourceId(resource)];
  await ctx.ui.withProgress(
    { title: l10n.t('Deleting {0} "{1}"', words.one, name), cancellable: true },
    ({ signal }) =>
      resource.kind === 'templateGroup'
        ? client.deleteTemplateGroup({ ids }, { signal })
        : client.deleteLogoGroup({ ids }, { signal }),
  );
  ctx.models.resources.refresh(resource.kind);
  // Documents may name the id: the reference lists are read again.
  ctx.authoring.references.clear();
  ctx.authoring.diagnostics.revalidateAll();
  void ctx.ui.info(l10n.t('Deleted {0} "{1}".', words.one, name));
  return resource;
}
