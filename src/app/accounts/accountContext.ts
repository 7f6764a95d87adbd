import { l10n } from '../../l10n/l10n';
import { md } from '../tree/nodeView';
import { SIMULATED_LIVE } from './localPlatformHost';
import type { AccountStore } from './accountStore';

/** An account is active: the views list its records, platform commands can run. */
export const HAS_ACCOUNT_KEY = 'videoPlatform.hasAccount';
/** At least one account profile exists (active or not): Switch, Edit and Remove have something to act on. */
export const HAS_ANY_ACCOUNT_KEY = 'videoPlatform.hasAnyAccount';
/** The active account is the local platform inside the editor: the Callbacks view shows. */
export const LOCAL_ACCOUNT_KEY = 'videoPlatform.localAccountActive';

/** The `setContext` keys that menus' `when` clauses test, from the store as it is now. */
export function accountContextKeys(
  store: Pick<AccountStore, 'activeId' | 'list'>,
): Record<typeof HAS_ACCOUNT_KEY | typeof HAS_ANY_ACCOUNT_KEY | typeof LOCAL_ACCOUNT_KEY, boolean> {
  const active = store.activeId();
  return {
    [HAS_ACCOUNT_KEY]: active !== undefined,
    [HAS_ANY_ACCOUNT_KEY]: store.list().length > 0,
    [LOCAL_ACCOUNT_KEY]: store.list().some((account) => account.id === active && account.origin === 'local'),
  };
}

export interface AccountStatus {
  readonly text: string;
  /** Markdown when `markdown` is true. */
  readonly tooltip: string;
  readonly markdown: boolean;
  readonly command: 'videoPlatform.switchAccount' | 'videoPlatform.addAccount';
}

/**
 * What the status bar item shows: the active account (click: switch); accounts but none active
 * (click: choose one); no account at all (click: add one). `localMedia`: the media mode of the local
 * platform once it runs, shown for its account.
 */
export function accountStatus(store: Pick<AccountStore, 'active' | 'list'>, localMedia?: string): AccountStatus {
  const account = store.active();
  if (account) {
    const media = account.origin === 'local' && localMedia ? `${l10n.t('Media: {0}', md(localMedia))}\n\n` : '';
    const simulatedLive = account.origin === 'local' && localMedia?.includes(SIMULATED_LIVE) === true;
    return {
      text: `$(broadcast) ${account.name}${simulatedLive ? ` · ${l10n.t('simulated live: needs ffmpeg')}` : ''}`,
      tooltip: `${l10n.t('Video Platform account **{0}**', md(account.name))}\n\n${md(account.baseUrl)}\n\n${media}${l10n.t('Click to switch accounts.')}`,
      markdown: true,
      command: 'videoPlatform.switchAccount',
    };
  }
  const count = store.list().length;
  if (count > 0) {
    return {
      text: `$(plug) ${l10n.t('Video Platform: no active account')}`,
      tooltip:
        count === 1
          ? l10n.t('No account is active. Click to choose your account.')
          : l10n.t('No account is active. Click to choose one of your {0} accounts.', count),
      markdown: false,
      command: 'videoPlatform.switchAccount',
    };
  }
  return {
    text: `$(plug) ${l10n.t('Video Platform: no account')}`,
    tooltip: l10n.t('Click to add a Video Platform account'),
    markdown: false,
    command: 'videoPlatform.addAccount',
  };
}
