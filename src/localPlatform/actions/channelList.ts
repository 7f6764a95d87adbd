/**
 * liveGetChannelsByPage: 1-based pages (default 1 / 15), sort and order, search by name, category
 * or both; `count` is the total number of matching channels (facts section 3).
 */
import { Codes } from '../../api/errorCodes';
import type { ActionHandler } from '../context';
import { PlatformFault } from '../faults';
import type { ChannelRec } from '../records';
import * as out from '../serialize';
import { compareId, compareText, pageOf, sortedRows } from '../sortCache';

export const CHANNEL_SORTS = ['name', 'type', 'status', 'streamStatus', 'createTime'] as const;
type ChannelSort = (typeof CHANNEL_SORTS)[number];
export const MAX_PAGE_SIZE = 1000;

const comparators: Record<ChannelSort, (a: ChannelRec, b: ChannelRec) => number> = {
  name: (a, b) => compareText(a.name, b.name) || compareId(a, b),
  type: (a, b) => compareText(a.typeName, b.typeName) || compareText(a.name, b.name) || compareId(a, b),
  status: (a, b) => a.status - b.status || b.createTime - a.createTime || compareId(a, b),
  streamStatus: (a, b) => a.streamStatus - b.streamStatus || b.createTime - a.createTime || compareId(a, b),
  createTime: (a, b) => a.createTime - b.createTime || compareId(a, b),
};

export const liveGetChannelsByPage: ActionHandler = (ctx) => {
  const p = ctx.params;
  const start = p.int('start', false, { min: 1, max: 1_000_000 }) ?? 1;
  const number = p.int('number', false, { min: 1, max: MAX_PAGE_SIZE }) ?? 15;
  const sort = p.oneOf('sort', CHANNEL_SORTS) ?? 'createTime';
  // Newest first when listing by creation time without an order; otherwise ascending.
  const order = p.oneOf('order', ['asc', 'desc'] as const) ?? (p.has('sort') ? 'asc' : 'desc');
  const searchType = p.oneOf('searchType', ['name', 'type', 'all'] as const);
  let keep: (ch: ChannelRec) => boolean = () => true;
  if (searchType) {
    if (!p.has('keyword')) throw new PlatformFault(Codes.parameterMissing, 'keyword is required when searchType is given');
    const keyword = (p.str('keyword', true, 200) ?? '').toLowerCase();
    const byName = (ch: ChannelRec): boolean => ch.name.toLowerCase().includes(keyword);
    const byType = (ch: ChannelRec): boolean =>
      ch.type === keyword || (ch.typeName !== null && ch.typeName.toLowerCase().includes(keyword));
    keep = searchType === 'name' ? byName : searchType === 'type' ? byType : (ch) => byName(ch) || byType(ch);
  }
  const rows = sortedRows(ctx.account.store, 'channels', sort, comparators[sort]);
  let count = rows.length;
  if (searchType) {
    count = 0;
    for (const row of rows) if (keep(row)) count++;
  }
  const page = pageOf(rows, order === 'desc', keep, start, number);
  return { result: page.map((ch) => out.channel(ctx.view, ch)), count };
};
