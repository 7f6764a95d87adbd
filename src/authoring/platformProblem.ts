/**
 * A refusal from the platform as a problem on the document, on the field it is about:
 * 1. a field path the platform's message names (`outputGroupList[0].logoId ...`, as the local
 *    platform words them; first at its start, else anywhere in it) that the document has;
 * 2. else, for a code that says a referenced record does not exist (live template, logo, category,
 *    logo group, template group, video, channel), the document's field of that kind whose value the
 *    message quotes, or the only such field;
 * then, when that field is a list and the message quotes one of its items (`videoIds lists <id>`),
 * that item. Otherwise the problem is on the start of the document.
 */
import { getNodeValue } from 'jsonc-parser';
import { Codes } from '../api/errorCodes';
import { l10n } from '../l10n/l10n';
import type { DocumentKind } from './documentKind';
import { translatedExplanation } from './explanation';
import { JsonDocument, type JsonPath } from './jsonDocument';
import type { Problem, TextRange } from './problems';
import { REFERENCE_SITES, valuesAtSite, type ReferenceKind } from './references';

export interface PlatformRefusal {
  action: string;
  code: number;
  platformMessage: string;
  explanation: string;
}

const FIELD_PATH = /[A-Za-z_$][\w$]*(?:\[\d+\])*(?:\.[A-Za-z_$][\w$]*(?:\[\d+\])*)*/g;

/** The reference kind a "does not exist" code is about. */
const NOT_EXISTING: Readonly<Record<number, ReferenceKind>> = {
  [Codes.liveTemplateNotExists]: 'liveTemplates',
  [Codes.liveLogoNotExists]: 'liveLogos',
  [Codes.channelCategoryNotExists]: 'categories',
  [Codes.logoGroupNotExists]: 'logoGroups',
  [Codes.templateGroupNotExist]: 'templateGroups',
  [Codes.videoNotExists]: 'videos',
  [Codes.channelNotExists]: 'channels',
};

/** `outputGroupList[0].logoId` as path segments. */
export function parseFieldPath(text: string): JsonPath {
  const path: Array<string | number> = [];
  for (const part of text.split('.')) {
    const name = /^[^[]+/.exec(part)?.[0];
    if (name) path.push(name);
    for (const index of part.matchAll(/\[(\d+)\]/g)) path.push(Number(index[1]));
  }
  return path;
}

export function platformProblem(text: string, refusal: PlatformRefusal, kind?: DocumentKind): Problem {
  const doc = new JsonDocument(text);
  const message = refusal.platformMessage.trim();
  const path = namedPath(doc, message) ?? (kind ? referencePath(doc, kind, refusal.code, message) : undefined);
  return {
    severity: 'error',
    code: `platform.${refusal.code}`,
    range: path ? doc.valueRange(itemQuoted(doc, path, message)) : documentStart(doc),
    // The platform's own words stay as it wrote them, inside a translated frame.
    message: refusal.platformMessage
      ? l10n.t(
          'The platform refused {0} (code {1}): {2}. {3}',
          refusal.action,
          refusal.code,
          refusal.platformMessage,
          translatedExplanation(refusal),
        )
      : l10n.t(
          'The platform refused {0} (code {1}): no message. {2}',
          refusal.action,
          refusal.code,
          translatedExplanation(refusal),
        ),
  };
}

function documentStart(doc: JsonDocument): TextRange {
  return { offset: doc.root?.offset ?? 0, length: doc.root ? 1 : 0 };
}

/** The first field path in the message that the document has (at the start first). */
function namedPath(doc: JsonDocument, message: string): JsonPath | undefined {
  for (const match of message.matchAll(FIELD_PATH)) {
    const path = parseFieldPath(match[0]);
    if (path.length > 0 && doc.node(path)) return path;
  }
  return undefined;
}

/** For a "does not exist" code: the field of that kind whose value the message quotes, or the only one. */
function referencePath(doc: JsonDocument, kind: DocumentKind, code: number, message: string): JsonPath | undefined {
  const ref = NOT_EXISTING[code];
  if (!ref || !doc.root) return undefined;
  const value: unknown = doc.strictValue ? doc.strictValue.value : getNodeValue(doc.root);
  const fields = REFERENCE_SITES[kind]
    .filter((site) => site.ref === ref)
    .flatMap((site) => valuesAtSite(value, site.pattern))
    .filter(({ value: id }) => typeof id === 'string' || typeof id === 'number');
  const quoted = fields.find(({ value: id }) => String(id) !== '' && message.includes(String(id)));
  return (quoted ?? (fields.length === 1 ? fields[0] : undefined))?.path;
}

/** In a list the message quotes an item of, that item. */
function itemQuoted(doc: JsonDocument, path: JsonPath, message: string): JsonPath {
  const node = doc.node(path);
  if (node?.type !== 'array') return path;
  const index = (node.children ?? []).findIndex(
    (item) =>
      (item.type === 'string' || item.type === 'number') &&
      String(item.value) !== '' &&
      message.includes(String(item.value)),
  );
  return index >= 0 ? [...path, index] : path;
}
