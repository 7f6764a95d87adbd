import type { AppContext } from '../context';
import { answered } from '../commands/inputs';
import { reportFailure, step } from '../failures';
import { checkBaseUrl, checkKey, checkName, type AccountProfile } from './accountStore';
import { FFMPEG_PATH_SETTING } from './localPlatformHost';

async function askField(
  ctx: AppContext,
  title: string,
  prompt: string,
  rule: (value: string) => string | undefined,
  options: { value?: string; placeHolder?: string; password?: boolean } = {},
): Promise<string> {
  const value = answered(await ctx.ui.input({ title, prompt, ...options, validate: rule }));
  const problem = rule(value);
  if (problem) throw new Error(problem);
  return value.trim();
}

/**
 * Reads a little from the platform so that a wrong key shows now, not at the first refresh. A failure is
 * reported here, not by the wrapper: the account stays saved and active, the command did its work.
 */
async function check(ctx: AppContext, profile: AccountProfile): Promise<void> {
  try {
    const client = await ctx.connection.activeClient();
    await ctx.ui.withProgress({ title: `Checking account "${profile.name}"`, cancellable: true }, ({ signal }) =>
      client.liveChannelTypeList(undefined, { signal }),
    );
    void ctx.ui.info(`Connected to "${profile.name}" (${profile.baseUrl}).`);
  } catch (error) {
    await reportFailure(ctx.ui, ctx.log, `The account "${profile.name}" was saved, but checking it`, error);
  }
}

/** videoPlatform.addAccount: name, base URL, access key and secret key; then it becomes active. */
export async function addAccount(ctx: AppContext): Promise<AccountProfile | undefined> {
  const title = 'Add Video Platform account';
  const others = ctx.accounts.list();
  const name = await askField(ctx, title, 'Account name (for you)', (value) => checkName(value, others), {
    placeHolder: 'Production',
  });
  const baseUrl = await askField(ctx, title, 'Platform base URL', checkBaseUrl, {
    placeHolder: 'https://api.example.com',
  });
  const accessKey = await askField(ctx, title, 'Access key', (value) => checkKey('Access key', value));
  const secretKey = await askField(
    ctx,
    title,
    'Secret key (kept in the secret storage of this machine)',
    (value) => checkKey('Secret key', value),
    { password: true },
  );
  const profile = await ctx.accounts.add({ name, baseUrl, accessKey }, secretKey);
  ctx.log.info(`Added account "${profile.name}" (${profile.baseUrl})`);
  await ctx.connection.switchTo(profile.id);
  await check(ctx, profile);
  return profile;
}

