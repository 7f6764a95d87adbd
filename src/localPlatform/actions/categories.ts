/** Channel categories: liveChannelTypeList, liveChannelTypeCreate (rest-interface 4.1, facts section 4). */
import { OPERATIONS } from '../../api/operations';
import { Codes } from '../../api/errorCodes';
import type { ActionHandler } from './context';
import { PlatformFault } from '../http/faults';
import { newId } from '../store/ids';
import type { CategoryRec } from '../store/records';
import * as out from '../http/serialize';
import { Tx } from '../store/store';

export const liveChannelTypeList: ActionHandler = (ctx) => {
  const specs = OPERATIONS.liveChannelTypeList.params;
  const id = ctx.params.param(specs, 'id');
  const name = ctx.params.param(specs, 'name')?.toLowerCase();
  const rows = [...ctx.account.store.values('categories')]
    .filter((c) => id === undefined || c.id === id)
    .filter((c) => name === undefined || c.name.toLowerCase().includes(name))
    .sort((a, b) => a.createTime - b.createTime || (a.id < b.id ? -1 : 1));
  return { result: rows.map((c) => out.category(ctx.view, c)) };
};

export const liveChannelTypeCreate: ActionHandler = async (ctx) => {
  const name = ctx.params.param(OPERATIONS.liveChannelTypeCreate.params, 'name').trim();
  const lower = name.toLowerCase();
  for (const c of ctx.account.store.values('categories')) {
    if (c.name.toLowerCase() === lower) {
      throw new PlatformFault(
        Codes.channelCategoryExists,
        `name ${name} is already a channel category of this account`,
      );
    }
  }
  const cat: CategoryRec = { id: newId(), name, createTime: ctx.now, updateTime: null };
  await ctx.account.store.commit(new Tx().put('categories', cat));
  return { result: out.category(ctx.view, cat) };
};

/** This module's operations by action name, collected in ../handlers.ts. */
export const handlers = { liveChannelTypeList, liveChannelTypeCreate };
