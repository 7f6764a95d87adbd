import type { Channel } from '../../api/types';
import { isRunning } from '../tree/channelPresentation';
import { reportFailure } from '../failures';
import { reportBatch, runBatch, type BatchOutcome } from './batch';
import type { CommandDeps } from './deps';
import { nameList, resolveChannels } from './targets';

interface Operation {
  readonly verb: 'Start' | 'Stop';
  readonly transient: string;
  readonly eligible: (channel: Channel) => boolean;
  /** Order of the palette's list: the channels the operation applies to first. */
  readonly sort: { readonly sort: 'name' | 'status'; readonly order: 'asc' | 'desc' };
  readonly why: string;
  readonly call: (deps: CommandDeps, channel: Channel, signal: AbortSignal) => Promise<Channel>;
}

const START: Operation = {
  verb: 'Start',
  transient: 'Starting...',
  eligible: (channel) => !isRunning(channel),
  sort: { sort: 'name', order: 'asc' },
  why: 'it is already running',
  call: async (deps, channel, signal) =>
    (await deps.connection.activeClient()).liveStartChannel(channel.id, { signal }),
};

const STOP: Operation = {
  verb: 'Stop',
  transient: 'Stopping...',
  eligible: isRunning,
  // Status 5, 3, 2 first: among thousands of channels the few running ones head the list.
  sort: { sort: 'status', order: 'desc' },
  why: 'only a running channel can be stopped',
  call: async (deps, channel, signal) => (await deps.connection.activeClient()).liveStopChannel(channel.id, { signal }),
};

/** videoPlatform.startChannel: the selected (or picked) channels that are not running. */
export function startChannels(
  deps: CommandDeps,
  ...args: unknown[]
): Promise<BatchOutcome<Channel, Channel> | undefined> {
  return run(deps, START, args);
}

/** videoPlatform.stopChannel: asks first, since viewers of a live channel lose the stream. */
export function stopChannels(
  deps: CommandDeps,
  ...args: unknown[]
): Promise<BatchOutcome<Channel, Channel> | undefined> {
  return run(deps, STOP, args);
}

async function run(
  deps: CommandDeps,
  operation: Operation,
  args: unknown[],
): Promise<BatchOutcome<Channel, Channel> | undefined> {
  const title = `${operation.verb} channel`;
  const channels = await resolveChannels(deps, args, {
    title,
    eligible: operation.eligible,
    why: operation.why,
    sort: operation.sort,
    many: true,
  });
  if (!channels) return undefined;
  const names = channels.map((channel) => channel.name);
  if (operation === STOP) {
    const live = channels.filter((channel) => channel.status === 2 || channel.status === 3);
    const subject = live.length ? live : channels;
    const confirmed = await deps.ui.confirm(
      live.length === 1
        ? `Stop live channel "${live[0]!.name}"?`
        : `Stop ${nameList(
            subject.map((channel) => channel.name),
            'channels',
          )}?`,
      `Viewers of ${subject.map((channel) => `"${channel.name}"`).join(', ')} lose the stream until it is started again.`,
      'Stop',
    );
    if (!confirmed) return undefined;
  }
  let epoch: number;
  try {
    await deps.connection.activeClient();
    epoch = deps.connection.epoch;
  } catch (error) {
    await reportFailure(deps.ui, deps.log, title, error);
    return undefined;
  }
  const outcome = await runBatch(deps, {
    title: `${operation.transient.replace('...', '')} ${nameList(names, 'channels')}`,
    items: channels,
    name: (channel) => channel.name,
    run: (channel, signal) => operation.call(deps, channel, signal),
    begin: (channel) => deps.channels.setTransient(channel.id, operation.transient),
    end: (channel) => deps.channels.setTransient(channel.id, undefined),
  });
  for (const { result } of outcome.done) deps.channels.applyChannel(result, epoch);
  if (outcome.cancelled) {
    // The platform may have acted before the cancel reached it: show what it says now.
    const untouched = channels.filter((channel) => !outcome.done.some((entry) => entry.item === channel));
    for (const channel of untouched) void deps.channels.refreshChannel(channel.id).catch(() => undefined);
  }
  await reportBatch(deps, `${operation.verb} channel`, outcome, (channel) => channel.name);
  if (outcome.done.length > 0)
    deps.log.info(
      `${operation.verb}: ${outcome.done.map(({ result }) => `"${result.name}" (status ${result.status})`).join(', ')}`,
    );
  deps.poll.channels();
  return outcome;
}
