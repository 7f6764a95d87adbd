/**
 * liveGetChannelsByPage: 1-based pages (default 1 / 15), sort and order, search by name, category
 * or both; `count` is the total number of matching channels (facts section 3).
 */
import { OPERATIONS } from '../../api/operations';
import { CHANNEL_SORTS } from '../../api/operations/channels';
import { Codes } from '../../api/errorCodes';
import type { ActionHandler } from './context';
import { PlatformFault } from '../http/faults';
import type { ChannelRec } from '../store/records';
import * as out from '../http/serialize';
import { compareId, compareText, pageAt, pageOfAll, sortedView } from '../store/sortCache';

type ChannelSort = (typeof CHANNEL_SORTS)[number];

const comparators: Record<ChannelSort, (a: ChannelRec, b: ChannelRec) => number> = {
  name: (a, b) => compareText(a.name, b.name) || compareId(a, b),
  type: (a, b) => compareText(a.typeName, b.typeName) || compareText(a.name, b.name) || compareId(a, b),
  status: (a, b) => a.status - b.status || b.createTime - a.createTime || compareId(a, b),
  streamStatus: (a, b) => a.streamStatus - b.streamStatus || b.createTime - a.createTime || compareId(a, b),
  createTime: (a, b) => a.createTime - b.createTime || compareId(a, b),
};

export const liveGetChannelsByPage: ActionHandler = (ctx) => {
  const p = ctx.params;
  // Both are optional; 0 (an integer field left at its default by the client) means "not given".
  const specs = OPERATIONS.liveGetChannelsByPage.params;
  const start = p.param(specs, 'start') || 1;
  const number = p.param(specs, 'number') || 15;
  // The interface's codes for a wrong sort key or search type (sortTypeIncorrect / searchTypeIncorrect), as on queryVideo.
  const sort = p.param(specs, 'sort') ?? 'createTime';
  // Newest first when listing by creation time without an order; otherwise ascending.
  const order = p.param(specs, 'order') ?? (p.has('sort') ? 'asc' : 'desc');
  const searchType = p.param(specs, 'searchType');
  const view = sortedView(ctx.account.store, 'channels', sort, comparators[sort]);
  let keep: ((ch: ChannelRec, index: number) => boolean) | undefined;
  let keyword = '';
  if (searchType) {
    if (!p.has('keyword'))
      throw new PlatformFault(Codes.parameterMissing, 'keyword is required when searchType is given');
    keyword = p.str('keyword', true, specs.keyword.maxLength).toLowerCase();
    const names = view.lower('name', (ch) => ch.name);
    const typeNames = view.lower('typeName', (ch) => ch.typeName);
    const byName = (_: ChannelRec, i: number): boolean => names[i]!.includes(keyword);
    const byType = (ch: ChannelRec, i: number): boolean =>
      ch.type === keyword || (typeNames[i]?.includes(keyword) ?? false);
    keep = searchType === 'name' ? byName : searchType === 'type' ? byType : (ch, i) => byName(ch, i) || byType(ch, i);
  }
  if (!keep) {
    const page = pageOfAll(view.rows, order === 'desc', start, number);
    return { result: out.channelList(ctx.view, page), count: view.rows.length };
  }
  // The search's matches, kept beside the order while it stays the same (paging reads them again).
  const positions = view.matching(`${searchType} ${keyword}`, keep);
  const page = pageAt(view.rows, positions, order === 'desc', start, number);
  return { result: out.channelList(ctx.view, page), count: positions.length };
};

/** This module's operations by action name, collected in ../handlers.ts. */
export const handlers = { liveGetChannelsByPage };
