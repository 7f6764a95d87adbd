import { documentKind, DOCUMENT_KINDS, kindSuffix } from '../../authoring/documentKind';
import type { AppContext, CommandArgs, EditorDocument } from '../context';
import { l10n } from '../../l10n/l10n';
import type { AccountProfile } from './accountStore';
import { noAccountMessage } from './connection';

/** Asks which account a document belongs to: the active one first, the document's own marked. */
async function askAccount(
  ctx: AppContext,
  document: EditorDocument,
  current: AccountProfile | undefined,
): Promise<AccountProfile | undefined> {
  const activeId = ctx.accounts.activeId();
  const accounts = ctx.accounts.list().sort((a, b) => Number(b.id === activeId) - Number(a.id === activeId));
  const name = document.fileName.split(/[\\/]/).pop() ?? document.fileName;
  return ctx.ui.pick(
    accounts.map((account) => ({
      label: `${account.id === current?.id ? '$(check) ' : ''}${account.name}`,
      description: account.id === activeId ? l10n.t('{0} (active)', account.baseUrl) : account.baseUrl,
      value: account,
    })),
    {
      title: l10n.t('The account of {0}', name),
      placeHolder: l10n.t('Choose the account this document is checked against and sent to'),
      matchOnDescription: true,
    },
  );
}

/**
 * The account a document is sent to: the one it is tied to; else the only account there is, or the one the
 * user picks now, remembered from then on. Undefined when the pick was dismissed.
 */
export async function accountOfDocument(
  ctx: AppContext,
  document: EditorDocument,
): Promise<AccountProfile | undefined> {
  const bound = ctx.documentAccounts.accountOf(document.uri);
  if (bound) {
    await ctx.documentAccounts.settle(document.uri);
    return bound;
  }
  const accounts = ctx.accounts.list();
  if (accounts.length === 0) throw new Error(noAccountMessage());
  const chosen = accounts.length === 1 ? accounts[0] : await askAccount(ctx, document, undefined);
  if (!chosen) return undefined;
  await ctx.documentAccounts.bind(document.uri, chosen.id);
  ctx.log.info(`The document ${document.uri} belongs to account "${chosen.name}" from now on`);
  return chosen;
}

/** videoPlatform.chooseDocumentAccount: the CodeLens above a platform document, the editor title, the palette. */
export async function chooseDocumentAccount(
  ctx: AppContext,
  args: CommandArgs = {},
): Promise<AccountProfile | undefined> {
  const document = await ctx.editor.document(args.uri);
  if (!document || !documentKind(document.fileName)) {
    const suffixes = DOCUMENT_KINDS.map((kind) => `*${kindSuffix(kind)}`).join(', ');
    void ctx.ui.error(l10n.t('Open a Video Platform document first: this works on {0} files.', suffixes));
    return undefined;
  }
  if (ctx.accounts.list().length === 0) throw new Error(noAccountMessage());
  const chosen = await askAccount(ctx, document, ctx.documentAccounts.accountOf(document.uri));
  if (!chosen) return undefined;
  await ctx.documentAccounts.bind(document.uri, chosen.id);
  ctx.log.info(`The document ${document.uri} belongs to account "${chosen.name}" from now on`);
  // Its ids are now checked against this account's lists.
  ctx.authoring.diagnostics.validate(document);
  return chosen;
}
