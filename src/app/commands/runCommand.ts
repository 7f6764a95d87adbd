import type { AppContext, CommandArgs } from '../context';
import { reportFailure, StepFailure } from '../failures';
import { l10n } from '../../l10n/l10n';
import { Dismissed } from '../ask/inputs';
import { lazyPart } from '../lazyPart';
import type * as Handlers from './handlers';

/** A command's handler: the context and, from a view or an editor, what it was run on. */
export type CommandRun = (ctx: AppContext, args: CommandArgs) => unknown;

/**
 * One command: its id (package.json contributes.commands), what it does, and its handler: by its name in
 * ./handlers.ts (loaded on the command's first run, not at activation), or (a one-liner needing nothing) `run`.
 */
export type CommandRow = {
  readonly id: `videoPlatform.${string}`;
  /** What the command does, for its failure message ("Create channel failed: ..."). */
  readonly title: string;
} & ({ readonly handler: keyof typeof Handlers; readonly run?: undefined } | { readonly run: CommandRun });

/** The handlers' part, loaded when a command first runs (scripts/build.mjs sends this require to its file). */
const handlers = lazyPart('commands', () => require('./handlers') as typeof Handlers);

/** A row's handler; the handlers' part is loaded on the first run of a command it holds. */
export function rowHandler(row: CommandRow): CommandRun {
  return row.run ?? (handlers()[row.handler] as CommandRun);
}

/**
 * The one way every command runs (like Azure's callWithTelemetryAndErrorHandling): a dismissed wizard ends
 * quietly, a cancellation is only logged, any other failure is logged and shown readably with "Show Log"
 * (src/app/failures.ts). Handlers therefore catch only to do something specific. Returns the handler's result,
 * or undefined when it failed (once the failure is logged and shown).
 */
export async function runCommand(ctx: AppContext, row: CommandRow, args: CommandArgs = {}): Promise<unknown> {
  try {
    return await rowHandler(row)(ctx, args);
  } catch (error) {
    if (error instanceof Dismissed) return undefined;
    // Shown, not awaited: the command ends now, whenever (if ever) the user answers the message's "Show Log".
    if (error instanceof StepFailure) void reportFailure(ctx.ui, ctx.log, error.what, error.error);
    // The table's titles are English; their translations are in l10n/bundle.l10n.<lang>.json all the same.
    else void reportFailure(ctx.ui, ctx.log, commandTitle(row), error);
    return undefined;
  }
}

/** A row's title in the display language (the rows are English, a translation looks it up by that text). */
export function commandTitle(row: Pick<CommandRow, 'title'>): string {
  const title = row.title;
  return l10n.t(title);
}
