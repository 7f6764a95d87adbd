import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { UploadedVideo, UploadInput } from '../../../api/types';
import { l10n } from '../../../l10n/l10n';
import { step } from '../../failures';
import { runBatch, type BatchOutcome } from '../batch';
import type { UploadState } from './state';

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** What every file is sent with: the token, the category and the transcoding. */
function uploadFields(state: UploadState): Omit<UploadInput, 'file' | 'token'> {
  const { categoryId = 0, transcoding } = state;
  return {
    ...(categoryId > 0 ? { categoryId } : {}),
    ...(transcoding?.kind === 'none' ? { isTranscoder: false } : {}),
    ...(transcoding?.kind === 'group' ? { transcodeTemplateGroupId: transcoding.group.id } : {}),
    // A VR group (type 1) transcodes VR videos.
    ...(transcoding?.kind === 'group' && transcoding.group.type === 1 ? { videoType: 1 as const } : {}),
  };
}

/** The sum of the files' sizes (at least 1), for one bar over the whole batch. */
async function totalSize(files: readonly string[]): Promise<number> {
  const sizes = await Promise.all(
    files.map((file) =>
      stat(file).then(
        (info) => info.size,
        () => 0,
      ),
    ),
  );
  return Math.max(
    1,
    sizes.reduce((sum, size) => sum + size, 0),
  );
}

/**
 * Uploads the files one after the other under a cancellable progress (bytes and percent), with one token for the
 * whole batch; a failed file does not stop the others (runBatch).
 */
export async function uploadAll(state: UploadState): Promise<BatchOutcome<string, UploadedVideo>> {
  const { ctx, client } = state;
  const token = (await step(l10n.t('Get an upload token'), () => client.getToken())).accessToken;
  const totalBytes = await totalSize(state.files);
  const fields = uploadFields(state);
  let doneBytes = 0;
  let shownPercent = 0;
  return runBatch(ctx, {
    title: l10n.t('Uploading {0}', state.names),
    items: state.files,
    name: (file) => basename(file),
    run: async (file, signal, report) => {
      let fileBytes = 0;
      const [video] = await client.uploadVideo(
        { file, token, ...fields },
        {
          signal,
          onProgress: ({ sentBytes, totalBytes: size }) => {
            fileBytes = size;
            const percent = size === 0 ? 100 : Math.floor((sentBytes / size) * 100);
            const overall = Math.min(100, ((doneBytes + sentBytes) / totalBytes) * 100);
            report(
              l10n.t('{0}: {1} of {2} ({3}%)', basename(file), megabytes(sentBytes), megabytes(size), percent),
              overall - shownPercent,
            );
            shownPercent = overall;
          },
        },
      );
      doneBytes += fileBytes;
      if (!video) throw new Error(l10n.t('the platform answered without the uploaded video'));
      return video;
    },
  });
}
