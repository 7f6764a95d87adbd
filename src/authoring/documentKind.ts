/**
 * The six kinds of authoring documents, recognised by their file name suffix (the same suffixes
 * `contributes.jsonValidation` associates with the schemas).
 */
import { l10n } from '../l10n/l10n';

export const DOCUMENT_KINDS = [
  'channel',
  'templategroup',
  'logogroup',
  'transcode',
  'livetemplate',
  'livelogo',
] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** `*.channel.json` and so on. */
export function kindSuffix(kind: DocumentKind): string {
  return `.${kind}.json`;
}

/** What a file of this kind describes, for messages ("template group"), in the user's language. */
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

/** The document kind of a file name or path (case-insensitive suffix), or undefined for other files. */
export function documentKind(fileName: string): DocumentKind | undefined {
  const lower = fileName.toLowerCase();
  return DOCUMENT_KINDS.find((kind) => lower.endsWith(kindSuffix(kind)));
}