async function pickAccount(ctx: AppContext, title: string, placeHolder: string): Promise<AccountProfile | undefined> {
  const accounts = ctx.accounts.list();
  if (accounts.length === 0) {
    // Run from a keybinding or another extension (the palette hides it then): say why and offer the ways in.
    const add = 'Add Account';
    const local = 'Connect to Local Platform';
    const choice = await ctx.ui.info(
      `${title}: there is no Video Platform account yet. Add one, or connect to the local platform.`,
      add,
      local,
    );
    if (choice === add) await step('Add Video Platform account', () => addAccount(ctx));
    else if (choice === local) await connectLocalPlatform(ctx);
    return undefined;
  }
  const activeId = ctx.accounts.activeId();
  return ctx.ui.pick(
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
export async function switchAccount(ctx: AppContext): Promise<AccountProfile | undefined> {
  const account = await pickAccount(ctx, 'Switch Video Platform account', 'Choose the account to work with');
  if (!account) return undefined;
  await ctx.connection.switchTo(account.id);
  ctx.log.info(`Switched to account "${account.name}"`);
  return account;
}

type EditField = 'name' | 'baseUrl' | 'accessKey' | 'secretKey';

/** videoPlatform.editAccount: one field at a time; the secret is asked for, never shown. */
export async function editAccount(ctx: AppContext): Promise<AccountProfile | undefined> {
  const title = 'Edit Video Platform account';
  const account = answered(await pickAccount(ctx, title, 'Choose the account to edit'));
  const field = answered(
    await ctx.ui.pick<EditField>(
      [
        { label: 'Name', description: account.name, value: 'name' },
        { label: 'Base URL', description: account.baseUrl, value: 'baseUrl' },
        { label: 'Access key', description: account.accessKey, value: 'accessKey' },
        { label: 'Secret key', description: 'enter a new one', value: 'secretKey' },
      ],
      { title: `${title}: ${account.name}` },
    ),
  );
  const others = ctx.accounts.list().filter((other) => other.id !== account.id);
  let updated: AccountProfile;
  switch (field) {
    case 'name':
      updated = await ctx.accounts.update(account.id, {
        name: await askField(ctx, title, 'Account name', (value) => checkName(value, others), {
          value: account.name,
        }),
      });
      break;
    case 'baseUrl':
      updated = await ctx.accounts.update(account.id, {
        baseUrl: await askField(ctx, title, 'Platform base URL', checkBaseUrl, { value: account.baseUrl }),
      });
      break;
    case 'accessKey':
      updated = await ctx.accounts.update(account.id, {
        accessKey: await askField(ctx, title, 'Access key', (value) => checkKey('Access key', value), {
          value: account.accessKey,
        }),
      });
      break;
    case 'secretKey':
      updated = await ctx.accounts.update(
        account.id,
        {},
        await askField(ctx, title, 'New secret key', (value) => checkKey('Secret key', value), { password: true }),
      );
      break;
  }
  ctx.log.info(`Edited the ${field === 'secretKey' ? 'secret key' : field} of account "${updated.name}"`);
  if (ctx.accounts.activeId() === account.id) ctx.connection.restart();
  return updated;
}

/** videoPlatform.removeAccount: after a modal confirmation; the secret is deleted too. */
export async function removeAccount(ctx: AppContext): Promise<AccountProfile | undefined> {
  const account = await pickAccount(ctx, 'Remove Video Platform account', 'Choose the account to remove');
  if (!account) return undefined;
  const confirmed = await ctx.ui.confirm(
    `Remove the account "${account.name}"?`,
    `Its access key and secret key are removed from this machine. Nothing on the platform (${account.baseUrl}) changes.`,
    'Remove',
  );
  if (!confirmed) return undefined;
  const wasActive = ctx.accounts.activeId() === account.id;
  await ctx.accounts.remove(account.id);
  ctx.log.info(`Removed account "${account.name}"`);
  if (wasActive) await ctx.connection.switchTo(undefined);
  return account;
}

/** videoPlatform.connectLocalPlatform: starts the bundled platform and makes its account active. */
export async function connectLocalPlatform(ctx: AppContext): Promise<string | undefined> {
  // Named here: it also runs from Switch Account's offer when there is no account.
  const { accountId, baseUrl, media, mediaDescription } = await step('Connect to the local platform', () =>
    ctx.ui.withProgress({ title: 'Starting the local platform', cancellable: false }, () =>
      ctx.localPlatform.connect(),
    ),
  );
  await ctx.connection.switchTo(accountId);
  if (media.kind === 'real') {
    void ctx.ui.info(
      `Connected to the local platform at ${baseUrl} (demo data on first use). Media: ${mediaDescription}: uploads and transcodings make files that play.`,
    );
  } else {
    // Simulated: transcoding only moves statuses and uploads are refused; say how to get real media.
    const setPath = 'Set ffmpeg Path';
    void ctx.ui
      .info(
        `Connected to the local platform at ${baseUrl} (demo data on first use). Media: ${mediaDescription}. A new ffmpeg path applies when the local platform starts again (reload the window).`,
        setPath,
      )
      .then(async (choice) => {
        if (choice === setPath) await ctx.ui.openSetting(FFMPEG_PATH_SETTING);
      });
  }
  return accountId;
}
