import type { PlatformClient } from '../../api/client';
import type { AppContext } from '../context';
import { editCallbackUrls } from '../commands/callbackActions';
import { answered } from '../ask/inputs';
import { describeFailure, isCancellation, step } from '../failures';
import { l10n } from '../../l10n/l10n';
import { checkBaseUrl, checkKey, checkName, checkUploadBaseUrl, type AccountProfile } from './accountStore';
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

/** What the user is about to save: a profile's fields and its secret key. */
interface Draft {
  readonly name: string;
  readonly baseUrl: string;
  readonly accessKey: string;
  readonly secretKey: string;
}

type Fix = 'secretKey' | 'baseUrl' | 'accessKey' | 'retry' | 'save' | 'cancel';

/**
 * Reads a little from the platform with the fields about to be saved, so that a wrong key or address shows
 * now, not at the first refresh. Undefined when it answered; the failure otherwise.
 */
async function checkDraft(ctx: AppContext, draft: Draft): Promise<unknown> {
  let client: PlatformClient | undefined;
  try {
    client = ctx.connection.trialClient({ id: '', ...draft }, draft.secretKey);
    const trial = client;
    await ctx.ui.withProgress(
      { title: l10n.t('Checking account "{0}"', draft.name), cancellable: true },
      ({ signal }) => trial.liveChannelTypeList(undefined, { signal }),
    );
    return undefined;
  } catch (error) {
    return error ?? new Error('failed');
  } finally {
    await client?.close();
  }
}

/**
 * Checks the draft; while the check fails, the user fixes the secret key, the base URL or the access key right
 * there, tries again, saves it unchecked on purpose, or cancels. Returns the draft to save and whether it
 * passed; undefined when cancelled (nothing is saved then).
 */
async function checkedDraft(
  ctx: AppContext,
  title: string,
  first: Draft,
): Promise<{ draft: Draft; checked: boolean } | undefined> {
  let draft = first;
  for (;;) {
    const failure = await checkDraft(ctx, draft);
    if (failure === undefined) return { draft, checked: true };
    if (isCancellation(failure)) {
      ctx.log.info(`Account "${draft.name}" not saved: its check was cancelled`);
      return undefined;
    }
    const reason = describeFailure(failure);
    ctx.log.warn(`Checking account "${draft.name}" (${draft.baseUrl}) failed: ${reason}`);
    const fix = await ctx.ui.pick<Fix>(
      [
        { label: l10n.t('$(key) Enter the secret key again'), value: 'secretKey' },
        { label: l10n.t('$(globe) Change the base URL'), description: draft.baseUrl, value: 'baseUrl' },
        { label: l10n.t('$(account) Change the access key'), description: draft.accessKey, value: 'accessKey' },
        { label: l10n.t('$(refresh) Check again'), value: 'retry' },
        {
          label: l10n.t('$(warning) Save it unchecked'),
          description: l10n.t('the platform may be out of reach for now'),
          value: 'save',
        },
        { label: l10n.t('$(close) Cancel'), description: l10n.t('nothing is saved'), value: 'cancel' },
      ],
      {
        title: l10n.t('Checking account "{0}" failed: {1}', draft.name, reason),
        placeHolder: l10n.t('Fix the secret key or the base URL, check again, or cancel (nothing is saved)'),
      },
    );
    switch (fix) {
      case undefined:
      case 'cancel':
        ctx.log.info(`Account "${draft.name}" not saved: its check failed and the user cancelled`);
        return undefined;
      case 'save':
        return { draft, checked: false };
      case 'retry':
        break;
      case 'secretKey':
        draft = {
          ...draft,
          secretKey: await askField(ctx, title, l10n.t('Secret key'), (v) => checkKey('Secret key', v), {
            password: true,
          }),
        };
        break;
      case 'baseUrl':
        draft = {
          ...draft,
          baseUrl: await askField(ctx, title, l10n.t('Platform base URL'), checkBaseUrl, { value: draft.baseUrl }),
        };
        break;
      case 'accessKey':
        draft = {
          ...draft,
          accessKey: await askField(ctx, title, l10n.t('Access key'), (v) => checkKey('Access key', v), {
            value: draft.accessKey,
          }),
        };
        break;
    }
  }
}

/** Says how the saved account's check went. */
function reportSaved(ctx: AppContext, profile: AccountProfile, checked: boolean): void {
  if (checked) void ctx.ui.info(l10n.t('Connected to "{0}" ({1}).', profile.name, profile.baseUrl));
  else
    void ctx.ui.warn(
      l10n.t(
        'The account "{0}" was saved without a working check: its lists show once the platform answers.',
        profile.name,
      ),
    );
}

/**
 * videoPlatform.addAccount: name, base URL, access key and secret key, checked against the platform before
 * anything is saved; then it becomes active.
 */
