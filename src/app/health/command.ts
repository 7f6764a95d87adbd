/**
 * Channel Health (videoPlatform.channelHealth): what a local platform receives from the channel's source and how
 * fresh each HLS rendition is, read from its `/_local/health` route (client.ts). The panel reads every few seconds
 * while it is open and stops when it is closed. A command handler (loaded on first use); the tooltip's health lines
 * are ./tooltips.ts, in the activation bundle.
 */
import { randomBytes } from 'node:crypto';
import { l10n } from '../../l10n/l10n';
import { resolveChannels } from '../ask/targets';
import type { AppContext, CommandArgs } from '../context';
import { describeFailure } from '../failures';
import { readChannelHealth, type ChannelHealth, type HealthTarget } from './client';
import { HealthHistory, SAMPLE_MS } from './history';
import { healthPageHtml } from './page';
import { activeHealthTarget } from './tooltips';

export async function channelHealthCommand(ctx: AppContext, args: CommandArgs = {}): Promise<void> {
  const channels = await resolveChannels(ctx, args, { title: l10n.t('Channel health'), many: false });
  const channel = channels?.[0];
  if (!channel) return;
  // Started on demand (the bundled platform): its address is known once the client is.
  await ctx.connection.activeClient();
  const target = await activeHealthTarget(ctx);
  if (!target) {
    throw new Error(l10n.t('Channel health is measured by the local platform only; this account is not one.'));
  }
  const first = await readChannelHealth(target, channel.id);
  openHealthPanel(ctx, target, channel.name, channel.id, first);
}

function openHealthPanel(
  ctx: AppContext,
  target: HealthTarget,
  name: string,
  channelId: string,
  first: ChannelHealth,
): void {
  const panel = ctx.inspection.panels.open({ kind: 'health', title: l10n.t('Health: {0}', name) });
  const history = new HealthHistory();
  let latest = first;
  const show = (problem?: string): void =>
    panel.setHtml(
      healthPageHtml({
        nonce: randomBytes(16).toString('base64'),
        channelName: name,
        samples: history.all,
        latest,
        ...(problem ? { problem } : {}),
      }),
    );
  history.add(first);
  show();
  const stop = new AbortController();
  let reading = false;
  const timer = setInterval(() => {
    if (reading) return;
    reading = true;
    readChannelHealth(target, channelId, stop.signal)
      .then(
        (health) => {
          latest = health;
          history.add(health);
          show();
        },
        (error: unknown) => {
          if (!stop.signal.aborted) show(describeFailure(error));
        },
      )
      .finally(() => (reading = false));
  }, SAMPLE_MS);
  panel.onDidDispose(() => {
    clearInterval(timer);
    stop.abort();
  });
}
