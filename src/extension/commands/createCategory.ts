import type { ChannelCategory } from '../../api/types';
import { reportFailure } from '../failures';
import type { CommandDeps } from './deps';
import { askText } from './inputs';

/** videoPlatform.createCategory: a channel category (liveChannelTypeCreate). */
export async function createCategory(deps: CommandDeps): Promise<ChannelCategory | undefined> {
  const title = 'Create channel category';
  try {
    const name = await askText(deps.ui, {
      title,
      field: 'Category name',
      prompt: 'Name of the new channel category',
      maxLength: 50,
    });
    if (name === undefined) return undefined;
    const client = await deps.connection.activeClient();
    const category = await deps.ui.withProgress(
      { title: `Creating category "${name}"`, cancellable: true },
      ({ signal }) => client.liveChannelTypeCreate(name, { signal }),
    );
    deps.channels.refresh();
    void deps.ui.info(`Created channel category "${category.name}".`);
    return category;
  } catch (error) {
    await reportFailure(deps.ui, deps.log, title, error);
    return undefined;
  }
}