export async function addAccount(ctx: AppContext): Promise<AccountProfile | undefined> {
  const title = l10n.t('Add Video Platform account');
  const others = ctx.accounts.list();
  const name = await askField(ctx, title, l10n.t('Account name (for you)'), (value) => checkName(value, others), {
    placeHolder: 'Production',
  });
  const baseUrl = await askField(ctx, title, l10n.t('Platform base URL'), checkBaseUrl, {
    placeHolder: 'https://api.example.com',
  });
  const accessKey = await askField(ctx, title, l10n.t('Access key'), (value) => checkKey('Access key', value));
  const secretKey = await askField(
    ctx,
    title,
    l10n.t('Secret key (kept in the secret storage of this machine)'),
    (value) => checkKey('Secret key', value),
    { password: true },
  );
  const result = await checkedDraft(ctx, title, { name, baseUrl, accessKey, secretKey });
  if (!result) return undefined;
  const { secretKey: secret, ...fields } = result.draft;
  const profile = await ctx.accounts.add(fields, secret);
  ctx.log.info(`Added account "${profile.name}" (${profile.baseUrl})${result.checked ? '' : ', unchecked'}`);
  await ctx.connection.switchTo(profile.id);
  reportSaved(ctx, profile, result.checked);
  return profile;
}

async function pickAccount(ctx: AppContext, title: string, placeHolder: string): Promise<AccountProfile | undefined> {
  const accounts = ctx.accounts.list();
  if (accounts.length === 0) {
    // Run from a keybinding or another extension (the palette hides it then): say why and offer the ways in.
    const add = l10n.t('Add Account');
    const local = l10n.t('Connect to Local Platform');
    const choice = await ctx.ui.info(
      l10n.t('{0}: there is no Video Platform account yet. Add one, or connect to the local platform.', title),
      add,
      local,
    );
    if (choice === add) await step(l10n.t('Add Video Platform account'), () => addAccount(ctx));
    else if (choice === local) await connectLocalPlatform(ctx);
    return undefined;
  }
  const activeId = ctx.accounts.activeId();
  return ctx.ui.pick(
    accounts.map((account) => ({
      label: `${account.id === activeId ? '$(check) ' : ''}${account.name}`,
      description: account.baseUrl,
      detail:
        account.origin === 'local'
          ? l10n.t('runs inside VS Code')
          : account.origin === 'dev'
            ? l10n.t('from npm start')
            : undefined,
      value: account,
    })),
    { title, placeHolder, matchOnDescription: true },
  );
}

/** videoPlatform.switchAccount */
export async function switchAccount(ctx: AppContext): Promise<AccountProfile | undefined> {
  const account = await pickAccount(
    ctx,
    l10n.t('Switch Video Platform account'),
    l10n.t('Choose the account to work with'),
  );
  if (!account) return undefined;
  await ctx.connection.switchTo(account.id);
  ctx.log.info(`Switched to account "${account.name}"`);
  return account;
}

type EditField = 'name' | 'baseUrl' | 'uploadBaseUrl' | 'accessKey' | 'secretKey' | 'callbackUrls';

/** Which field of the account to change; the secret is never shown. */
async function pickEditField(ctx: AppContext, title: string, account: AccountProfile): Promise<EditField> {
  return answered(
    await ctx.ui.pick<EditField>(
      [
        { label: l10n.t('Name'), description: account.name, value: 'name' },
        { label: l10n.t('Base URL'), description: account.baseUrl, value: 'baseUrl' },
        {
          label: l10n.t('Upload base URL'),
          description: account.uploadBaseUrl ?? l10n.t('the base URL'),
          value: 'uploadBaseUrl',
        },
        { label: l10n.t('Access key'), description: account.accessKey, value: 'accessKey' },
        { label: l10n.t('Secret key'), description: l10n.t('enter a new one'), value: 'secretKey' },
        // The local platform inside the editor posts its callbacks there (src/app/callbacks/).
        ...(account.origin === 'local'
          ? [
              {
                label: l10n.t('Callback URLs'),
                description: ctx.localPlatform.callbackSettings.urls.join(', ') || l10n.t('none'),
                value: 'callbackUrls' as const,
              },
            ]
          : []),
      ],
      { title: `${title}: ${account.name}` },
    ),
  );
}

/**
 * A field the connection depends on (base URL, access key, secret key): asked, checked with a call (fix or
 * cancel, or save anyway), saved. Undefined when the user gave up.
 */
