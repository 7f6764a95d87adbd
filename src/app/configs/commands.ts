/**
 * The commands of configuration as code (issue 27): Pull Account into Folder, Plan Folder, Apply Plan, and the
 * two quick fixes of drift. The folder is the one clicked in the Explorer, else asked with the folder dialog.
 */
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppContext, CommandArgs } from '../context';
import { l10n } from '../../l10n/l10n';
import { accountAddress } from './address';
import { applyPlan, applySummary, operationsToRun } from './apply';
import { markToPutBack, takePlatformVersion } from './fixes';
import { channelsToRestart, planFolder, planBlockersList, runnable, type Plan } from './plan';
import { pullFolder, pullNotes, pullSummary, type PullResult } from './pull';
import { planLines, countsText } from './render';
import { configsOf } from './service';

/** A path from the Explorer (`files`), an editor's URI, or the folder dialog; undefined when dismissed. */
async function folderOf(ctx: AppContext, args: CommandArgs, title: string): Promise<string | undefined> {
  if (args.files?.[0]) return args.files[0];
  if (args.uri) return args.uri.startsWith('file:') ? fileURLToPath(args.uri) : args.uri;
  const chosen = await ctx.ui.openFiles({ title, openLabel: title, filters: {}, folders: true });
  return chosen?.[0];
}

function activeAccount(ctx: AppContext): { name: string; address: string } {
  const profile = ctx.connection.activeAccount;
  if (!profile) throw new Error(l10n.t('Add or choose a Video Platform account first.'));
  return { name: profile.name, address: accountAddress(profile.baseUrl) };
}

/** videoPlatform.pullAccountIntoFolder */
export async function pullAccountIntoFolder(ctx: AppContext, args: CommandArgs = {}): Promise<PullResult | undefined> {
  const dir = await folderOf(ctx, args, l10n.t('Pull account into folder'));
  if (!dir) return undefined;
  const account = activeAccount(ctx);
  const client = await ctx.connection.activeClient();
  const result = await ctx.ui.withProgress(
    { title: l10n.t('Pulling {0} into {1}', account.name, basename(dir)), cancellable: true },
    ({ signal }) => pullFolder(client, dir, { account: account.address, signal }),
  );
  for (const file of result.files.filter((f) => f.change !== 'unchanged'))
    ctx.log.info(`configs: ${file.change} ${file.file}`);
  void ctx.ui.info(l10n.t('Pulled {0} into {1}: {2}', account.name, basename(dir), pullSummary(result)));
  for (const note of pullNotes(result)) void ctx.ui.warn(note);
  configsOf(ctx).watch([dir]);
  return result;
}

/** Plans the folder and shows the plan; asks once whether removed files' records may be deleted. */
async function planAndShow(ctx: AppContext, dir: string, allowDelete = false): Promise<Plan> {
  const account = activeAccount(ctx);
  const client = await ctx.connection.activeClient();
  const plan = await ctx.ui.withProgress(
    { title: l10n.t('Planning {0} against {1}', basename(dir), account.name), cancellable: true },
    ({ signal }) => planFolder(client, dir, { account: account.address, allowDelete, signal }),
  );
  const removed = plan.problems.filter((p) => p.needsAllowDelete);
  if (!allowDelete && removed.length > 0) {
    const names = removed.map((p) => p.file).join(', ');
    if (
      await ctx.ui.confirm(l10n.t('Plan deleting the records of the removed files?'), names, l10n.t('Plan the deletes'))
    )
      return planAndShow(ctx, dir, true);
  }
  for (const line of planLines(plan)) ctx.log.info(`configs: ${line}`);
  configsOf(ctx).setPlan(plan);
  return plan;
}

/** The folder clicked (Explorer) or named (an editor); else the one the plan view shows; else asked. */
async function plannedFolder(ctx: AppContext, args: CommandArgs, title: string): Promise<string | undefined> {
  const last = configsOf(ctx).lastPlan;
  return args.files?.[0] || args.uri || !last ? folderOf(ctx, args, title) : last.dir;
}

/** videoPlatform.planFolder: from the plan view's title, plans its folder again. */
export async function planFolderCommand(ctx: AppContext, args: CommandArgs = {}): Promise<Plan | undefined> {
  const dir = await plannedFolder(ctx, args, l10n.t('Plan folder'));
  if (!dir) return undefined;
  const plan = await planAndShow(ctx, dir);
  if (!runnable(plan))
    void ctx.ui.warn(
      l10n.t('The plan of {0} has lines that would be refused: {1}', basename(dir), planBlockersList(plan)),
    );
  else void ctx.ui.info(l10n.t('Plan of {0}: {1}.', basename(dir), countsText(plan)));
  return plan;
}

