import type { AppContext } from '../context';
import type { StreamTarget } from './streamTargets';

const RULE = 'The address must start with http:// or https:// (or be a file path)';

function addressRule(text: string): string | undefined {
  const value = text.trim();
  if (!value) return 'The address must not be empty';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) && !/^(https?|file):\/\//i.test(value)) return RULE;
  if (/^https?:\/\//i.test(value)) {
    try {
      new URL(value);
    } catch {
      return `${value} is not an address`;
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
      { label: '$(edit) Enter an address…', description: 'HLS, MP4, FLV or TS; http(s) or a file path', value: NEW },
      ...(recent.length > 0 ? [{ label: 'Recent', separator: true }] : []),
      ...recent.map((entry) => ({ label: entry, value: entry })),
    ],
    { title, placeHolder: 'A new address, or a recent one' },
  );
  if (picked === undefined) return undefined;
  let address: string | undefined = picked || undefined;
  if (address === undefined) {
    const typed = await ctx.ui.input({
      title,
      prompt: 'An HLS playlist (.m3u8), MP4, FLV or TS address, or a file path',
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
