/** Live channels and their categories (interface section 4.1, facts section 4). */
import { defineOperations, operation } from '../contract';
import { Codes } from '../errorCodes';
import { TransportError } from '../errors';
import type {
  Channel,
  ChannelCategory,
  ChannelDefinition,
  ChannelListQuery,
  ChannelPage,
  ChannelPlayUrl,
  ChannelUpdate,
} from '../types';
import { ID_LENGTH, list, record, SEARCH_LENGTH } from './readers';

/** The largest page of a list (channels and videos). */
export const MAX_PAGE_SIZE = 1000;
export const CHANNEL_SORTS = ['name', 'type', 'status', 'streamStatus', 'createTime'] as const;
export const SORT_ORDERS = ['asc', 'desc'] as const;

const channelId = { id: { kind: 'id', required: true, maxLength: ID_LENGTH, client: 'present' } } as const;

export const ChannelOperations = defineOperations({
  liveCreateChannel: operation<ChannelDefinition, Channel>()({
    method: 'POST',
    params: {},
    body: { field: 'definition' },
    read: record<Channel>(),
  }),
  /** Output groups without `id` are replaced, which changes their play addresses (facts section 4). */
  liveUpdate: operation<ChannelUpdate, Channel>()({
    method: 'POST',
    params: { id: { kind: 'id', required: true, maxLength: ID_LENGTH } },
    body: { field: 'update', requireId: true },
    read: record<Channel>(),
  }),
  /** `start` is a 1-based page number (0: the default, 1); `count` is the total number of matching channels. */
  liveGetChannelsByPage: operation<ChannelListQuery, ChannelPage>()({
    method: 'GET',
    input: { field: 'query', optional: true },
    params: {
      start: { kind: 'int', min: 0, max: 1_000_000, client: 'page' },
      number: { kind: 'int', min: 0, max: MAX_PAGE_SIZE, client: 'page' },
      sort: { kind: 'enum', oneOf: CHANNEL_SORTS, code: Codes.sortTypeIncorrect },
      order: { kind: 'enum', oneOf: SORT_ORDERS },
      searchType: { kind: 'enum', oneOf: ['name', 'type', 'all'], code: Codes.searchTypeIncorrect },
      keyword: { kind: 'text', maxLength: SEARCH_LENGTH },
    },
    read: (envelope, context) => {
      const channels = list<Channel>()(envelope, context);
      if (typeof envelope.count !== 'number') {
        throw new TransportError(
          'bad-envelope',
          `${context.action}: ${context.url} answered without the numeric "count" of matching channels${context.note}`,
          context.action,
          context.url,
        );
      }
      return { channels, count: envelope.count };
    },
  }),
  liveGetChannelById: operation<{ id: string }, Channel>()({
    method: 'GET',
    params: channelId,
    read: record<Channel>(),
  }),
  liveStartChannel: operation<{ id: string }, Channel>()({
    method: 'POST',
    params: channelId,
    read: record<Channel>(),
  }),
  liveStopChannel: operation<{ id: string }, Channel>()({
    method: 'POST',
    params: channelId,
    read: record<Channel>(),
  }),
  liveDelete: operation<{ ids: string[] }>()({
    method: 'POST',
    params: { ids: { kind: 'ids', required: true } },
  }),
  /** One entry per output group of the given channels. */
  liveGetChannelsPlayUrl: operation<{ channelId: string | string[] }, ChannelPlayUrl[]>()({
    method: 'GET',
    params: { channelId: { kind: 'ids', required: true } },
    read: list<ChannelPlayUrl>(),
  }),
  liveChannelTypeList: operation<{ id?: string; name?: string }, ChannelCategory[]>()({
    method: 'GET',
    input: { field: 'query', optional: true },
    params: {
      id: { kind: 'id', maxLength: ID_LENGTH },
      name: { kind: 'text', maxLength: SEARCH_LENGTH },
    },
    read: list<ChannelCategory>(),
  }),
  liveChannelTypeCreate: operation<{ name: string }, ChannelCategory>()({
    method: 'POST',
    params: { name: { kind: 'text', required: true, maxLength: 64, client: 'present' } },
    read: record<ChannelCategory>(),
  }),
});
