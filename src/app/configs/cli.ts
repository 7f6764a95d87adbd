/**
 * `npm run configs -- pull|plan|apply --dir DIR [--json] [--allow-delete] [--yes] [--dry-run]`
 * Credentials only from the environment (VIDEO_PLATFORM_BASE_URL, VIDEO_PLATFORM_ACCESS_KEY,
 * VIDEO_PLATFORM_SECRET_KEY), never from arguments or the folder. Exit code: 0 done (plan: nothing refused),
 * 1 refused or failed (plan: problems or conflicts; apply: stopped at a refusal), 2 bad arguments or environment.
 */
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { PlatformClient } from '../../api/client';
import { describeFailure } from '../failures';
import { accountAddress } from './address';
import { applyPlan, applySummary, operationsToRun } from './apply';
import { dryRun } from './dryRun';
import { channelsToRestart, planFolder, planJson, runnable, type Plan } from './plan';
import { pullFolder, pullNotes, pullSummary } from './pull';
import { countsText, planLines } from './render';

const USAGE = 'usage: npm run configs -- pull|plan|apply --dir DIR [--json] [--allow-delete] [--yes] [--dry-run]';

class UsageError extends Error {}

interface Args {
  command: 'pull' | 'plan' | 'apply';
  dir: string;
  json: boolean;
  allowDelete: boolean;
  yes: boolean;
  dryRun: boolean;
}

export function parseArgs(argv: readonly string[]): Args {
  const [command, ...rest] = argv;
  if (command !== 'pull' && command !== 'plan' && command !== 'apply')
    throw new UsageError(`the first argument is pull, plan or apply, not "${command ?? ''}"; ${USAGE}`);
  const args: Args = { command, dir: '', json: false, allowDelete: false, yes: false, dryRun: false };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--dir') {
      const dir = rest[++i];
      if (!dir || dir.startsWith('--')) throw new UsageError(`--dir needs a folder; ${USAGE}`);
      args.dir = resolve(dir);
    } else if (arg === '--json') args.json = true;
    else if (arg === '--allow-delete') args.allowDelete = true;
    else if (arg === '--yes') args.yes = true;
    else if (arg === '--dry-run') args.dryRun = true;
    else throw new UsageError(`unknown argument ${arg}; ${USAGE}`);
  }
  if (!args.dir) throw new UsageError(`--dir is required; ${USAGE}`);
  if (args.dryRun && command !== 'apply') throw new UsageError('--dry-run goes with apply');
  if (args.yes && command !== 'apply') throw new UsageError('--yes goes with apply');
  if (args.allowDelete && command === 'pull') throw new UsageError('--allow-delete goes with plan or apply');
  return args;
}

/** The client from the environment only; an error naming the missing variable. */
export function clientFromEnvironment(env: NodeJS.ProcessEnv): PlatformClient {
  const names = ['VIDEO_PLATFORM_BASE_URL', 'VIDEO_PLATFORM_ACCESS_KEY', 'VIDEO_PLATFORM_SECRET_KEY'] as const;
  const missing = names.filter((name) => !env[name]?.trim());
  if (missing.length > 0) throw new UsageError(`set ${missing.join(', ')} in the environment (never as arguments)`);
  return new PlatformClient({
    baseUrl: env.VIDEO_PLATFORM_BASE_URL!.trim(),
    accessKey: env.VIDEO_PLATFORM_ACCESS_KEY!.trim(),
    secretKey: env.VIDEO_PLATFORM_SECRET_KEY!.trim(),
  });
}

type Out = (line: string) => void;

async function confirm(plan: Plan, out: Out): Promise<boolean> {
  if (!process.stdin.isTTY) {
    out('apply asks for a confirmation; not in a terminal, pass --yes');
    return false;
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const count = operationsToRun(plan).filter((op) => op.action !== 'none').length;
    const restarted = channelsToRestart(plan);
    if (restarted.length > 0)
      out(`Running now, so stopped, updated and started again: ${restarted.map((n) => `"${n}"`).join(', ')}.`);
    const answer = await rl.question(`Apply ${count} operations to ${plan.account} (${countsText(plan)})? [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

export async function run(argv: readonly string[], env: NodeJS.ProcessEnv, out: Out, err: Out): Promise<number> {
  let args: Args;
  let client: PlatformClient;
  try {
    args = parseArgs(argv);
    client = clientFromEnvironment(env);
  } catch (error) {
    err(`configs: ${(error as Error).message}`);
    return 2;
  }
  const account = accountAddress(env.VIDEO_PLATFORM_BASE_URL!);
  try {
    if (args.command === 'pull') {
      const result = await pullFolder(client, args.dir, { account });
      if (args.json) out(JSON.stringify({ files: result.files }));
      else {
        for (const file of result.files.filter((f) => f.change !== 'unchanged')) out(`${file.change} ${file.file}`);
        out(pullSummary(result));
      }
      for (const note of pullNotes(result)) err(note);
      return 0;
    }
    const plan = await planFolder(client, args.dir, { account, allowDelete: args.allowDelete });
    if (args.json) out(JSON.stringify(planJson(plan)));
    else for (const line of planLines(plan)) out(line);
    if (args.command === 'plan' || !runnable(plan)) return runnable(plan) ? 0 : 1;
    if (operationsToRun(plan).length === 0) return 0;
    if (args.dryRun) {
      out(`Dry run: applying to a scratch copy of the account in a local platform...`);
      const dry = await dryRun(client, args.dir, { account, allowDelete: args.allowDelete });
      for (const skipped of dry.notCopied) out(`Dry run: not copied, so not tried: ${skipped}`);
      out(`Dry run: ${applySummary(dry.result)}`);
      return dry.result.failed ? 1 : 0;
    }
    if (!args.yes && !(await confirm(plan, out))) {
      out('Nothing was applied.');
      return 1;
    }
    const result = await applyPlan(client, plan, { onStep: (op) => out(`${op.action} ${op.file} ...`) });
    for (const applied of result.ran)
      for (const change of applied.normalised)
        out(
          `normalised by the platform: ${applied.operation.file}: ${change.path} sent ${JSON.stringify(change.old)}, kept ${JSON.stringify(change.new)}`,
        );
    if (args.json)
      out(
        JSON.stringify({
          ran: result.ran.map((r) => ({
            action: r.operation.action,
            kind: r.operation.kind,
            name: r.operation.name,
            file: r.operation.file,
            id: r.id,
          })),
          failed: result.failed ? { file: result.failed.operation.file, message: result.failed.message } : null,
          notRun: result.notRun.map((op) => op.file),
        }),
      );
    out(applySummary(result));
    return result.failed ? 1 : 0;
  } catch (error) {
    err(`configs: ${describeFailure(error)}`);
    return 1;
  } finally {
    await client.close();
  }
}

if (require.main === module) {
  void run(
    process.argv.slice(2),
    process.env,
    (line) => process.stdout.write(`${line}\n`),
    (line) => process.stderr.write(`${line}\n`),
  ).then((code) => {
    process.exitCode = code;
  });
}
