import { l10n } from '../../l10n/l10n';
import { Emitter } from '../util/emitter';
import { randomUUID } from 'node:crypto';

/**
 * Account profiles. Name, base URL and access key live in globalState (never in settings, which
 * get synced and shared); the secret key only in SecretStorage, under the profile's id.
 */
export interface AccountProfile {
  readonly id: string;
  readonly name: string;
  readonly baseUrl: string;
  readonly accessKey: string;
  /**
   * Where uploads go (`{uploadBaseUrl}/multipart/upload`, docs/platform/platform-facts.md section 6): the real
   * service takes them on another host than `/rest`. Absent: the base URL (as the local platform does).
   */
  readonly uploadBaseUrl?: string;
  /** `local`: the bundled local platform (restarted on demand); `dev`: from `npm start`'s environment. */
  readonly origin?: 'local' | 'dev';
}

/** The part of vscode.Memento used here. */
export interface StateStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

/** The part of vscode.SecretStorage used here. */
export interface SecretStore {
  get(key: string): Thenable<string | undefined>;
  store(key: string, value: string): Thenable<void>;
  delete(key: string): Thenable<void>;
}

const ACCOUNTS_KEY = 'videoPlatform.accounts';
const ACTIVE_KEY = 'videoPlatform.activeAccount';
const secretKeyOf = (id: string): string => `videoPlatform.secretKey.${id}`;
/** A local platform account's callback signing secret, as Copy Callback Signing Secret last showed it. */
const callbackSecretOf = (id: string): string => `videoPlatform.callbackSecret.${id}`;

/** Checks a profile's fields; returns the rule broken, naming the field, or undefined. */
export function checkBaseUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return l10n.t('Base URL must be an absolute address such as https://api.example.com or http://127.0.0.1:8790');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return l10n.t('Base URL must start with http:// or https://');
  if (url.username || url.password) return l10n.t('Base URL must not contain a user name or password');
  if (url.search || url.hash) return l10n.t('Base URL must not contain a query string or fragment');
  return undefined;
}

/** The upload base URL may be empty (then the base URL takes uploads); otherwise the base URL's rules. */
export function checkUploadBaseUrl(value: string): string | undefined {
  if (value.trim() === '') return undefined;
  const problem = checkBaseUrl(value);
  return problem === undefined ? undefined : l10n.t('Upload base URL: {0}', problem);
}

/** The profile as stored: trimmed, and no upload base URL when it is empty. */
function tidy(profile: AccountProfile): AccountProfile {
  const { uploadBaseUrl, ...rest } = profile;
  const upload = uploadBaseUrl?.trim();
  return {
    ...rest,
    name: profile.name.trim(),
    baseUrl: profile.baseUrl.trim(),
    accessKey: profile.accessKey.trim(),
    ...(upload ? { uploadBaseUrl: upload } : {}),
  };
}

export function checkName(value: string, others: readonly AccountProfile[]): string | undefined {
  if (!value.trim()) return l10n.t('Account name must not be empty');
  if (others.some((account) => account.name.toLowerCase() === value.trim().toLowerCase()))
    return l10n.t('An account named "{0}" already exists', value.trim());
  return undefined;
}

export function checkKey(field: 'Access key' | 'Secret key', value: string): string | undefined {
  const access = field === 'Access key';
  if (!value.trim()) return access ? l10n.t('Access key must not be empty') : l10n.t('Secret key must not be empty');
  if (/\s/.test(value.trim()))
    return access ? l10n.t('Access key must not contain spaces') : l10n.t('Secret key must not contain spaces');
  return undefined;
}

export class AccountStore {
  private readonly changedEmitter = new Emitter();

  constructor(
    private readonly state: StateStore,
    private readonly secrets: SecretStore,
  ) {}

  /** After any profile was added, edited or removed, or the active one changed. */
  readonly onDidChange = this.changedEmitter.event;

  private changed(): void {
    this.changedEmitter.fire();
  }

  list(): AccountProfile[] {
    return [...(this.state.get<AccountProfile[]>(ACCOUNTS_KEY) ?? [])];
  }

  get(id: string): AccountProfile | undefined {
    return this.list().find((account) => account.id === id);
  }

  findByName(name: string): AccountProfile | undefined {
    return this.list().find((account) => account.name === name);
  }

  activeId(): string | undefined {
    const id = this.state.get<string>(ACTIVE_KEY);
    return id && this.get(id) ? id : undefined;
  }

  active(): AccountProfile | undefined {
    const id = this.activeId();
    return id ? this.get(id) : undefined;
  }

  async setActive(id: string | undefined): Promise<void> {
    await this.state.update(ACTIVE_KEY, id);
    this.changed();
  }

  /** Adds a profile; the secret goes to secret storage only. Refuses bad fields, changing nothing. */
  async add(fields: Omit<AccountProfile, 'id'>, secretKey: string): Promise<AccountProfile> {
    const problem =
      checkName(fields.name, this.list()) ??
      checkBaseUrl(fields.baseUrl) ??
      checkUploadBaseUrl(fields.uploadBaseUrl ?? '') ??
      checkKey('Access key', fields.accessKey) ??
      checkKey('Secret key', secretKey);
    if (problem) throw new Error(problem);
    const profile = tidy({ ...fields, id: randomUUID() });
    await this.secrets.store(secretKeyOf(profile.id), secretKey.trim());
    await this.state.update(ACCOUNTS_KEY, [...this.list(), profile]);
    this.changed();
    return profile;
  }

  /** Changes fields of a profile (and the secret when given). */
  async update(id: string, changes: Partial<Omit<AccountProfile, 'id'>>, secretKey?: string): Promise<AccountProfile> {
    const accounts = this.list();
    const index = accounts.findIndex((account) => account.id === id);
    if (index < 0) throw new Error(`The account no longer exists`);
    const next: AccountProfile = { ...accounts[index]!, ...changes, id };
    const problem =
      checkName(
        next.name,
        accounts.filter((account) => account.id !== id),
      ) ??
      checkBaseUrl(next.baseUrl) ??
      checkUploadBaseUrl(next.uploadBaseUrl ?? '') ??
      checkKey('Access key', next.accessKey) ??
      (secretKey !== undefined ? checkKey('Secret key', secretKey) : undefined);
    if (problem) throw new Error(problem);
    if (secretKey !== undefined) await this.secrets.store(secretKeyOf(id), secretKey.trim());
    accounts[index] = tidy(next);
    await this.state.update(ACCOUNTS_KEY, accounts);
    this.changed();
    return accounts[index]!;
  }

  async remove(id: string): Promise<void> {
    await this.state.update(
      ACCOUNTS_KEY,
      this.list().filter((account) => account.id !== id),
    );
    await this.secrets.delete(secretKeyOf(id));
    await this.secrets.delete(callbackSecretOf(id));
    if (this.state.get<string>(ACTIVE_KEY) === id) await this.setActive(undefined);
    else this.changed();
  }

  /** Keeps the callback signing secret the extension shows in secret storage, beside the account's secret key. */
  async storeCallbackSecret(id: string, secret: string): Promise<void> {
    await this.secrets.store(callbackSecretOf(id), secret);
  }

  callbackSecret(id: string): Thenable<string | undefined> {
    return this.secrets.get(callbackSecretOf(id));
  }

  secretKey(id: string): Thenable<string | undefined> {
    return this.secrets.get(secretKeyOf(id));
  }
}
