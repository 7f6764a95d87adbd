import type { AppContext, CommandArgs } from '../context';
import { l10n } from '../../l10n/l10n';
import { askAddress } from './askAddress';
import { targetOfArgs, type StreamTarget } from './streamTargets';

/**
 * Opens the stream in the system browser: an HLS address in the player page the local platform serves
 * (`/player?src=...`, hls.js from the installed package, no CDN), any other web address as it is (browsers play
 * MP4 themselves). Returns the address opened.
 */
export async function openPlayerFor(ctx: AppContext, target: StreamTarget): Promise<string> {
  if (!/^https?:\/\//i.test(target.address))
    throw new Error(l10n.t('the browser player plays http:// and https:// addresses; use Preview for a file'));
  const path = new URL(target.address).pathname;
  const page = /\.m3u8?$/i.test(path) ? await ctx.inspection.playerAddress(target.address) : target.address;
  await ctx.ui.openExternal(page);
  return page;
}

/** videoPlatform.openPlayerInBrowser */
export async function openPlayerInBrowser(ctx: AppContext, args: CommandArgs = {}): Promise<string | undefined> {
  const target = (await targetOfArgs(ctx, args)) ?? (await askAddress(ctx, l10n.t('Open player in browser')));
  return target ? openPlayerFor(ctx, target) : undefined;
}
