import type { Channel } from '../../api/types';
import { reportFailure } from '../failures';
import { isRunning } from '../tree/channelPresentation';
import type { CommandDeps } from './deps';
import { nameList, resolveChannels } from './targets';

/** videoPlatform.deleteChannel: after a modal confirmation naming the channels. Returns the deleted ids. */
export async function deleteChannels(deps: CommandDeps, ...args: unknown[]): Promise<string[] | undefined> {
  const title = 'Delete channel';
  const channels = await resolveChannels(deps, args, { title, many: true });
  if (!channels) return undefined;
  const names = channels.map((channel: Channel) => channel.name);
  const running = channels.filter(isRunning);
  const confirmed = await deps.ui.confirm(
    `Delete ${nameList(names, 'channels')}?`,
    [
      `${names.map((name) => `"${name}"`).join(', ')} and ${channels.length === 1 ? 'its' : 'their'} play addresses will be gone. This cannot be undone.`,
      running.length ? `${running.map((channel) => `"${channel.name}"`).join(', ')} ${running.length === 1 ? 'is' : 'are'} running.` : '',
    ]
      .filter(Boolean)
      .join(' '),
    'Delete',
  );
  if (!confirmed) return undefined;
  const ids = channels.map((channel) => channel.id);
  try {
    const client = await deps.connection.activeClient();
    const epoch = deps.connection.epoch;
    await deps.ui.withProgress({ title: `Deleting ${nameList(names, 'channels')}`, cancellable: true }, ({ signal }) => client.liveDelete(ids, { signal }));
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
