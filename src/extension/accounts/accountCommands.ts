import type { CommandDeps } from '../commands/deps';
import { answered, Dismissed } from '../commands/inputs';
import { reportFailure } from '../failures';
import { checkBaseUrl, checkKey, checkName, type AccountProfile } from './accountStore';

async function askField(
  deps: CommandDeps,
  title: string,
  prompt: string,
  rule: (value: string) => string | undefined,
  options: { value?: string; placeHolder?: string; password?: boolean } = {},
): Promise<string> {
  const value = answered(await deps.ui.input({ title, prompt, ...options, validate: rule }));
  const problem = rule(value);
  if (problem) throw new Error(problem);
  return value.trim();
}

/** Reads a little from the platform so that a wrong key shows now, not at the first refresh. */
async function check(deps: CommandDeps, profile: AccountProfile): Promise<void> {
  try {
    const client = await deps.connection.activeClient();
    await deps.ui.withProgress({ title: `Checking account "${profile.name}"`, cancellable: true }, ({ signal }) =>
      client.liveChannelTypeList(undefined, { signal }),
    );
    void deps.ui.info(`Connected to "${profile.name}" (${profile.baseUrl}).`);
  } catch (error) {
    await reportFailure(deps.ui, deps.log, `The account "${profile.name}" was saved, but checking it`, error);
  }
}

/** videoPlatform.addAccount: name, base URL, access key and secret key; then it becomes active. */
export async function addAccount(deps: CommandDeps): Promise<AccountProfile | undefined> {
  const title = 'Add Video Platform account';
  try {
    const others = deps.accounts.list();
    const name = await askField(deps, title, 'Account name (for you)', (value) => checkName(value, others), {
      placeHolder: 'Production',
    });
    const baseUrl = await askField(deps, title, 'Platform base URL', checkBaseUrl, {
      placeHolder: 'https://api.example.com',
    });
    const accessKey = await askField(deps, title, 'Access key', (value) => checkKey('Access key', value));
    const secretKey = await askField(
      deps,
      title,
      'Secret key (kept in the secret storage of this machine)',
      (value) => checkKey('Secret key', value),
      { password: true },
    );
    const profile = await deps.accounts.add({ name, baseUrl, accessKey }, secretKey);
    deps.log.info(`Added account "${profile.name}" (${profile.baseUrl})`);
    await deps.connection.switchTo(profile.id);
    await check(deps, profile);
    return profile;
  } catch (error) {
    if (!(error instanceof Dismissed)) await reportFailure(deps.ui, deps.log, title, error);
    return undefined;
  }
}

async function pickAccount(deps: CommandDeps, title: string, placeHolder: string): Promise<AccountProfile | undefined> {
  const accounts = deps.accounts.list();
  if (accounts.length === 0) {
    // Run from a keybinding or another extension (the palette hides it then): say why and offer the ways in.
    const add = 'Add Account';
    const local = 'Connect to Local Platform';
    const choice = await deps.ui.info(
      `${title}: there is no Video Platform account yet. Add one, or connect to the local platform.`,
      add,
      local,
    );
    if (choice === add) await addAccount(deps);
    else if (choice === local) await connectLocalPlatform(deps);
    return undefined;
  }
  const activeId = deps.accounts.activeId();
  return deps.ui.pick(
    accounts.map((account) => ({
      label: `${account.id === activeId ? '$(check) ' : ''}${account.name}`,
      description: account.baseUrl,
      detail:
        account.origin === 'local' ? 'runs inside VS Code' : account.origin === 'dev' ? 'from npm start' : undefined,
      value: account,
    })),
    { title, placeHolder, matchOnDescription: true },
  );
}

/** videoPlatform.switchAccount */
export async function switchAccount(deps: CommandDeps): Promise<AccountProfile | undefined> {
  const account = await pickAccount(deps, 'Switch Video Platform account', 'Choose the account to work with');
  if (!account) return undefined;
  await deps.connection.switchTo(account.id);
  deps.log.info(`Switched to account "${account.name}"`);
  return account;
}

type EditField = 'name' | 'baseUrl' | 'accessKey' | 'secretKey';

/** videoPlatform.editAccount: one field at a time; the secret is asked for, never shown. */
export async function editAccount(deps: CommandDeps): Promise<AccountProfile | undefined> {
  const title = 'Edit Video Platform account';
  try {
    const account = answered(await pickAccount(deps, title, 'Choose the account to edit'));
    const field = answered(
      await deps.ui.pick<EditField>(
        [
          { label: 'Name', description: account.name, value: 'name' },
          { label: 'Base URL', description: account.baseUrl, value: 'baseUrl' },
          { label: 'Access key', description: account.accessKey, value: 'accessKey' },
          { label: 'Secret key', description: 'enter a new one', value: 'secretKey' },
        ],
        { title: `${title}: ${account.name}` },
      ),
    );
    const others = deps.accounts.list().filter((other) => other.id !== account.id);
    let updated: AccountProfile;
    switch (field) {
      case 'name':
        updated = await deps.accounts.update(account.id, {
          name: await askField(deps, title, 'Account name', (value) => checkName(value, others), {
            value: account.name,
          }),
        });
        break;
      case 'baseUrl':
        updated = await deps.accounts.update(account.id, {
          baseUrl: await askField(deps, title, 'Platform base URL', checkBaseUrl, { value: account.baseUrl }),
        });
        break;
      case 'accessKey':
        updated = await deps.accounts.update(account.id, {
          accessKey: await askField(deps, title, 'Access key', (value) => checkKey('Access key', value), {
            value: account.accessKey,
          }),
        });
        break;
      case 'secretKey':
        updated = await deps.accounts.update(
          account.id,
          {},
          await askField(deps, title, 'New secret key', (value) => checkKey('Secret key', value), { password: true }),
        );
        break;
    }
    deps.log.info(`Edited the ${field === 'secretKey' ? 'secret key' : field} of account "${updated.name}"`);
    if (deps.accounts.activeId() === account.id) deps.connection.restart();
    return updated;
  } catch (error) {
    if (!(error instanceof Dismissed)) await reportFailure(deps.ui, deps.log, title, error);
    return undefined;
  }
}

/** videoPlatform.removeAccount: after a modal confirmation; the secret is deleted too. */
export async function removeAccount(deps: CommandDeps): Promise<AccountProfile | undefined> {
  const account = await pickAccount(deps, 'Remove Video Platform account', 'Choose the account to remove');
  if (!account) return undefined;
  const confirmed = await deps.ui.confirm(
    `Remove the account "${account.name}"?`,
    `Its access key and secret key are removed from this machine. Nothing on the platform (${account.baseUrl}) changes.`,
    'Remove',
  );
  if (!confirmed) return undefined;
  const wasActive = deps.accounts.activeId() === account.id;
  await deps.accounts.remove(account.id);
  deps.log.info(`Removed account "${account.name}"`);
  if (wasActive) await deps.connection.switchTo(undefined);
  return account;
}

/** videoPlatform.connectLocalPlatform: starts the bundled platform and makes its account active. */
export async function connectLocalPlatform(deps: CommandDeps): Promise<string | undefined> {
  const title = 'Connect to the local platform';
  try {
    const { accountId, baseUrl } = await deps.ui.withProgress(
      { title: 'Starting the local platform', cancellable: false },
      () => deps.localPlatform.connect(),
    );
    await deps.connection.switchTo(accountId);
    void deps.ui.info(`Connected to the local platform at ${baseUrl} (demo data on first use).`);
    return accountId;
  } catch (error) {
    await reportFailure(deps.ui, deps.log, title, error);
    return undefined;
  }
}
