import { describeFailure, isCancellation, reportFailure } from '../failures';
import type { AppContext } from '../context';
import { l10n } from '../../l10n/l10n';

export interface BatchOutcome<T, R> {
  readonly done: Array<{ item: T; result: R }>;
  readonly failed: Array<{ item: T; error: unknown }>;
  /** The user cancelled; items after the cancelled one were not tried. */
  readonly cancelled: boolean;
}

export interface BatchOptions<T, R> {
  /** Progress title, e.g. `Starting "News"`. */
  readonly title: string;
  readonly items: readonly T[];
  readonly name: (item: T) => string;
  /** `report` adds to the progress notification (a message, and optionally an increment in percent). */
  readonly run: (item: T, signal: AbortSignal, report: (message: string, increment?: number) => void) => Promise<R>;
  /** Transient tree state around each item ("Starting..."). */
  readonly begin?: (item: T) => void;
  readonly end?: (item: T) => void;
}

/**
 * Runs one platform call per item, one after the other, under a cancellable progress
 * notification. Failures are collected, not thrown; cancelling stops after the current call.
 */
export async function runBatch<T, R>(ctx: AppContext, options: BatchOptions<T, R>): Promise<BatchOutcome<T, R>> {
  const done: Array<{ item: T; result: R }> = [];
  const failed: Array<{ item: T; error: unknown }> = [];
  let cancelled = false;
  for (const item of options.items) options.begin?.(item);
  try {
    await ctx.ui.withProgress({ title: options.title, cancellable: true }, async (progress) => {
      for (const item of options.items) {
        if (progress.signal.aborted) {
          cancelled = true;
          break;
        }
        if (options.items.length > 1) progress.report(options.name(item));
        try {
          done.push({
            item,
            result: await options.run(item, progress.signal, (message, increment) =>
              progress.report(message, increment),
            ),
          });
        } catch (error) {
          if (isCancellation(error) || progress.signal.aborted) {
            cancelled = true;
            break;
          }
          failed.push({ item, error });
        } finally {
          options.end?.(item);
        }
      }
    });
  } finally {
    for (const item of options.items) options.end?.(item);
  }
  return { done, failed, cancelled };
}

/**
 * One message for the failures of a batch ("Could not start "News": ..."), with Show Log; a
 * cancellation is only logged.
 */
export async function reportBatch<T>(
  ctx: AppContext,
  what: string,
  outcome: BatchOutcome<T, unknown>,
  name: (item: T) => string,
): Promise<void> {
  if (outcome.cancelled) ctx.log.info(`${what}: cancelled by the user after ${outcome.done.length} done`);
  if (outcome.failed.length === 0) return;
  if (outcome.failed.length === 1) {
    const only = outcome.failed[0]!;
    await reportFailure(ctx.ui, ctx.log, l10n.t('{0} "{1}"', what, name(only.item)), only.error);
    return;
  }
  const details = outcome.failed.map(({ item, error }) => `"${name(item)}": ${describeFailure(error)}`).join('; ');
  await reportFailure(ctx.ui, ctx.log, l10n.t('{0} ({1} items)', what, outcome.failed.length), new Error(details));
}
