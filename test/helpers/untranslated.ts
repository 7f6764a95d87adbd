/**
 * For tests of text in another language: a pseudo-language translator puts each translated text in «», and
 * `untranslated` lists the words of a shown text left outside them that are not data (names, ids, addresses...).
 */
import { fillPlaceholders } from '../../src/l10n/l10n';

/** The pseudo-language: each translated text in «», so that English left outside them is visible. */
export function markingTranslator(message: string, args: Parameters<typeof fillPlaceholders>[1]): string {
  return `«${fillPlaceholders(message, args)}»`;
}

/** Every string, number and key of a value: what a record or a document says, shown as it is. */
export function dataTexts(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string' || typeof value === 'number') into.push(String(value));
  else if (Array.isArray(value)) for (const item of value) dataTexts(item, into);
  else if (value && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) {
      into.push(key);
      dataTexts(item, into);
    }
  return into;
}

/** The words of a shown text outside the translated parts («...») and the data. */
export function untranslated(text: string, data: readonly string[]): string[] {
  let rest = text;
  for (let before = ''; before !== rest;) {
    before = rest;
    rest = rest.replace(/«[^«»]*»/g, ' ');
  }
  for (const item of [...data].sort((a, b) => b.length - a.length))
    if (item.length > 1) rest = rest.split(item).join(' ');
  // Protocols, formats and units read the same in every language.
  return (rest.match(/[A-Za-z][A-Za-z0-9]+/g) ?? []).filter((word) => !/^(HLS|RTMP|VR|kbps|fps|id)$/.test(word));
}
