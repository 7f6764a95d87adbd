import { HAS_ACCOUNT_KEY, HAS_ANY_ACCOUNT_KEY, LOCAL_ACCOUNT_KEY } from './accounts/accountContext';

/** A filter is set on the Live channels view (its Clear Filter action shows). */
export const CHANNELS_FILTERED_KEY = 'videoPlatform.channelsFiltered';
/** A filter is set on the Videos view. */
export const VIDEOS_FILTERED_KEY = 'videoPlatform.videosFiltered';

/**
 * The workspace holds a pulled folder, or a plan was made: the Configuration Plan view shows (it takes no room in
 * the side bar of a user who does not keep the account in files).
 */
export const CONFIGS_IN_USE_KEY = 'videoPlatform.configsInUse';

/** Every context key the extension sets (setContext), so every one a package.json `when` clause may test. */
export const CONTEXT_KEYS: readonly string[] = [
  HAS_ACCOUNT_KEY,
  HAS_ANY_ACCOUNT_KEY,
  LOCAL_ACCOUNT_KEY,
  CHANNELS_FILTERED_KEY,
  VIDEOS_FILTERED_KEY,
  CONFIGS_IN_USE_KEY,
];
