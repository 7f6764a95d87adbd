import type { MetaRec } from './records';
import type { AccountStore } from './store';

/** The account's counters and settings; created when the account is first opened. */
export function metaOf(store: AccountStore): MetaRec {
  const meta = store.get('meta', 'meta');
  if (!meta) throw new Error('account store has no meta record');
  return meta;
}
