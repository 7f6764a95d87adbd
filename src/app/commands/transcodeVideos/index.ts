import type { SecondTranscodeJob, SecondTranscodeResult, TemplateGroupSummary, Video } from '../../../api/types';
import { VideoStatuses } from '../../../api/types';
import { l10n } from '../../../l10n/l10n';
import { Dismissed } from '../../ask/inputs';
import { nameList, resolveVideos } from '../../ask/targets';
import { runWizard } from '../../ask/wizard';
import type { AppContext, CommandArgs } from '../../context';
import { step } from '../../failures';
import { reportTranscode } from './report';
import type { TranscodeState } from './state';
import { sourceItems, transcodeSteps } from './steps';

export { readAdHocSource, type AdHocSource } from './adHoc';

/**
 * Uploaded (0), transcoded (2) or failed (3): the platform refuses the others (1 and 6 are
 * transcoding, 7 is queued, 4 and 5 have no usable source). The Videos view's menu follows this.
 */
export function canTranscode(video: Video): boolean {
  return (
    video.status === VideoStatuses.uploadFinished ||
    video.status === VideoStatuses.completed ||
    video.status === VideoStatuses.failed
  );
}

export interface TranscodeOutcome {
  readonly job: SecondTranscodeJob;
  readonly results: SecondTranscodeResult[];
}

/**
 * videoPlatform.transcodeVideos: the selected (or picked) videos, with a template group or the
 * ad-hoc templates of an open `*.transcode.json`, replacing or saving as (steps.ts); per-video outcomes are
 * reported and the accepted videos followed until done (report.ts).
 */
export async function transcodeVideos(ctx: AppContext, args: CommandArgs = {}): Promise<TranscodeOutcome | undefined> {
  const state = await transcodeState(ctx, args);
  if (!state) return undefined;
  if (sourceItems(state).length === 0) {
    await ctx.ui.warn(l10n.t('There is no template group in this account and no *.transcode.json file is open.'));
    return undefined;
  }
  try {
    await runWizard(ctx.ui, { state, promptSteps: transcodeSteps });
  } catch (error) {
    if (error instanceof Dismissed) return undefined;
    throw error;
  }
  const job = jobOf(state);
  const { results, epoch } = await step(l10n.t('Transcode {0}', state.names), async () => {
    const client = await ctx.connection.activeClient();
    const epoch = ctx.connection.epoch;
    const results: SecondTranscodeResult[] = await ctx.ui.withProgress(
      { title: l10n.t('Requesting transcoding of {0}', state.names), cancellable: true },
      ({ signal }) => client.secondTranscodeV2(job, { signal }),
    );
    return { results, epoch };
  });
  reportTranscode(state, job, results, epoch);
  return { job, results };
}

/** The videos (those that can be transcoded), the account's template groups and the open job files. */
async function transcodeState(ctx: AppContext, args: CommandArgs): Promise<TranscodeState | undefined> {
  const title = l10n.t('Transcode videos');
  const videos = await resolveVideos(ctx, args, {
    title,
    many: true,
    eligible: canTranscode,
    why: l10n.t('only uploaded, transcoded or failed videos can be transcoded'),
  });
  if (!videos) return undefined;
  const names = nameList(
    videos.map((video) => video.title || video.fileName),
    'videos',
  );
  const groups: TemplateGroupSummary[] = await step(l10n.t('Read the template groups'), async () =>
    (await ctx.connection.activeClient()).templateGroupList(),
  );
  const files = ctx.editor
    .openDocuments()
    .filter((document) => document.fileName.toLowerCase().endsWith('.transcode.json'));
  return { ctx, title, videos, names, groups, files };
}

/** The secondTranscodeV2 job the answers describe. */
function jobOf(state: TranscodeState): SecondTranscodeJob {
  const job: SecondTranscodeJob = { videoIds: state.videos.map((video) => video.id), replace: state.replace! };
  const adHoc = state.adHoc;
  if (adHoc) {
    job.transcodeTemplates = adHoc.transcodeTemplates;
    if (adHoc.videoType !== undefined) job.videoType = adHoc.videoType;
    if (adHoc.trailor !== undefined) job.trailor = adHoc.trailor;
    if (adHoc.trailorDuration !== undefined) job.trailorDuration = adHoc.trailorDuration;
  } else if (state.source?.kind === 'group') {
    job.transcodeTemplateGroupId = state.source.group.id;
  }
  return job;
}
