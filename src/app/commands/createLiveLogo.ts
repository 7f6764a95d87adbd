import type { LiveLogo, LiveLogoInput } from '../../api/types';
import type { AppContext } from '../context';
import { answered, askInteger, askText } from './inputs';

/** videoPlatform.createLiveLogo: a wizard over the liveLogoCreate fields (interface 4.2). */
export async function createLiveLogo(ctx: AppContext): Promise<LiveLogo | undefined> {
  const title = 'Create live logo';
  const ui = ctx.ui;
  const name = answered(await askText(ui, { title, field: 'Logo name', prompt: 'Name of the logo', maxLength: 100 }));
  const uri = answered(
    await askText(ui, {
      title,
      field: 'Image path',
      prompt: 'Relative path of the logo image on the platform',
      placeHolder: 'logos/station.png',
      rule: (value) =>
        /^[a-z][a-z0-9+.-]*:\/\//i.test(value) || value.startsWith('/')
          ? 'Image path must be relative (no scheme, no leading /)'
          : undefined,
    }),
  );
  const input: LiveLogoInput = {
    name,
    uri,
    width: answered(await askInteger(ui, { title, field: 'Width', prompt: 'Logo width in pixels', min: 1, max: 7680 })),
    height: answered(
      await askInteger(ui, { title, field: 'Height', prompt: 'Logo height in pixels', min: 1, max: 4320 }),
    ),
    offsetWidth: answered(
      await askInteger(ui, {
        title,
        field: 'Horizontal offset',
        prompt: 'Offset of the upper-left corner from the left, in pixels',
        value: 0,
        min: 0,
        max: 7680,
      }),
    ),
    offsetHeight: answered(
      await askInteger(ui, {
        title,
        field: 'Vertical offset',
        prompt: 'Offset of the upper-left corner from the top, in pixels',
        value: 0,
        min: 0,
        max: 4320,
      }),
    ),
    opacity: answered(
      await askInteger(ui, {
        title,
        field: 'Opacity',
        prompt: 'Opacity in percent, 100 is opaque',
        value: 100,
        min: 0,
        max: 100,
      }),
    ),
    resize: answered(
      await askInteger(ui, {
        title,
        field: 'Scale',
        prompt: 'Scale in percent, 100 is no scaling',
        value: 100,
        min: 1,
        max: 100,
      }),
    ),
  };
  const client = await ctx.connection.activeClient();
  const logo = await ui.withProgress({ title: `Creating live logo "${name}"`, cancellable: true }, ({ signal }) =>
    client.liveLogoCreate(input, { signal }),
  );
  ctx.log.info(`Created live logo ${logo.id} (${logo.httpUrl})`);
  ctx.models.resources.refresh('liveLogo');
  void ui
    .info(`Created live logo "${logo.name}" (id ${logo.id}).`, 'Copy Id')
    .then((choice) => (choice === 'Copy Id' ? ui.copy(logo.id) : undefined));
  return logo;
}
