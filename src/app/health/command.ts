/**
 * Channel Health (videoPlatform.channelHealth) and the health lines of a channel's tooltip: what a local platform
 * receives from the channel's source and how fresh each HLS rendition is, read from its `/_local/health` route
 * (client.ts). The panel reads every few seconds while it is open and stops when it is closed.
 */
import { randomBytes } from 'node:crypto';
import { ChannelStatuses } from '../../api/types';
import { l10n } from '../../l10n/l10n';
import { resolveChannels } from '../ask/targets';
import type { AppContext, CommandArgs } from '../context';
import { describeFailure } from '../failures';
import { ChannelNode, type TreeNode } from '../tree/nodes';
import { isLocalAddress, readChannelHealth, type ChannelHealth, type HealthTarget } from './client';
import { HealthHistory, SAMPLE_MS } from './history';
import { healthPageHtml } from './page';
import { healthTooltip } from './text';

/** The active account as a health target, or undefined when it is not a local platform (nothing is asked). */
export async function activeHealthTarget(ctx: AppContext): Promise<HealthTarget | undefined> {
  const profile = ctx.connection.activeAccount;
  if (!profile || !isLocalAddress(profile.baseUrl)) return undefined;
  const secretKey = await ctx.accounts.secretKey(profile.id);
  return secretKey ? { baseUrl: profile.baseUrl, accessKey: profile.accessKey, secretKey } : undefined;
}

/** The tooltip's health section for a live channel of a local platform; undefined otherwise or when it fails. */
export async function channelHealthTooltip(ctx: AppContext, channelId: string): Promise<string | undefined> {
  const target = await activeHealthTarget(ctx);
  if (!target) return undefined;
  try {
    return healthTooltip(await readChannelHealth(target, channelId));
  } catch {
    // Not started, stopped meanwhile, platform gone: the tooltip goes without health.
    return undefined;
  }
}

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

/** More tooltip for some rows, resolved when the row is hovered (the tree adapter: src/vscode/treeAdapter.ts). */
export interface TooltipExtra {
  applies(node: TreeNode): boolean;
  text(node: TreeNode): Promise<string | undefined>;
}

/** The health lines of a running channel's tooltip, when the active account is a local platform with live media. */
export function channelHealthTooltips(ctx: AppContext): TooltipExtra {
  const channelOf = (node: TreeNode): ChannelNode | undefined =>
    node instanceof ChannelNode &&
    !node.simulated &&
    (node.channel.status === ChannelStatuses.live || node.channel.status === ChannelStatuses.pulling) &&
    isLocalAddress(ctx.connection.activeAccount?.baseUrl ?? '')
      ? node
      : undefined;
  return {
    applies: (node) => channelOf(node) !== undefined,
    text: async (node) => {
      const channel = channelOf(node);
      return channel ? channelHealthTooltip(ctx, channel.channel.id) : undefined;
    },
  };
}
