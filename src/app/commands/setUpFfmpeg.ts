import { l10n } from '../../l10n/l10n';
import { findMediaTools, type MediaMode } from '../../media/tools';
import { FFMPEG_PATH_SETTING } from '../accounts/localPlatformHost';
import type { AppContext } from '../context';
import { needsFfmpeg, worksWithoutFfmpeg } from '../inspect/mediaTools';

/** Where each system's users get ffmpeg (the package managers discovery looks in). */
export function installInstructions(platform: NodeJS.Platform = process.platform): { system: string; url: string } {
  if (platform === 'darwin') return { system: 'macOS', url: 'https://formulae.brew.sh/formula/ffmpeg' };
  if (platform === 'win32') return { system: 'Windows', url: 'https://ffmpeg.org/download.html#build-windows' };
  return { system: 'Linux', url: 'https://ffmpeg.org/download.html#build-linux' };
}

type Choice = 'folder' | 'install' | 'clear';

/**
 * videoPlatform.setUpFfmpeg: says what was found and what works without ffmpeg, then offers to choose the folder
 * that holds it (checked before the setting is saved: a folder that fails changes nothing), to open the install
 * instructions for this system, or to clear the setting.
 */
export async function setUpFfmpeg(ctx: AppContext): Promise<MediaMode | undefined> {
  const tools = ctx.inspection.tools;
  const status = await ctx.ui.withProgress({ title: l10n.t('Looking for ffmpeg'), cancellable: false }, () =>
    tools.status(ctx.log),
  );
  const install = installInstructions();
  const items: Array<{ label: string; detail?: string; value: Choice }> = [
    {
      label: `$(folder-opened) ${l10n.t('Choose the folder that holds ffmpeg...')}`,
      detail: l10n.t('Saved in the setting {0} after a test encode', FFMPEG_PATH_SETTING),
      value: 'folder',
    },
    {
      label: `$(link-external) ${l10n.t('Open the install instructions for {0}', install.system)}`,
      detail: install.url,
      value: 'install',
    },
  ];
  if (tools.folder() !== '')
    items.push({
      label: `$(discard) ${l10n.t('Clear the setting: look on the PATH and in the usual places')}`,
      value: 'clear',
    });
  const choice = await ctx.ui.pick(items, {
    title: status.log[0] ?? '',
    placeHolder: status.found ? worksWithoutFfmpeg() : needsFfmpeg(),
  });
  if (choice === 'install') {
    await ctx.ui.openExternal(install.url);
    return undefined;
  }
  if (choice === 'clear') {
    await tools.setFolder('');
    return tools.mode();
  }
  if (choice === 'folder') return chooseFolder(ctx);
  return undefined;
}

async function chooseFolder(ctx: AppContext): Promise<MediaMode | undefined> {
  const [dir] =
    (await ctx.ui.openFiles({
      title: l10n.t('The folder that holds ffmpeg'),
      openLabel: l10n.t('Use this folder'),
      filters: {},
      folders: true,
    })) ?? [];
  if (!dir) return undefined;
  const mode = await ctx.ui.withProgress({ title: l10n.t('Checking ffmpeg in {0}', dir), cancellable: false }, () =>
    // Only this folder: no PATH, no usual places, so a failing ffmpeg here is not hidden by another one.
    findMediaTools({ dir, env: {}, places: [] }),
  );
  // A folder without a working ffmpeg is refused: the setting keeps its value.
  if (mode.kind !== 'real') throw new Error(l10n.t('{0} was not changed: {1}', FFMPEG_PATH_SETTING, mode.reason));
  await ctx.inspection.tools.setFolder(dir);
  ctx.log.info(l10n.t('ffmpeg {0} found: {1}', mode.tools.version, mode.tools.ffmpeg));
  void ctx.ui.info(
    l10n.t(
      'ffmpeg {0} in {1} is used from now on (the local platform uses it from its next start).',
      mode.tools.version,
      dir,
    ),
  );
  return mode;
}
