import { HAS_ACCOUNT_KEY, HAS_ANY_ACCOUNT_KEY } from './accounts/accountContext';

/** A filter is set on the Live channels view (its Clear Filter action shows). */
export const CHANNELS_FILTERED_KEY = 'videoPlatform.channelsFiltered';
/** A filter is set on the Videos view. */
export const VIDEOS_FILTERED_KEY = 'videoPlatform.videosFiltered';

/** Every context key the extension sets (setContext), so every one a package.json `when` clause may test. */
export const CONTEXT_KEYS: readonly string[] = [
  HAS_ACCOUNT_KEY,
  HAS_ANY_ACCOUNT_KEY,
  CHANNELS_FILTERED_KEY,
  VIDEOS_FILTERED_KEY,
];
