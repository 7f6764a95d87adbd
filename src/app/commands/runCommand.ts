import type { AppContext, CommandArgs } from '../context';
import { reportFailure, StepFailure } from '../failures';
import { l10n } from '../../l10n/l10n';
import { Dismissed } from '../ask/inputs';

/** One command: its id (package.json contributes.commands), what it does, and its handler. */
export interface CommandRow {
  readonly id: `videoPlatform.${string}`;
  /** What the command does, for its failure message ("Create channel failed: ..."). */
  readonly title: string;
  readonly run: (ctx: AppContext, args: CommandArgs) => unknown;
  /** The handler's name in ./handlers.ts, whose part `run` loads on the first run (./commandTable.ts). */
  readonly handler?: string;
}

/**
 * The one way every command runs (like Azure's callWithTelemetryAndErrorHandling): a dismissed wizard ends
 * quietly, a cancellation is only logged, any other failure is logged and shown readably with "Show Log"
 * (src/app/failures.ts). Handlers therefore catch only to do something specific. Returns the handler's result,
 * or undefined when it failed (once the failure is logged and shown).
 */
export async function runCommand(ctx: AppContext, row: CommandRow, args: CommandArgs = {}): Promise<unknown> {
  try {
    return await row.run(ctx, args);
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
