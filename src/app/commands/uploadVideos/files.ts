import { extname } from 'node:path';
import { l10n } from '../../../l10n/l10n';
import { answered } from '../../ask/inputs';
import type { AppContext, CommandArgs } from '../../context';

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

/** The files to upload: the Explorer's selection (media files only), else the file dialog's. */
export async function filesToUpload(ctx: AppContext, args: CommandArgs, title: string): Promise<string[]> {
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
