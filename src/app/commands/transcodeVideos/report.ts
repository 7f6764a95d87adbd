import { explainCode } from '../../../api/errorCodes';
import type { SecondTranscodeJob, SecondTranscodeResult, Video } from '../../../api/types';
import { l10n } from '../../../l10n/l10n';
import type { AppContext } from '../../context';
import { transcodeJobWords } from '../../tree/videoPresentation';
import type { TranscodeState } from './state';

/** "2 of 3 videos queued" plus one line per refused video, with the code explained. */
function describeResults(
  results: readonly SecondTranscodeResult[],
  videos: readonly Video[],
): { ok: string[]; refused: string[] } {
  const title = (id: string): string => {
    const video = videos.find((candidate) => candidate.id === id);
    return l10n.t('"{0}"', video?.title || video?.fileName || id);
  };
  return {
    ok: results.filter((result) => result.code === 0).map((result) => result.id),
    refused: results
      .filter((result) => result.code !== 0)
      .map((result) => l10n.t('{0}: {1} (code {2})', title(result.id), explainCode(result.code), result.code)),
  };
}

/** The accepted videos followed in the view until done; per-video refusals shown with "Show Log". */
export function reportTranscode(
  state: TranscodeState,
  job: SecondTranscodeJob,
  results: readonly SecondTranscodeResult[],
  epoch: number,
): void {
  const { ctx, names } = state;
  const replace = job.replace;
  const { ok, refused } = describeResults(results, state.videos);
  ctx.log.info(
    `secondTranscodeV2: ${ok.length} accepted, ${refused.length} refused${refused.length ? `: ${refused.join('; ')}` : ''}`,
  );
  followAccepted(ctx, state, job, ok, epoch);
  if (refused.length) {
    const text = l10n.t(
      'Transcoding: {0} of {1} videos accepted. Refused: {2}',
      ok.length,
      results.length,
      refused.join('; '),
    );
    ctx.log.warn(text);
    const showLog = l10n.t('Show Log');
    void ctx.ui.warn(text, showLog).then((choice) => choice === showLog && ctx.ui.showLog());
  } else {
    void ctx.ui.info(
      replace
        ? l10n.t('Transcoding {0}: accepted; the Videos view follows it until done.', names)
        : l10n.t(
            'Transcoding {0}: accepted; the Videos view follows it until done, then lists the new copy (transcoded from its source).',
            names,
          ),
    );
  }
}

function followAccepted(
  ctx: AppContext,
  state: TranscodeState,
  job: SecondTranscodeJob,
  ok: readonly string[],
  epoch: number,
): void {
  const replace = job.replace;
  // Save as: when a source settles, the view reads its list again and the new copy shows ("transcoded from").
  ctx.models.videos.track([...ok], epoch, false, !replace);
  ctx.models.videos.describeJob(
    [...ok],
    transcodeJobWords(job, state.source?.kind === 'group' ? state.source.group.name : undefined),
  );
  for (const id of ok) void ctx.models.videos.refreshVideo(id).catch(() => undefined);
  if (!replace && ok.length) ctx.models.videos.refresh();
  ctx.poller.videos.kick();
}
