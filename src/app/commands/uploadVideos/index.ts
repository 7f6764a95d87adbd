import { basename } from 'node:path';
import type { UploadedVideo } from '../../../api/types';
import { VideoStatuses } from '../../../api/types';
import { l10n } from '../../../l10n/l10n';
import { nameList } from '../../ask/targets';
import { runWizard } from '../../ask/wizard';
import type { AppContext, CommandArgs } from '../../context';
import { reportBatch, type BatchOutcome } from '../batch';
import { filesToUpload } from './files';
import type { UploadState } from './state';
import { uploadSteps } from './steps';
import { uploadAll } from './upload';

export { MEDIA_EXTENSIONS } from './files';

export interface UploadOutcome {
  readonly uploaded: UploadedVideo[];
  readonly failed: string[];
}

/**
 * videoPlatform.uploadVideo: media files from the Explorer (several at once) or the file dialog, with a
 * category and a template group (the default, one of the account's, or none: no transcoding) asked with
 * quick picks (steps.ts); uploaded one after the other under a cancellable progress (upload.ts). The new
 * videos show in the Videos view, which follows their transcoding until it ends.
 */
export async function uploadVideos(ctx: AppContext, args: CommandArgs = {}): Promise<UploadOutcome | undefined> {
  const title = l10n.t('Upload Video');
  const files = await filesToUpload(ctx, args, title);
  const names = nameList(
    files.map((file) => basename(file)),
    'files',
  );
  const client = await ctx.connection.activeClient();
  const epoch = ctx.connection.epoch;
  const state = await runWizard<UploadState>(ctx.ui, {
    state: { ctx, title, files, names, client },
    promptSteps: uploadSteps,
  });
  // The batch has a progress of its own (one bar over the files), so it runs after the wizard, not as its step.
  const outcome = await uploadAll(state);
  const uploaded = outcome.done.map(({ result }) => result);
  const ids = uploaded.map((video) => video.videoId);
  ctx.log.info(`${title}: ${uploaded.length} of ${files.length} uploaded${ids.length ? ` (${ids.join(', ')})` : ''}`);
  if (ids.length) showUploaded(ctx, state, uploaded, epoch);
  await reportBatch(ctx, l10n.t('Upload'), outcome, (file) => basename(file));
  return { uploaded, failed: failedFiles(outcome) };
}

function failedFiles(outcome: BatchOutcome<string, UploadedVideo>): string[] {
  return outcome.failed.map(({ item }) => item);
}

/** The new videos at the top of the list; the poller follows them until their transcoding ends. */
function showUploaded(ctx: AppContext, state: UploadState, uploaded: readonly UploadedVideo[], epoch: number): void {
  const ids = uploaded.map((video) => video.videoId);
  const transcoded = state.transcoding?.kind !== 'none';
  // Queued (status 7) per the upload's answer: followed as settling from the start.
  const queued = uploaded
    .filter((video) => video.status === VideoStatuses.waiting || video.status === VideoStatuses.transcoding)
    .map((video) => video.videoId);
  if (transcoded) {
    ctx.models.videos.track(queued, epoch, true);
    ctx.models.videos.track(
      ids.filter((id) => !queued.includes(id)),
      epoch,
    );
  }
  ctx.models.videos.refresh();
  ctx.poller.videos.kick();
  const what = nameList(
    uploaded.map((video) => video.fileName),
    'videos',
  );
  void ctx.ui.info(
    !transcoded
      ? l10n.t('Uploaded {0}.', what)
      : ids.length === 1
        ? l10n.t('Uploaded {0}; the Videos view follows its transcoding until it ends.', what)
        : l10n.t('Uploaded {0}; the Videos view follows their transcoding until it ends.', what),
  );
}