/** videoPlatform.applyPlan: plans again (what runs is what the platform holds now), confirms once, applies. */
export async function applyPlanCommand(ctx: AppContext, args: CommandArgs = {}): Promise<Plan | undefined> {
  const last = configsOf(ctx).lastPlan;
  const dir = await plannedFolder(ctx, args, l10n.t('Apply plan'));
  if (!dir) return undefined;
  const account = activeAccount(ctx);
  const plan = await planAndShow(ctx, dir, last?.dir === dir && last.allowDelete);
  if (!runnable(plan)) {
    void ctx.ui.error(
      l10n.t(
        'Nothing was sent: the plan of {0} has lines that would be refused: {1}',
        basename(dir),
        planBlockersList(plan),
      ),
    );
    return plan;
  }
  const count = operationsToRun(plan).filter((op) => op.action !== 'none').length;
  if (count === 0) {
    void ctx.ui.info(l10n.t('No changes: {0} and {1} agree.', basename(dir), account.name));
    return plan;
  }
  const confirmed = await ctx.ui.confirm(
    count === 1
      ? l10n.t('Apply 1 operation to account "{0}" ({1})?', account.name, account.address)
      : l10n.t('Apply {0} operations to account "{1}" ({2})?', count, account.name, account.address),
    [countsText(plan), ...restartLine(plan)].join('\n'),
    l10n.t('Apply'),
  );
  if (!confirmed) return undefined;
  const client = await ctx.connection.activeClient();
  const result = await ctx.ui.withProgress(
    { title: l10n.t('Applying the plan of {0}', basename(dir)), cancellable: false },
    ({ report }) => applyPlan(client, plan, { onStep: (op) => report(`${op.action} ${op.file}`) }),
  );
  for (const applied of result.ran)
    for (const change of applied.normalised)
      void ctx.ui.warn(
        l10n.t(
          '{0}: the platform keeps {1} as {2} (sent {3}); this is not shown as a change again.',
          applied.operation.file,
          change.path,
          JSON.stringify(change.new),
          JSON.stringify(change.old),
        ),
      );
  ctx.log.info(`configs: ${applySummary(result)}`);
  if (result.failed) void ctx.ui.error(applySummary(result));
  else void ctx.ui.info(applySummary(result));
  ctx.models.channels.refresh();
  ctx.models.resources.refresh();
  return planAndShow(ctx, dir, plan.allowDelete);
}

/** The running channels apply stops and starts again, for its confirmation. */
function restartLine(plan: Plan): string[] {
  const names = channelsToRestart(plan);
  return names.length === 0
    ? []
    : [l10n.t('Running now, so stopped, updated and started again: {0}.', names.map((n) => `"${n}"`).join(', '))];
}

/** The drifted record of the file a quick fix names. */
function driftedFile(ctx: AppContext, args: CommandArgs): { dir: string; file: string } {
  const path = args.files?.[0] ?? (args.uri?.startsWith('file:') ? fileURLToPath(args.uri) : args.uri);
  if (!path) throw new Error(l10n.t('Open a file of a pulled folder first.'));
  return { dir: dirname(path), file: basename(path) };
}

/** videoPlatform.takePlatformVersion: the platform's record replaces the drifted file. */
export async function takePlatformVersionCommand(ctx: AppContext, args: CommandArgs = {}): Promise<void> {
  const { dir, file } = driftedFile(ctx, args);
  const operation = configsOf(ctx).driftOf(dir, file);
  if (!operation) {
    void ctx.ui.info(l10n.t('{0} has not drifted from the platform.', file));
    return;
  }
  await takePlatformVersion(dir, operation);
  // The plan view showing this folder would still list the drift just taken: plan it again.
  const shown = configsOf(ctx).lastPlan;
  if (shown?.dir === dir) await planAndShow(ctx, dir, shown.allowDelete);
  else await configsOf(ctx).compareAll();
}

/** videoPlatform.planToPutMineBack: the file is planned as an update over the drifted record. */
export async function planToPutMineBackCommand(ctx: AppContext, args: CommandArgs = {}): Promise<Plan> {
  const { dir, file } = driftedFile(ctx, args);
  await markToPutBack(dir, file);
  return planAndShow(ctx, dir);
}
