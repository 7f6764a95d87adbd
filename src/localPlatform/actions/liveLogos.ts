/** Live station logos: liveLogoCreate, liveLogoList (rest-interface 4.2, facts section 4). */
import type { ActionHandler } from '../context';
import type { Fields } from '../fields';
import { newId } from '../ids';
import type { LiveLogoRec } from '../records';
import * as out from '../serialize';
import { Tx } from '../store';

/**
 * A relative image path: no scheme, no `..` segment, no backslashes. It is only ever composed into
 * an address, never opened, but a path that could climb out of the logo folder is refused anyway.
 */
export function readRelativeUri(p: Fields, name: string): string {
  const uri = p.str(name, true, 1000).trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(uri) || uri.startsWith('//'))
    throw p.invalid(name, 'must be a relative path, not an address');
  if (uri.includes('\\') || uri.split('/').includes('..'))
    throw p.invalid(name, 'must not contain backslashes or .. segments');
  return uri;
}

export const liveLogoCreate: ActionHandler = async (ctx) => {
  const p = ctx.params;
  const logo: LiveLogoRec = {
    id: newId(),
    name: p.str('name', true, 200).trim(),
    uri: readRelativeUri(p, 'uri'),
    width: p.int('width', true, { min: 1, max: 7680 }),
    height: p.int('height', true, { min: 1, max: 4320 }),
    offsetWidth: p.int('offsetWidth', true, { min: 0, max: 7680 }),
    offsetHeight: p.int('offsetHeight', true, { min: 0, max: 4320 }),
    opacity: p.int('opacity', false, { min: 0, max: 100 }) ?? 100,
    resize: p.int('resize', false, { min: 1, max: 100 }) ?? 100,
    createTime: ctx.now,
  };
  await ctx.account.store.commit(new Tx().put('liveLogos', logo));
  return { result: out.liveLogo(ctx.view, logo) };
};

export const liveLogoList: ActionHandler = (ctx) => {
  const name = ctx.params.str('name', false, 200)?.toLowerCase();
  const id = ctx.params.str('id', false, 64);
  const rows = [...ctx.account.store.values('liveLogos')]
    .filter((l) => id === undefined || l.id === id)
    .filter((l) => name === undefined || l.name.toLowerCase().includes(name))
    .sort((a, b) => a.createTime - b.createTime || (a.id < b.id ? -1 : 1));
  return { result: rows.map((l) => out.liveLogo(ctx.view, l)) };
};
