import type { AppContext } from '../context';
import { l10n } from '../../l10n/l10n';
import type { PickItem } from '../ui';
import { hasAuthCode } from '../util/secretAddress';
import { openPlayerFor } from './inspectCommands';

/** A playback or push address offered in a quick pick. */
export interface Address {
  readonly url: string;
  /** What it is, for the confirmation ("HLS 1280x720 of "News""). */
  readonly what: string;
}

/** Only web addresses open in a browser; rtmp:// and the like are copied. */
function canOpen(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

export async function copyAddress(ctx: AppContext, address: Address): Promise<void> {
  await ctx.ui.copy(address.url);
  // A push address holds the auth code: the message names it without showing it (messages end up in
  // screenshots and screen shares).
  if (hasAuthCode(address.url)) void ctx.ui.info(l10n.t('Copied the {0} (it contains the auth code).', address.what));
  else void ctx.ui.info(l10n.t('Copied {0}: {1}', address.what, address.url));
}

/**
 * Lets the user pick one address (grouped by separators) and then copy or open it.
 * Returns what was done, for tests.
 */
export async function pickAndUseAddress(
  ctx: AppContext,
  items: readonly PickItem<Address>[],
  title: string,
): Promise<{ action: 'copy' | 'open'; address: Address } | undefined> {
  const address = await ctx.ui.pick(items, {
    title,
    placeHolder: l10n.t('Choose an address to copy or open'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!address) return undefined;
  if (!canOpen(address.url)) {
    await copyAddress(ctx, address);
    return { action: 'copy', address };
  }
  const action = await ctx.ui.pick<'copy' | 'open'>(
    [
      { label: '$(copy) Copy address', description: address.url, value: 'copy' },
      { label: '$(link-external) Open in browser', description: address.url, value: 'open' },
    ],
    { title: `${title}: ${address.what}` },
  );
  if (!action) return undefined;
  if (action === 'copy') await copyAddress(ctx, address);
  // A playlist opens in the player page (as Open Player does), not as a text file.
  else await openPlayerFor(ctx, { address: address.url, name: address.what, single: false });
  return { action, address };
}