async function editConnectionField(
  ctx: AppContext,
  title: string,
  account: AccountProfile,
  field: 'baseUrl' | 'accessKey' | 'secretKey',
): Promise<AccountProfile | undefined> {
  const stored = (await ctx.accounts.secretKey(account.id)) ?? '';
  const draft: { -readonly [K in keyof Draft]: Draft[K] } = {
    name: account.name,
    baseUrl: account.baseUrl,
    accessKey: account.accessKey,
    secretKey: stored,
  };
  switch (field) {
    case 'baseUrl':
      draft.baseUrl = await askField(ctx, title, l10n.t('Platform base URL'), checkBaseUrl, {
        value: account.baseUrl,
      });
      break;
    case 'accessKey':
      draft.accessKey = await askField(ctx, title, l10n.t('Access key'), (value) => checkKey('Access key', value), {
        value: account.accessKey,
      });
      break;
    case 'secretKey':
      draft.secretKey = await askField(ctx, title, l10n.t('New secret key'), (value) => checkKey('Secret key', value), {
        password: true,
      });
      break;
  }
  // The local platform's own account is set by the extension: nothing to check by hand.
  const result = account.origin === 'local' ? { draft, checked: true } : await checkedDraft(ctx, title, draft);
  if (!result) return undefined;
  const { name: _name, secretKey, ...changes } = result.draft;
  // The secret is stored again only when the user typed one.
  const updated = await ctx.accounts.update(account.id, changes, secretKey !== stored ? secretKey : undefined);
  if (!result.checked) reportSaved(ctx, updated, false);
  return updated;
}

/** videoPlatform.editAccount: one field at a time; the secret is asked for, never shown. */
export async function editAccount(ctx: AppContext): Promise<AccountProfile | undefined> {
  const title = l10n.t('Edit Video Platform account');
  const account = answered(await pickAccount(ctx, title, l10n.t('Choose the account to edit')));
  const field = await pickEditField(ctx, title, account);
  const others = ctx.accounts.list().filter((other) => other.id !== account.id);
  let updated: AccountProfile | undefined;
  if (field === 'name') {
    updated = await ctx.accounts.update(account.id, {
      name: await askField(ctx, title, l10n.t('Account name'), (value) => checkName(value, others), {
        value: account.name,
      }),
    });
  } else if (field === 'uploadBaseUrl') {
    // Not checked by a call: uploads need a file, and /rest says nothing about the upload host.
    const value = await askField(
      ctx,
      title,
      l10n.t('Upload base URL (the real service takes uploads on another host; empty: the base URL)'),
      checkUploadBaseUrl,
      { value: account.uploadBaseUrl ?? '' },
    );
    updated = await ctx.accounts.update(account.id, { uploadBaseUrl: value.trim() || undefined });
  } else if (field === 'callbackUrls') {
    const urls = await editCallbackUrls(ctx, title);
    ctx.log.info(`Set the local platform's callback URLs (${urls.length})`);
    return account;
  } else {
    updated = await editConnectionField(ctx, title, account, field);
    if (!updated) return undefined;
  }
  ctx.log.info(`Edited the ${field === 'secretKey' ? 'secret key' : field} of account "${updated.name}"`);
  if (ctx.accounts.activeId() === account.id) ctx.connection.restart();
  else ctx.connection.forgetClient(account.id);
  return updated;
}

/** videoPlatform.removeAccount: after a modal confirmation; the secret is deleted too. */
export async function removeAccount(ctx: AppContext): Promise<AccountProfile | undefined> {
  const account = await pickAccount(
    ctx,
    l10n.t('Remove Video Platform account'),
    l10n.t('Choose the account to remove'),
  );
  if (!account) return undefined;
  const confirmed = await ctx.ui.confirm(
    l10n.t('Remove the account "{0}"?', account.name),
    l10n.t(
      'Its access key and secret key are removed from this machine. Nothing on the platform ({0}) changes.',
      account.baseUrl,
    ),
    l10n.t('Remove'),
    { destructive: true },
  );
  if (!confirmed) return undefined;
  const wasActive = ctx.accounts.activeId() === account.id;
  await ctx.accounts.remove(account.id);
  ctx.connection.forgetClient(account.id);
  ctx.log.info(`Removed account "${account.name}"`);
  if (wasActive) await ctx.connection.switchTo(undefined);
  return account;
}

/** videoPlatform.connectLocalPlatform: starts the bundled platform and makes its account active. */
export async function connectLocalPlatform(ctx: AppContext): Promise<string | undefined> {
  // Named here: it also runs from Switch Account's offer when there is no account.
  const { accountId, baseUrl, media, mediaDescription } = await step(l10n.t('Connect to the local platform'), () =>
    ctx.ui.withProgress({ title: l10n.t('Starting the local platform'), cancellable: false }, () =>
      ctx.localPlatform.connect(),
    ),
  );
  await ctx.connection.switchTo(accountId);
  if (media.kind === 'real') {
    void ctx.ui.info(
      l10n.t(
        'Connected to the local platform at {0} (demo data on first use). Media: {1}: uploads and transcodings make files that play.',
        baseUrl,
        mediaDescription,
      ),
    );
  } else {
    // Simulated: transcoding only moves statuses and uploads are refused; say how to get real media.
    const setPath = l10n.t('Set ffmpeg Path');
    void ctx.ui
      .info(
        l10n.t(
          'Connected to the local platform at {0} (demo data on first use). Media: {1}. A new ffmpeg path applies when the local platform starts again (reload the window).',
          baseUrl,
          mediaDescription,
        ),
        setPath,
      )
      .then(async (choice) => {
        if (choice === setPath) await ctx.ui.openSetting(FFMPEG_PATH_SETTING);
      });
  }
  return accountId;
}
