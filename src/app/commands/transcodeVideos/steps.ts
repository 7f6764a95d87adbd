import { l10n } from '../../../l10n/l10n';
import { answered } from '../../ask/inputs';
import type { PromptStep } from '../../ask/wizard';
import { step } from '../../failures';
import type { PickItem } from '../../ui';
import { baseName, readAdHocSource } from './adHoc';
import type { Source, TranscodeState } from './state';

/** The sources offered: the open job files' ad-hoc templates, then the account's template groups. */
export function sourceItems(state: Pick<TranscodeState, 'files' | 'groups'>): PickItem<Source>[] {
  const items: PickItem<Source>[] = [];
  if (state.files.length) {
    items.push({ label: l10n.t('Ad-hoc templates (open files)'), separator: true });
    for (const document of state.files)
      items.push({
        label: `$(file) ${baseName(document.fileName)}`,
        description: l10n.t('templates of this file, for this run only'),
        value: { kind: 'file', document },
      });
  }
  if (state.groups.length) {
    items.push({ label: l10n.t('Template groups'), separator: true });
    for (const group of state.groups) {
      items.push({
        label: `$(layers) ${group.name}`,
        description: [
          group.defaultGroup ? l10n.t('default') : '',
          group.type === 1 ? 'VR' : '',
          l10n.t('id {0}', group.id),
        ]
          .filter(Boolean)
          .join(' · '),
        value: { kind: 'group', group },
      });
    }
  }
  return items;
}

/** A template group, or an open job file's templates (read and checked at once: nothing is sent when they break a rule). */
const sourceStep: PromptStep<TranscodeState> = {
  shown: 1,
  async prompt(state) {
    const source = answered(
      await state.ctx.ui.pick(sourceItems(state), {
        title: l10n.t('{0}: {1}', state.title, state.names),
        placeHolder: l10n.t('Transcode with...'),
      }),
    );
    state.source = source;
    if (source.kind === 'file')
      state.adHoc = await step(l10n.t('Use {0}', baseName(source.document.fileName)), async () =>
        readAdHocSource(source.document),
      );
  },
};

/** Save as (a new video item) or replace the renditions; a job file's `replace` is offered first. */
const replaceStep: PromptStep<TranscodeState> = {
  shown: 2,
  async prompt(state) {
    const items: PickItem<boolean>[] = [
      {
        label: l10n.t('$(add) Save as'),
        description: l10n.t('adds the new renditions as a new video item; keeps the current ones'),
        value: false,
      },
      {
        label: l10n.t('$(replace) Replace'),
        description: l10n.t('deletes the earlier renditions once the new ones are done'),
        value: true,
      },
    ];
    if (state.adHoc?.replace === true) items.reverse();
    state.replace = answered(
      await state.ctx.ui.pick(items, {
        title: l10n.t('{0}: {1}', state.title, state.names),
        placeHolder: l10n.t('Keep or replace the current renditions?'),
      }),
    );
  },
};

export const transcodeSteps = [sourceStep, replaceStep];
