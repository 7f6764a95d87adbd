/**
 * Logo groups (integer ids): logoGroup create/modify, getLogoGroupList (rest-interface 4.2, facts
 * section 4), deleteLogoGroup (all or nothing; a group a template group uses is kept).
 */
import { OPERATIONS } from '../../api/operations';
import { GROUP_ID } from '../../api/operations/liveResources';
import { Codes } from '../../api/errorCodes';
import type { ActionHandler } from './context';
import { PlatformFault } from '../http/faults';
import type { Fields } from './fields';
import { metaOf } from '../store/meta';
import type { LogoGroupRec, LogoItemRec } from '../store/records';
import * as out from '../http/serialize';
import { Tx, type AccountStore } from '../store/store';
import { readRelativeUri } from './liveLogos';

const MAX_LOGOS = 10;

/**
 * Reads an integer group id given as text or number; `field` names it in refusals. 0 means "not
 * given" (no group has id 0, and clients with integer fields send 0 for "none").
 */
export function readGroupId(p: Fields, field: string, required = false): number | undefined {
  const id = p.int(field, required, GROUP_ID);
  if (id === 0 && required) throw p.invalid(field, 'must be a group id (1 or more)');
  return id === 0 ? undefined : id;
}

/** A comma-separated list of integer group ids (`ids` of the group deletes). */
export function readGroupIds(p: Fields, field: string): number[] {
  return p.idList(field).map((text) => {
    if (!/^\d{1,10}$/.test(text) || Number(text) < 1)
      throw p.invalid(field, `must list group ids (integers from 1; got ${text.slice(0, 20)})`);
    return Number(text);
  });
}

/** `logoGroupId` of a template group or job: 0 (or absent) means no logo group. */
export function checkLogoGroup(store: AccountStore, id: number | undefined, field: string): number | null {
  if (id === undefined || id === 0) return null;
  if (!store.get('logoGroups', id))
    throw new PlatformFault(Codes.logoGroupNotExists, `${field} ${id} is not a logo group of this account`);
  return id;
}

function readLogo(p: Fields): LogoItemRec {
  const start = p.int('start', true, { min: 0, max: 100 });
  const end = p.int('end', true, { min: 0, max: 100 });
  if (end < start) throw p.invalid('end', `must not be before start (${start})`);
  return {
    uri: readRelativeUri(p, 'uri'),
    width: p.int('width', true, { min: 1, max: 7680 }),
    height: p.int('height', true, { min: 1, max: 4320 }),
    leftPos: p.int('leftPos', true, { min: 0, max: 100 }),
    topPos: p.int('topPos', true, { min: 0, max: 100 }),
    opacity: p.int('opacity', true, { min: 0, max: 100 }),
    resize: p.int('resize', true, { min: 1, max: 100 }),
    start,
    end,
  };
}

export const logoGroup: ActionHandler = async (ctx) => {
  const p = ctx.params;
  const { store } = ctx.account;
  const id = readGroupId(p, 'id');
  const current = id === undefined ? undefined : store.get('logoGroups', id);
  if (id !== undefined && !current)
    throw new PlatformFault(Codes.logoGroupNotExists, `id ${id} is not a logo group of this account`);
  const name = p.param(OPERATIONS.logoGroup.params, 'name').trim();
  const list = p.array('logos', true);
  if (list.length === 0) throw p.invalid('logos', 'must hold at least one logo');
  if (list.length > MAX_LOGOS) throw p.invalid('logos', `must hold at most ${MAX_LOGOS} logos`);
  const logos = list.map((value, i) => readLogo(p.item('logos', i, value)));
  const tx = new Tx();
  let group: LogoGroupRec;
  if (current) {
    group = { ...current, name, logos, updateTime: ctx.now };
  } else {
    const meta = metaOf(store);
    group = { id: meta.nextLogoGroupId, name, logos, createTime: ctx.now, updateTime: null };
    tx.put('meta', { ...meta, nextLogoGroupId: meta.nextLogoGroupId + 1 });
  }
  await store.commit(tx.put('logoGroups', group));
  // The platform answers an empty string here, not the group (facts section 3).
  return { result: '' };
};

export const getLogoGroupList: ActionHandler = (ctx) => {
  const rows = [...ctx.account.store.values('logoGroups')].sort((a, b) => a.id - b.id);
  return { result: rows.map((g) => out.logoGroup(ctx.view, g)) };
};

/** deleteLogoGroup: `ids` comma-separated; all or nothing; result null. */
export const deleteLogoGroup: ActionHandler = async (ctx) => {
  const { store } = ctx.account;
  const ids = readGroupIds(ctx.params, 'ids');
  const tx = new Tx();
  for (const id of ids) {
    if (!store.get('logoGroups', id))
      throw new PlatformFault(Codes.logoGroupNotExists, `ids: ${id} is not a logo group of this account`);
    const user = [...store.values('templateGroups')].find((g) => g.logoGroupId === id);
    if (user) {
      throw new PlatformFault(
        Codes.parameterInvalid,
        `ids: logo group ${id} is used by template group ${user.id} (its logoGroupId); change that group first`,
      );
    }
    tx.del('logoGroups', id);
  }
  await store.commit(tx);
  return { result: null };
};

/** This module's operations by action name, collected in ../handlers.ts. */
export const handlers = { logoGroup, getLogoGroupList, deleteLogoGroup };
