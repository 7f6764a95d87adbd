/** The usual ways an answer's `result` is read: one record, or a list. */
import type { ResultReader } from '../contract';
import { expectArray, expectRecord } from '../envelope';

export function record<T>(): ResultReader<T> {
  return (envelope, context) => expectRecord<T>(envelope.result, context);
}

export function list<T>(): ResultReader<T[]> {
  return (envelope, context) => expectArray<T>(envelope.result, context);
}

/** Ids of the platform's records (channels, templates, logos, videos): text of at most 64 characters. */
export const ID_LENGTH = 64;
/** Names searched for in lists. */
export const SEARCH_LENGTH = 200;
