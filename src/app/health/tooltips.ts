/**
 * The health lines of a running channel's tooltip on a local platform, read from its `/_local/health` route
 * (client.ts) when the row is hovered. Apart from Channel Health (command.ts), whose panel is loaded on first use.
 */
import type { AppContext } from '../context';
import { ChannelStatuses } from '../../api/types';
import { ChannelNode, type TreeNode } from '../tree/nodes';
import { isLocalAddress, readChannelHealth, type HealthTarget } from './client';
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
