/**
 * A live channel's playlists are written a few seconds after its source arrives: inspecting it at once read
 * "HTTP 404" for its master or first variant. Before inspecting a running channel, its master and first variant
 * playlist are waited for (bounded, with progress and cancel); if they do not come, the user is told the channel
 * is still starting, not a bare 404.
 */
import { l10n } from '../../l10n/l10n';
import type { AppContext } from '../context';
import { readAtMost } from '../util/readAtMost';

/** Playlists are small; anything larger is not waited on (the inspection reports it). */
const MAX_PLAYLIST_BYTES = 1024 * 1024;

/** Missing for now: the platform has not written it yet. */
class NotYet extends Error {}

/** Waits until the master playlist at `address` and its first variant answer; throws "still starting" after the bound. */
export async function waitForLivePlaylists(ctx: AppContext, address: string, channelName: string): Promise<void> {
  const { startWaitMs, startPollMs } = ctx.inspection.live;
  const title = l10n.t('Waiting for the playlists of "{0}" (the channel is starting)', channelName);
  const ready = await ctx.ui.withProgress({ title, cancellable: true }, async ({ signal }) => {
    const deadline = Date.now() + startWaitMs;
    for (;;) {
      try {
        await readPlaylists(ctx, address, signal);
        return true;
      } catch (error) {
        if (!(error instanceof NotYet) || signal.aborted) throw error;
      }
      if (Date.now() + startPollMs > deadline) return false;
      await pause(startPollMs, signal);
    }
  });
  if (!ready)
    throw new Error(
      l10n.t(
        'the channel "{0}" is still starting: its playlist is not written yet (waited {1} s); try again in a few seconds',
        channelName,
        Math.round(startWaitMs / 1000),
      ),
    );
}

/** The master, then its first variant; NotYet while either is missing (404). Other answers go to the inspection. */
async function readPlaylists(ctx: AppContext, address: string, signal: AbortSignal): Promise<void> {
  const master = await readPlaylist(ctx, address, signal);
  if (master === undefined || !master.includes('#EXT-X-STREAM-INF')) return;
  const lines = master.split(/\r?\n/).map((line) => line.trim());
  const variant = lines.findIndex((line) => line.startsWith('#EXT-X-STREAM-INF'));
  const first = lines.slice(variant + 1).find((line) => line !== '' && !line.startsWith('#'));
  if (first) await readPlaylist(ctx, new URL(first, address).href, signal);
}

/** The text, or undefined for an answer that is neither missing nor a playlist (left to the inspection). */
async function readPlaylist(ctx: AppContext, address: string, signal: AbortSignal): Promise<string | undefined> {
  const answer = await ctx.inspection.fetch.get(address, AbortSignal.any([signal, AbortSignal.timeout(10_000)]));
  if (answer.status === 404) {
    await answer.body?.cancel();
    throw new NotYet(address);
  }
  if (answer.status !== 200 || !answer.body) {
    await answer.body?.cancel();
    return undefined;
  }
  return (await readAtMost(answer.body, MAX_PLAYLIST_BYTES))?.toString('utf8');
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', aborted);
      resolve();
    }, ms);
    signal.addEventListener('abort', aborted, { once: true });
  });
}
