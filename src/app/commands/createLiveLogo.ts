import type { LiveLogo, LiveLogoInput } from '../../api/types';
import type { AppContext } from '../context';
import { l10n } from '../../l10n/l10n';
import { answered, askInteger, askText } from '../ask/inputs';

/** videoPlatform.createLiveLogo: a wizard over the liveLogoCreate fields (interface 4.2). */
export async function createLiveLogo(ctx: AppContext): Promise<LiveLogo | undefined> {
  const title = l10n.t('Create live logo');
  const ui = ctx.ui;
  const name = answered(
    await askText(ui, { title, field: l10n.t('Logo name'), prompt: l10n.t('Name of the logo'), maxLength: 100 }),
  );
  const uri = answered(
    await askText(ui, {
      title,
      field: l10n.t('Image path'),
      prompt: l10n.t('Relative path of the logo image on the platform'),
      placeHolder: 'logos/station.png',
      rule: (value) =>
        /^[a-z][a-z0-9+.-]*:\/\//i.test(value) || value.startsWith('/')
          ? l10n.t('Image path must be relative (no scheme, no leading /)')
          : undefined,
    }),
  );
  const input: LiveLogoInput = {
    name,
    uri,
    width: answered(
      await askInteger(ui, {
        title,
        field: l10n.t('Width'),
        prompt: l10n.t('Logo width in pixels'),
        min: 1,
        max: 7680,
      }),
    ),
    height: answered(
      await askInteger(ui, {
        title,
        field: l10n.t('Height'),
        prompt: l10n.t('Logo height in pixels'),
        min: 1,
        max: 4320,
      }),
    ),
    offsetWidth: answered(
      await askInteger(ui, {
        title,
        field: l10n.t('Horizontal offset'),
        prompt: l10n.t('Offset of the upper-left corner from the left, in pixels'),
        value: 0,
        min: 0,
        max: 7680,
      }),
    ),
    offsetHeight: answered(
      await askInteger(ui, {
        title,
        field: l10n.t('Vertical offset'),
        prompt: l10n.t('Offset of the upper-left corner from the top, in pixels'),
        value: 0,
        min: 0,
        max: 4320,
      }),
    ),
    opacity: answered(
      await askInteger(ui, {
        title,
        field: l10n.t('Opacity'),
        prompt: l10n.t('Opacity in percent, 100 is opaque'),
        value: 100,
        min: 0,
        max: 100,
      }),
    ),
    resize: answered(
      await askInteger(ui, {
        title,
        field: l10n.t('Scale'),
        prompt: l10n.t('Scale in percent, 100 is no scaling'),
        value: 100,
        min: 1,
        max: 100,
      }),
    ),
  };
  const client = await ctx.connection.activeClient();
  const logo = await ui.withProgress(
    { title: l10n.t('Creating live logo "{0}"', name), cancellable: true },
    ({ signal }) => client.liveLogoCreate(input, { signal }),
  );
  ctx.log.info(`Created live logo ${logo.id} (${logo.httpUrl})`);
  ctx.models.resources.refresh('liveLogo');
  const copyId = l10n.t('Copy Id');
  void ui
    .info(l10n.t('Created live logo "{0}" (id {1}).', logo.name, logo.id), copyId)
    .then((choice) => (choice === copyId ? ui.copy(logo.id) : undefined));
  return logo;
}
