/** Videos and uploads' tokens (interface sections 4.4 and 4.5, facts sections 4 and 6). */
import { defineOperations, operation } from '../contract';
import { Codes } from '../errorCodes';
import type { UploadToken, Video, VideoPlayback, VideoQuery } from '../types';
import { MAX_PAGE_SIZE, SORT_ORDERS } from './channels';
import { ID_LENGTH, list, record, SEARCH_LENGTH } from './readers';

export const VIDEO_SORTS = ['title', 'size', 'category', 'uploadTime', 'status', 'tag'] as const;

export const VideoOperations = defineOperations({
  /** `start` is a 1-based page number (this project's choice, as for the channel list). */
  queryVideo: operation<VideoQuery, Video[]>()({
    method: 'GET',
    input: { field: 'query' },
    params: {
      start: { kind: 'int', required: true, min: 1, max: 1_000_000, client: 'page' },
      number: { kind: 'int', required: true, min: 1, max: MAX_PAGE_SIZE, client: 'page' },
      sort: { kind: 'enum', required: true, oneOf: VIDEO_SORTS, code: Codes.sortTypeIncorrect, client: 'present' },
      order: { kind: 'enum', required: true, oneOf: SORT_ORDERS, client: 'present' },
      searchType: { kind: 'enum', oneOf: ['title', 'tag', 'all'], code: Codes.searchTypeIncorrect },
      keyword: { kind: 'text', maxLength: SEARCH_LENGTH },
      // Category ids start at 1: 0 (what clients with integer fields send for none) means all categories.
      categoryId: { kind: 'int' },
      videoType: { kind: 'int', oneOf: [0, 1] },
      status: { kind: 'int', oneOf: [0, 1, 2, 3, 4, 5, 6, 7] },
    },
    read: list<Video>(),
  }),
  /** One playback entry per id; unknown ids come back with nulls. */
  getTranscodedVideos: operation<{ ids: string[] }, VideoPlayback[]>()({
    method: 'GET',
    params: { ids: { kind: 'ids', required: true } },
    read: list<VideoPlayback>(),
  }),
  getVideoInfo: operation<{ videoId: string }, Video>()({
    method: 'GET',
    params: { videoId: { kind: 'id', required: true, maxLength: ID_LENGTH, client: 'present' } },
    read: record<Video>(),
  }),
  deleteVideo: operation<{ videoIds: string[] }>()({
    method: 'POST',
    params: { videoIds: { kind: 'ids', required: true } },
  }),
  /** The access token for uploads (facts section 6). */
  getToken: operation<Record<string, never>, UploadToken>()({
    method: 'GET',
    params: {},
    read: record<UploadToken>(),
  }),
});
