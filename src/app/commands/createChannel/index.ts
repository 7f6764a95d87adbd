import type { Channel } from '../../../api/types';
import { l10n } from '../../../l10n/l10n';
import { runWizard } from '../../ask/wizard';
import type { AppContext } from '../../context';
import { categoryStep } from './categoryStep';
import { createStep } from './createStep';
import { nameStep } from './nameStep';
import { outputGroupSteps } from './outputGroupSteps';
import { sourceSteps } from './sourceSteps';
import { TOTAL_STEPS, type CreateChannelState } from './state';
import { summaryStep } from './summaryStep';
import { templateSteps } from './templateSteps';

/**
 * videoPlatform.createChannel: a wizard of six steps with Back (name; push or pull and the pull address;
 * category; output groups with their options; live templates; a summary whose rows change their step and
 * come back to the summary), each step a module over one `CreateChannelState`; then liveCreateChannel and
 * the new channel shown in the view whatever its filter (or why not).
 */
export async function createChannel(ctx: AppContext): Promise<Channel | undefined> {
  const state: CreateChannelState = {
    ui: ctx.ui,
    title: l10n.t('Create channel'),
    client: await ctx.connection.activeClient(),
  };
  await runWizard(ctx.ui, {
    state,
    totalSteps: TOTAL_STEPS,
    promptSteps: [nameStep, ...sourceSteps, categoryStep, ...outputGroupSteps, ...templateSteps, summaryStep],
    executeSteps: [createStep],
    progressTitle: (answers) => l10n.t('Creating channel "{0}"', answers.name ?? ''),
  });
  const channel = state.channel!;
  ctx.log.info(`Created channel ${channel.id} "${channel.name}"`);
  await showCreatedChannel(ctx, channel);
  return channel;
}

/**
 * The new channel in the view, whatever its filter: placed at the top of its list (no pages read to find
 * it) and revealed; when the filter hides it, the message says which part and offers to clear the filter.
 */
export async function showCreatedChannel(ctx: AppContext, channel: Channel): Promise<void> {
  const hiddenBy = ctx.models.channels.showCreated(channel);
  if (hiddenBy === undefined) {
    await ctx.reveal.channel(channel.id);
    void ctx.ui.info(l10n.t('Created channel "{0}".', channel.name));
    return;
  }
  const clear = l10n.t('Clear Filter');
  const choice = await ctx.ui.info(
    l10n.t('Created channel "{0}". The Live channels filter hides it ({1}).', channel.name, hiddenBy),
    clear,
  );
  if (choice === clear) {
    ctx.models.channels.clearFilter();
    ctx.models.channels.showCreated(channel);
    await ctx.reveal.channel(channel.id);
  }
}
