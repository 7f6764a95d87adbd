/**
 * The six kinds of authoring documents, recognised by their file name suffix (the same suffixes
 * `contributes.jsonValidation` associates with the schemas).
 */
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

/** What a file of this kind describes, for messages ("template group"). */
export const KIND_LABELS: Readonly<Record<DocumentKind, string>> = {
  channel: 'channel',
  templategroup: 'template group',
  logogroup: 'logo group',
  transcode: 'transcode job',
  livetemplate: 'live template',
  livelogo: 'live logo',
};

/** The document kind of a file name or path (case-insensitive suffix), or undefined for other files. */
export function documentKind(fileName: string): DocumentKind | undefined {
  const lower = fileName.toLowerCase();
  return DOCUMENT_KINDS.find((kind) => lower.endsWith(kindSuffix(kind)));
}
