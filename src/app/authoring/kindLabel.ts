import type { DocumentKind } from '../../authoring/documentKind';
import { l10n } from '../l10n';

/**
 * A document kind in the user's words and language, for messages (src/authoring's KIND_LABELS stays English:
 * that room has no l10n).
 */
export function kindLabel(kind: DocumentKind): string {
  switch (kind) {
    case 'channel':
      return l10n.t('channel');
    case 'templategroup':
      return l10n.t('template group');
    case 'logogroup':
      return l10n.t('logo group');
    case 'transcode':
      return l10n.t('transcode job');
    case 'livetemplate':
      return l10n.t('live template');
    case 'livelogo':
      return l10n.t('live logo');
  }
}
