import type { AppContext } from '../context';
import { l10n } from '../../l10n/l10n';
import type { StreamTarget } from './streamTargets';

function addressRule(text: string): string | undefined {
  const value = text.trim();
  if (!value) return l10n.t('The address must not be empty');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) && !/^(https?|file):\/\//i.test(value))
    return l10n.t('The address must start with http:// or https:// (or be a file path)');
  if (/^https?:\/\//i.test(value)) {
    try {
      new URL(value);
    } catch {
      return l10n.t('{0} is not an address', value);
    }
  }
  return undefined;
}

/** From the palette: a recent address, or a new one typed in (remembered for next time). */
export async function askAddress(ctx: AppContext, title: string): Promise<StreamTarget | undefined> {
  const recent = ctx.inspection.recentAddresses();
  // A pick first, always: a new address, or one used before.
  const NEW = '';
  const picked = await ctx.ui.pick(
    [
      {
        label: `$(edit) ${l10n.t('Enter an address…')}`,
        description: l10n.t('HLS, MP4, FLV or TS; http(s) or a file path'),
        value: NEW,
      },
      ...(recent.length > 0 ? [{ label: l10n.t('Recent'), separator: true }] : []),
      ...recent.map((entry) => ({ label: entry, value: entry })),
    ],
    { title, placeHolder: l10n.t('A new address, or a recent one') },
  );
  if (picked === undefined) return undefined;
  let address: string | undefined = picked || undefined;
  if (address === undefined) {
    const typed = await ctx.ui.input({
      title,
      prompt: l10n.t('An HLS playlist (.m3u8), MP4, FLV or TS address, or a file path'),
      placeHolder: 'https://example.com/live/stream.m3u8',
      validate: addressRule,
    });
    if (typed === undefined) return undefined;
    const rule = addressRule(typed);
    if (rule) throw new Error(rule);
    address = typed.trim();
  }
  await ctx.inspection.remember(address);
  const path = address.replace(/[?#].*$/, '');
  return { address, name: path.split('/').pop() || address, single: !/\.m3u8?$/i.test(path) };
}
