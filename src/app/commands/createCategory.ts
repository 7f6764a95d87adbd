import type { ChannelCategory } from '../../api/types';
import type { AppContext } from '../context';
import { l10n } from '../../l10n/l10n';
import { askText } from '../ask/inputs';

/** videoPlatform.createCategory: a channel category (liveChannelTypeCreate). */
export async function createCategory(ctx: AppContext): Promise<ChannelCategory | undefined> {
  const title = l10n.t('Create channel category');
  const name = await askText(ctx.ui, {
    title,
    field: l10n.t('Category name'),
    prompt: l10n.t('Name of the new channel category'),
    maxLength: 50,
  });
  if (name === undefined) return undefined;
  const client = await ctx.connection.activeClient();
  const category = await ctx.ui.withProgress(
    { title: l10n.t('Creating category "{0}"', name), cancellable: true },
    ({ signal }) => client.liveChannelTypeCreate(name, { signal }),
  );
  ctx.models.channels.refresh();
  ctx.models.resources.refresh('channelCategory');
  void ctx.ui.info(l10n.t('Created channel category "{0}".', category.name));
  return category;
}
