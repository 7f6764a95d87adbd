import { l10n } from '../../l10n/l10n';
import { Emitter } from '../util/emitter';
import type { AccountProfile, AccountStore, StateStore } from './accountStore';

/** Workspace state: document URI -> account id, newest last. */
const BINDINGS_KEY = 'videoPlatform.documentAccounts';
/** Bindings kept; the oldest go first (documents long closed). */
const MAX_BINDINGS = 500;

type Bindings = Record<string, string>;

/** The part after the scheme: `untitled:/a/b.json` and `file:///a/b.json` both give `/a/b.json`. */
function pathOf(uri: string): string {
  return uri.slice(uri.indexOf(':') + 1).replace(/^\/\/\/?/, '/');
}

/**
 * Which account each platform document belongs to: the one it was opened or made from (Open as File, a
 * create command), or the one chosen at its first send. Kept in the workspace's state by document URI, not
 * in the document: the schemas (docs/platform/rest-interface.md's fields) leave no room for a marker the
 * platform would accept. An untitled document saved under its proposed name keeps its account.
 */
export class DocumentAccounts {
  private readonly changedEmitter = new Emitter();

  constructor(
    private readonly state: StateStore,
    private readonly accounts: Pick<AccountStore, 'get'>,
  ) {}

  /** After a document was bound to an account (or its binding dropped). */
  readonly onDidChange = this.changedEmitter.event;

  private bindings(): Bindings {
    return { ...(this.state.get<Bindings>(BINDINGS_KEY) ?? {}) };
  }

  /** The id bound to `uri`, following an untitled document to the file it was saved as. */
  private boundId(uri: string, bindings: Bindings): { id: string; key: string } | undefined {
    const id = bindings[uri];
    if (id !== undefined) return { id, key: uri };
    if (!uri.startsWith('file:')) return undefined;
    const path = pathOf(uri);
    const key = Object.keys(bindings).find((bound) => bound.startsWith('untitled:') && pathOf(bound) === path);
    return key ? { id: bindings[key]!, key } : undefined;
  }

  /** The account the document belongs to; undefined when none was chosen (or that account was removed). */
  accountOf(uri: string): AccountProfile | undefined {
    const bound = this.boundId(uri, this.bindings());
    return bound ? this.accounts.get(bound.id) : undefined;
  }

  /** Ties the document to the account (replacing an earlier binding). */
  async bind(uri: string, accountId: string): Promise<void> {
    const bindings = this.bindings();
    const earlier = this.boundId(uri, bindings);
    if (earlier) delete bindings[earlier.key];
    bindings[uri] = accountId;
    const keys = Object.keys(bindings);
    for (const key of keys.slice(0, Math.max(0, keys.length - MAX_BINDINGS))) delete bindings[key];
    await this.state.update(BINDINGS_KEY, bindings);
    this.changedEmitter.fire();
  }

  /**
   * The saved file of an untitled document takes over its binding (called when it is found under the new URI),
   * so that the untitled URI, which VS Code may use again, starts unbound.
   */
  async settle(uri: string): Promise<void> {
    const bindings = this.bindings();
    const bound = this.boundId(uri, bindings);
    if (!bound || bound.key === uri) return;
    await this.bind(uri, bound.id);
  }
}

export interface DocumentAccountLens {
  readonly title: string;
  readonly tooltip: string;
}

/**
 * The line above a platform document: its account, and whether that is the active one; without one, that
 * the account is asked for at the first send. A click chooses another account.
 */
export function documentAccountLens(
  bound: AccountProfile | undefined,
  active: AccountProfile | undefined,
): DocumentAccountLens {
  if (!bound) {
    return {
      title: l10n.t('$(account) No account yet: set when first sent (click to choose one now)'),
      tooltip: l10n.t('Choose the account this document is checked against and sent to.'),
    };
  }
  const title =
    active?.id === bound.id
      ? l10n.t('$(account) Account: {0}', bound.name)
      : active
        ? l10n.t('$(account) Account: {0} (the active account is {1})', bound.name, active.name)
        : l10n.t('$(account) Account: {0} (no account is active)', bound.name);
  return {
    title,
    tooltip: l10n.t(
      'This document is checked against and sent to the account "{0}" ({1}), whichever account is active. Click to choose another.',
      bound.name,
      bound.baseUrl,
    ),
  };
}
