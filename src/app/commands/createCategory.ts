import type { ChannelCategory } from '../../api/types';
import type { AppContext } from '../context';
import { askText } from './inputs';

/** videoPlatform.createCategory: a channel category (liveChannelTypeCreate). */
export async function createCategory(ctx: AppContext): Promise<ChannelCategory | undefined> {
  const title = 'Create channel category';
  const name = await askText(ctx.ui, {
    title,
    field: 'Category name',
    prompt: 'Name of the new channel category',
    maxLength: 50,
  });
  if (name === undefined) return undefined;
  const client = await ctx.connection.activeClient();
  const category = await ctx.ui.withProgress(
    { title: `Creating category "${name}"`, cancellable: true },
    ({ signal }) => client.liveChannelTypeCreate(name, { signal }),
  );
  ctx.models.channels.refresh();
  ctx.models.resources.refresh('channelCategory');
  void ctx.ui.info(`Created channel category "${category.name}".`);
  return category;
}
