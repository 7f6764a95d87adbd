import type { Channel } from '../../api/types';
import { step } from '../failures';
import { l10n } from '../../l10n/l10n';
import { isRunning } from '../tree/channelPresentation';
import type { AppContext, CommandArgs } from '../context';
import { nameList, resolveChannels } from '../ask/targets';

/**
 * videoPlatform.deleteChannel: stopped or new channels, after a modal confirmation naming them.
 * Returns the deleted ids.
 */
export async function deleteChannels(ctx: AppContext, args: CommandArgs = {}): Promise<string[] | undefined> {
  const title = l10n.t('Delete channel');
  // The platform refuses to delete a live channel (stop it first): only stopped or new ones are offered.
  const channels = await resolveChannels(ctx, args, {
    title,
    many: true,
    eligible: (channel) => !isRunning(channel),
    why: l10n.t('stop a running channel before deleting it'),
  });
  if (!channels) return undefined;
  const names = channels.map((channel: Channel) => channel.name);
  const account = ctx.connection.activeAccount?.name ?? '';
  const confirmed = await ctx.ui.confirm(
    l10n.t('Delete {0} on account "{1}"?', nameList(names, 'channels'), account),
    channels.length === 1
      ? l10n.t('"{0}" and its play addresses will be gone. This cannot be undone.', names[0]!)
      : l10n.t(
          '{0} and their play addresses will be gone. This cannot be undone.',
          names.map((name) => `"${name}"`).join(', '),
        ),
    l10n.t('Delete'),
    { destructive: true },
  );
  if (!confirmed) return undefined;
  const ids = channels.map((channel) => channel.id);
  const what = l10n.t('Delete {0}', nameList(names, 'channels'));
  return step(what, async () => {
    try {
      const client = await ctx.connection.activeClient();
      const epoch = ctx.connection.epoch;
      await ctx.ui.withProgress(
        { title: l10n.t('Deleting {0}', nameList(names, 'channels')), cancellable: true },
        ({ signal }) => client.liveDelete(ids, { signal }),
      );
      ctx.models.channels.removeChannels(ids, epoch);
      ctx.log.info(`Deleted channels ${ids.join(', ')}`);
      return ids;
    } finally {
      // Pages after the deleted ones moved up, or the platform deleted some before failing: read them again.
      ctx.models.channels.refresh();
    }
  });
}
