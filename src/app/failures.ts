import { ApiError, PlatformError, TransportError } from '../api/errors';
import { translatedExplanation } from '../authoring/explanation';
import { l10n } from '../l10n/l10n';
import type { LogSink } from './log';
import { Dismissed } from './ask/inputs';
import type { Ui } from './ui';

/** The user cancelled (our AbortSignal fired): nothing alarming to show. */
export function isCancellation(error: unknown): boolean {
  if (error instanceof TransportError) return error.kind === 'aborted';
  return error instanceof Error && error.name === 'AbortError';
}

/**
 * One readable sentence for any failure: the platform's explanation for an ApiError (with the code,
 * so that it can be looked up), the client's sentence for a TransportError, the message otherwise.
 */
export function describeFailure(error: unknown): string {
  if (error instanceof ApiError)
    return l10n.t(
      '{0} ({1}: code {2}, {3})',
      translatedExplanation(error),
      error.action,
      error.code,
      error.platformMessage || l10n.t('no message'),
    );
  if (error instanceof PlatformError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * Logs the failure and shows it with a "Show Log" button; a cancellation is only logged.
 * `what` says what was being done ("Start channel "News""), so the message stands on its own.
 */
export async function reportFailure(
  ui: Pick<Ui, 'error' | 'showLog'>,
  log: LogSink,
  what: string,
  error: unknown,
): Promise<void> {
  if (isCancellation(error)) {
    log.info(`${what}: cancelled`);
    return;
  }
  const text = l10n.t('{0} failed: {1}', what, describeFailure(error));
  log.error(text);
  const showLog = l10n.t('Show Log');
  const choice = await ui.error(text, showLog);
  if (choice === showLog) ui.showLog();
}

/**
 * Work nobody waits for (a refresh after a change, a clean-up, a context key): its failure is logged as `what`
 * failed instead of becoming an unhandled rejection.
 */
export function inBackground(log: LogSink, what: string, work: PromiseLike<unknown>): void {
  Promise.resolve(work).catch((error: unknown) => {
    if (!isCancellation(error)) log.warn(`${what} failed: ${describeFailure(error)}`);
  });
}

/** A failure with what was being done ("Delete "News""), for the wrapper's message instead of the command's title. */
export class StepFailure extends Error {
  constructor(
    readonly what: string,
    readonly error: unknown,
  ) {
    super(l10n.t('{0} failed: {1}', what, describeFailure(error)));
    this.name = 'StepFailure';
  }
}

/** Runs one step of a command; a failure is reported (by the wrapper) as `what` failed. */
export async function step<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // A dismissed wizard stays quiet; an inner step's name is the more precise one.
    throw error instanceof StepFailure || error instanceof Dismissed ? error : new StepFailure(what, error);
  }
}
