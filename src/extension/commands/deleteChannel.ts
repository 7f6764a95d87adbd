import type { Channel } from '../../api/types';
import { reportFailure } from '../failures';
import { isRunning } from '../tree/channelPresentation';
import type { CommandDeps } from './deps';
import { nameList, resolveChannels } from './targets';

/**
 * videoPlatform.deleteChannel: stopped or new channels, after a modal confirmation naming them.
 * Returns the deleted ids.
 */
export async function deleteChannels(deps: CommandDeps, ...args: unknown[]): Promise<string[] | undefined> {
  const title = 'Delete channel';
  // The platform refuses to delete a live channel (stop it first): only stopped or new ones are offered.
  const channels = await resolveChannels(deps, args, {
    title,
    many: true,
    eligible: (channel) => !isRunning(channel),
    why: 'stop a running channel before deleting it',
  });
  if (!channels) return undefined;
  const names = channels.map((channel: Channel) => channel.name);
  const confirmed = await deps.ui.confirm(
    `Delete ${nameList(names, 'channels')}?`,
    `${names.map((name) => `"${name}"`).join(', ')} and ${channels.length === 1 ? 'its' : 'their'} play addresses will be gone. This cannot be undone.`,
    'Delete',
  );
  if (!confirmed) return undefined;
  const ids = channels.map((channel) => channel.id);
  try {
    const client = await deps.connection.activeClient();
    const epoch = deps.connection.epoch;
    await deps.ui.withProgress({ title: `Deleting ${nameList(names, 'channels')}`, cancellable: true }, ({ signal }) =>
      client.liveDelete(ids, { signal }),
    );
    deps.channels.removeChannels(ids, epoch);
    // Pages after the deleted ones moved up: read them again rather than skip channels.
    deps.channels.refresh();
    deps.log.info(`Deleted channels ${ids.join(', ')}`);
    return ids;
  } catch (error) {
    await reportFailure(deps.ui, deps.log, `Delete ${nameList(names, 'channels')}`, error);
    deps.channels.refresh();
    return undefined;
  }
}
