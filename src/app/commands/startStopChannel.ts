import { Codes } from '../../api/errorCodes';
import { ApiError } from '../../api/errors';
import type { Channel } from '../../api/types';
import { ChannelStatuses } from '../../api/types';
import { l10n } from '../../l10n/l10n';
import { isRunning } from '../tree/channelPresentation';
import { reportBatch, runBatch, type BatchOutcome } from './batch';
import type { AppContext, CommandArgs } from '../context';
import { nameList, resolveChannels } from '../ask/targets';

interface Operation {
  /** For the log, in English. */
  readonly verb: 'Start' | 'Stop';
  /** The texts are functions: translated when shown (src/l10n/l10n.ts). */
  readonly title: () => string;
  readonly transient: () => string;
  readonly progress: (names: string) => string;
  readonly eligible: (channel: Channel) => boolean;
  /** Order of the palette's list: the channels the operation applies to first. */
  readonly sort: { readonly sort: 'name' | 'status'; readonly order: 'asc' | 'desc' };
  readonly why: () => string;
  readonly call: (ctx: AppContext, channel: Channel, signal: AbortSignal) => Promise<Channel>;
}

const START: Operation = {
  verb: 'Start',
  title: () => l10n.t('Start channel'),
  transient: () => l10n.t('Starting...'),
  progress: (names) => l10n.t('Starting {0}', names),
  eligible: (channel) => !isRunning(channel),
  sort: { sort: 'name', order: 'asc' },
  why: () => l10n.t('it is already running'),
  call: async (ctx, channel, signal) =>
    (await ctx.connection.activeClient()).liveStartChannel(channel.id, { signal }).catch((error: unknown) => {
      throw refusedStart(error);
    }),
};

const STOP: Operation = {
  verb: 'Stop',
  title: () => l10n.t('Stop channel'),
  transient: () => l10n.t('Stopping...'),
  progress: (names) => l10n.t('Stopping {0}', names),
  eligible: isRunning,
  // Status 5, 3, 2 first: among thousands of channels the few running ones head the list.
  sort: { sort: 'status', order: 'desc' },
  why: () => l10n.t('only a running channel can be stopped'),
  call: async (ctx, channel, signal) => (await ctx.connection.activeClient()).liveStopChannel(channel.id, { signal }),
};

/**
 * The table's "already live, or already stopped" misleads for a start the platform refuses for another
 * reason (its limit of live channels, the same stream live elsewhere): say it would not start, and let
 * its own message (shown after the code) give the reason.
 */
function refusedStart(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.code !== Codes.channelStateConflict) return error;
  return new ApiError(
    error.action,
    error.url,
    error.code,
    error.platformMessage,
    l10n.t('The platform would not start the channel; its reason follows.'),
  );
}

/** videoPlatform.startChannel: the selected (or picked) channels that are not running. */
export function startChannels(
  ctx: AppContext,
  args: CommandArgs = {},
): Promise<BatchOutcome<Channel, Channel> | undefined> {
  return run(ctx, START, args);
}

/** videoPlatform.stopChannel: asks first, since viewers of a live channel lose the stream. */
export function stopChannels(
  ctx: AppContext,
  args: CommandArgs = {},
): Promise<BatchOutcome<Channel, Channel> | undefined> {
  return run(ctx, STOP, args);
}

async function run(
  ctx: AppContext,
  operation: Operation,
  args: CommandArgs,
): Promise<BatchOutcome<Channel, Channel> | undefined> {
  const title = operation.title();
  const channels = await resolveChannels(ctx, args, {
    title,
    eligible: operation.eligible,
    why: operation.why(),
    sort: operation.sort,
    many: true,
  });
  if (!channels) return undefined;
  const names = channels.map((channel) => channel.name);
  if (operation === STOP) {
    const live = channels.filter(
      (channel) => channel.status === ChannelStatuses.live || channel.status === ChannelStatuses.pulling,
    );
    const subject = live.length ? live : channels;
    const account = ctx.connection.activeAccount?.name ?? '';
    const confirmed = await ctx.ui.confirm(
      live.length === 1
        ? l10n.t('Stop live channel "{0}" on account "{1}"?', live[0]!.name, account)
        : l10n.t(
            'Stop {0} on account "{1}"?',
            nameList(
              subject.map((channel) => channel.name),
              'channels',
            ),
            account,
          ),
      l10n.t(
        'Viewers of {0} lose the stream until it is started again.',
        subject.map((channel) => `"${channel.name}"`).join(', '),
      ),
      l10n.t('Stop'),
      { destructive: true },
    );
    if (!confirmed) return undefined;
  }
  await ctx.connection.activeClient();
  const epoch = ctx.connection.epoch;
  const outcome = await runBatch(ctx, {
    title: operation.progress(nameList(names, 'channels')),
    items: channels,
    name: (channel) => channel.name,
    run: (channel, signal) => operation.call(ctx, channel, signal),
    begin: (channel) => ctx.models.channels.setTransient(channel.id, operation.transient()),
    end: (channel) => ctx.models.channels.setTransient(channel.id, undefined),
  });
  for (const { result } of outcome.done) ctx.models.channels.applyChannel(result, epoch);
  if (outcome.cancelled) {
    // The platform may have acted before the cancel reached it: show what it says now.
    const untouched = channels.filter((channel) => !outcome.done.some((entry) => entry.item === channel));
    for (const channel of untouched) void ctx.models.channels.refreshChannel(channel.id).catch(() => undefined);
  }
  await reportBatch(ctx, title, outcome, (channel) => channel.name);
  if (outcome.done.length > 0)
    ctx.log.info(
      `${operation.verb}: ${outcome.done.map(({ result }) => `"${result.name}" (status ${result.status})`).join(', ')}`,
    );
  ctx.poller.channels.kick();
  return outcome;
}
