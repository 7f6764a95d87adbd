import type { LiveTemplate, LiveTemplateUpdate } from '../../api/types';
import type { AppContext } from '../context';
import { l10n } from '../../l10n/l10n';
import { answered, askInteger, askText } from '../ask/inputs';

/** The numeric fields the wizard walks through, with the ranges it accepts (translated when asked, not at load). */
const numbers = () =>
  [
    { key: 'videoWidth', field: l10n.t('Video width'), prompt: l10n.t('Output width in pixels'), min: 16, max: 7680 },
    {
      key: 'videoHeight',
      field: l10n.t('Video height'),
      prompt: l10n.t('Output height in pixels'),
      min: 16,
      max: 4320,
    },
    {
      key: 'videoBitrate',
      field: l10n.t('Video bitrate'),
      prompt: l10n.t('Video bitrate in kbps'),
      min: 50,
      max: 100000,
    },
    { key: 'audioBitrate', field: l10n.t('Audio bitrate'), prompt: l10n.t('Audio bitrate in kbps'), min: 8, max: 1024 },
    { key: 'frameRate', field: l10n.t('Frame rate'), prompt: l10n.t('Frames per second'), min: 1, max: 120 },
  ] as const;

/**
 * videoPlatform.updateLiveTemplate: a quick-input wizard over liveGetTemplates; each step shows
 * the current value (Enter keeps it); only changed fields are sent.
 */
export async function updateLiveTemplate(ctx: AppContext): Promise<LiveTemplate | undefined> {
  const title = l10n.t('Update live template');
  const client = await ctx.connection.activeClient();
  const templates = await client.liveGetTemplates();
  if (templates.length === 0) {
    await ctx.ui.info(l10n.t('This account has no live template to update.'));
    return undefined;
  }
  const template = answered(
    await ctx.ui.pick(
      templates.map((candidate) => ({
        label: candidate.displayName,
        description: `${candidate.videoWidth}x${candidate.videoHeight} · ${candidate.videoBitrate} kbps · ${candidate.frameRate} fps`,
        detail: candidate.id,
        value: candidate,
      })),
      { title, placeHolder: l10n.t('Choose the live template'), matchOnDescription: true },
    ),
  );
  const step = l10n.t('{0}: {1}', title, template.displayName);
  const update: LiveTemplateUpdate = { id: template.id };
  const displayName = answered(
    await askText(ctx.ui, {
      title: step,
      field: l10n.t('Display name'),
      prompt: l10n.t('Display name'),
      value: template.displayName,
      maxLength: 100,
    }),
  );
  if (displayName !== template.displayName) update.displayName = displayName;
  for (const number of numbers()) {
    const value = answered(
      await askInteger(ctx.ui, {
        title: step,
        field: number.field,
        prompt: number.prompt,
        value: template[number.key],
        min: number.min,
        max: number.max,
      }),
    );
    if (value !== template[number.key]) update[number.key] = value;
  }
  if (Object.keys(update).length === 1) {
    await ctx.ui.info(l10n.t('Nothing changed in live template "{0}".', template.displayName));
    return undefined;
  }
  const updated = await ctx.ui.withProgress(
    { title: l10n.t('Updating live template "{0}"', template.displayName), cancellable: true },
    ({ signal }) => client.liveTemplateUpdate(update, { signal }),
  );
  ctx.log.info(
    `Updated live template ${updated.id}: ${Object.keys(update)
      .filter((key) => key !== 'id')
      .join(', ')}`,
  );
  ctx.models.resources.refresh('liveTemplate');
  void ctx.ui.info(l10n.t('Updated live template "{0}" ({1}).', updated.displayName, updated.name));
  return updated;
}
