/** Live station logos: liveLogoCreate, liveLogoList (rest-interface 4.2, facts section 4). */
import { OPERATIONS } from '../../api/operations';
import { URI_LENGTH } from '../../api/operations/liveResources';
import type { ActionHandler } from './context';
import type { Fields } from './fields';
import { newId } from '../store/ids';
import type { LiveLogoRec } from '../store/records';
import * as out from '../http/serialize';
import { Tx } from '../store/store';

/**
 * A relative image path: no scheme, no `..` segment, no backslashes. It is only ever composed into
 * an address, never opened, but a path that could climb out of the logo folder is refused anyway.
 */
export function readRelativeUri(p: Fields, name: string): string {
  const uri = p.str(name, true, URI_LENGTH).trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(uri) || uri.startsWith('//'))
    throw p.invalid(name, 'must be a relative path, not an address');
  if (uri.includes('\\') || uri.split('/').includes('..'))
    throw p.invalid(name, 'must not contain backslashes or .. segments');
  return uri;
}

export const liveLogoCreate: ActionHandler = async (ctx) => {
  const p = ctx.params;
  const specs = OPERATIONS.liveLogoCreate.params;
  const logo: LiveLogoRec = {
    id: newId(),
    name: p.param(specs, 'name').trim(),
    uri: readRelativeUri(p, 'uri'),
    width: p.param(specs, 'width'),
    height: p.param(specs, 'height'),
    offsetWidth: p.param(specs, 'offsetWidth'),
    offsetHeight: p.param(specs, 'offsetHeight'),
    opacity: p.param(specs, 'opacity') ?? 100,
    resize: p.param(specs, 'resize') ?? 100,
    createTime: ctx.now,
  };
  await ctx.account.store.commit(new Tx().put('liveLogos', logo));
  return { result: out.liveLogo(ctx.view, logo) };
};

export const liveLogoList: ActionHandler = (ctx) => {
  const specs = OPERATIONS.liveLogoList.params;
  const name = ctx.params.param(specs, 'name')?.toLowerCase();
  const id = ctx.params.param(specs, 'id');
  const rows = [...ctx.account.store.values('liveLogos')]
    .filter((l) => id === undefined || l.id === id)
    .filter((l) => name === undefined || l.name.toLowerCase().includes(name))
    .sort((a, b) => a.createTime - b.createTime || (a.id < b.id ? -1 : 1));
  return { result: rows.map((l) => out.liveLogo(ctx.view, l)) };
};

/** This module's operations by action name, collected in ../handlers.ts. */
export const handlers = { liveLogoCreate, liveLogoList };
