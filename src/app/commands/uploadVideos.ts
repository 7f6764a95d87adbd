import { stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { TemplateGroupSummary, UploadedVideo } from '../../api/types';
import type { AppContext, CommandArgs } from '../context';
import { step } from '../failures';
import { l10n } from '../../l10n/l10n';
import type { PickItem } from '../ui';
import { runBatch, reportBatch } from './batch';
import { answered, askInteger } from '../ask/inputs';
import { formatCategory } from '../util/format';
import { nameList } from '../ask/targets';
import { seenVideoCategories } from './videoCategories';

/**
 * The file types offered for upload: the Explorer's context menu shows Upload Video on these
 * (package.json `explorer/context`, `resourceExtname`), and the file dialog filters by them.
 */
export const MEDIA_EXTENSIONS = [
  'mp4',
  'mov',
  'mkv',
  'webm',
  'ts',
  'flv',
  'm4v',
  'avi',
  'wmv',
  'mpg',
  'mpeg',
  '3gp',
  'mp3',
  'wav',
  'm4a',
  'aac',
  'flac',
  'ogg',
] as const;

/** Which template group transcodes the uploads: the account's default, a chosen one, or none. */
type Transcoding = { kind: 'default' } | { kind: 'group'; group: TemplateGroupSummary } | { kind: 'none' };

export interface UploadOutcome {
  readonly uploaded: UploadedVideo[];
  readonly failed: string[];
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The files to upload: the Explorer's selection (media files only), else the file dialog's. */
async function filesToUpload(ctx: AppContext, args: CommandArgs, title: string): Promise<string[]> {
  if (args.files && args.files.length > 0) {
    const media = args.files.filter((file) =>
      (MEDIA_EXTENSIONS as readonly string[]).includes(extname(file).slice(1).toLowerCase()),
    );
    const skipped = args.files.length - media.length;
    if (skipped > 0)
      ctx.log.info(`${title}: ${skipped} selected file${skipped > 1 ? 's are' : ' is'} not media and left out`);
    if (media.length > 0) return media;
    throw new Error(
      l10n.t('none of the selected files is a media file ({0})', MEDIA_EXTENSIONS.map((e) => `.${e}`).join(' ')),
    );
  }
  return answered(
    await ctx.ui.openFiles({
      title,
      openLabel: l10n.t('Upload'),
      filters: { [l10n.t('Media')]: MEDIA_EXTENSIONS, [l10n.t('All files')]: ['*'] },
    }),
  );
}

/**
 * videoPlatform.uploadVideo: media files from the Explorer (several at once) or the file dialog, with a
 * category and a template group (the default, one of the account's, or none: no transcoding) asked with
 * quick picks; uploaded one after the other under a cancellable progress (bytes and percent). The new
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

  const categoryItems: PickItem<number | 'other'>[] = [
    { label: `$(circle-slash) ${formatCategory(undefined)}`, value: 0 },
    ...seenVideoCategories(ctx)
      .filter(({ id }) => id > 0)
      .map(({ id, name }) => ({ label: formatCategory({ name, id }), value: id })),
    { label: `$(edit) ${l10n.t('Enter a category id...')}`, value: 'other' },
  ];
  const pickedCategory = answered(
    await ctx.ui.pick(categoryItems, {
      title: l10n.t('{0}: {1}', title, names),
      placeHolder: l10n.t('Video category'),
    }),
  );
  const categoryId =
    pickedCategory === 'other'
      ? answered(
          await askInteger(ctx.ui, {
            title,
            field: l10n.t('Category id'),
            prompt: l10n.t('Video category id'),
            min: 0,
            max: 2 ** 31 - 1,
          }),
        )
      : pickedCategory;

  const groups = await step(l10n.t('Read the template groups'), () => client.templateGroupList());
  const defaultGroup = groups.find((group) => group.defaultGroup);
  const transcoding = answered(
    await ctx.ui.pick<Transcoding>(
      [
        {
          label: `$(star) ${l10n.t('Default group')}`,
          description: defaultGroup ? `"${defaultGroup.name}"` : l10n.t("the account's default group"),
          value: { kind: 'default' },
        },
        ...groups.map((group) => ({
          label: `$(layers) ${group.name}`,
          description: [group.type === 1 ? 'VR' : '', l10n.t('id {0}', group.id)].filter(Boolean).join(' · '),
          value: { kind: 'group', group } as Transcoding,
        })),
        {
          label: `$(circle-slash) ${l10n.t('None: no transcoding')}`,
          description: l10n.t('keep the file as uploaded'),
          value: { kind: 'none' },
        },
      ],
      { title: l10n.t('{0}: {1}', title, names), placeHolder: l10n.t('Transcode with...') },
    ),
  );

  // One token for the whole batch; the files' bytes fill one bar.
  const token = (await step(l10n.t('Get an upload token'), () => client.getToken())).accessToken;
  const sizes = await Promise.all(
    files.map((file) =>
      stat(file).then(
        (info) => info.size,
        () => 0,
      ),
    ),
  );
  const totalBytes = Math.max(
    1,
    sizes.reduce((sum, size) => sum + size, 0),
  );
  let doneBytes = 0;
  let shownPercent = 0;
  const outcome = await runBatch(ctx, {
    title: l10n.t('Uploading {0}', names),
    items: files,
    name: (file) => basename(file),
    run: async (file, signal, report) => {
      let fileBytes = 0;
      const [video] = await client.uploadVideo(
        {
          file,
          token,
          ...(categoryId > 0 ? { categoryId } : {}),
          ...(transcoding.kind === 'none' ? { isTranscoder: false } : {}),
          ...(transcoding.kind === 'group' ? { transcodeTemplateGroupId: transcoding.group.id } : {}),
          // A VR group (type 1) transcodes VR videos.
          ...(transcoding.kind === 'group' && transcoding.group.type === 1 ? { videoType: 1 as const } : {}),
        },
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

  const uploaded = outcome.done.map(({ result }) => result);
  const ids = uploaded.map((video) => video.videoId);
  ctx.log.info(`${title}: ${uploaded.length} of ${files.length} uploaded${ids.length ? ` (${ids.join(', ')})` : ''}`);
  if (ids.length) {
    // The new videos show at the top of the list; the poller follows them until their transcoding ends.
    // Queued (status 7) per the upload's answer: followed as settling from the start.
    const queued = uploaded.filter((video) => video.status === 7 || video.status === 1).map((video) => video.videoId);
    if (transcoding.kind !== 'none') {
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
      transcoding.kind === 'none'
        ? l10n.t('Uploaded {0}.', what)
        : ids.length === 1
          ? l10n.t('Uploaded {0}; the Videos view follows its transcoding until it ends.', what)
          : l10n.t('Uploaded {0}; the Videos view follows their transcoding until it ends.', what),
    );
  }
  await reportBatch(ctx, l10n.t('Upload'), outcome, (file) => basename(file));
  return { uploaded, failed: outcome.failed.map(({ item }) => item) };
}
