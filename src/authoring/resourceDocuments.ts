/**
 * "Open as File" and "Compare with Platform" for the resources beside channels: a template group, logo group,
 * live template or live logo as the document of its kind (schemas/<kind>.schema.json), holding only what the
 * kind's create/update operation takes, plus the id. Records carry read-only fields (userId, times, addresses,
 * defaultGroup): they are left out, so a document sent back changes only what the user can change.
 */
import type { LiveLogo, LiveTemplate, LogoGroup, TemplateGroupSummary } from '../api/types';
import { channelToDocument } from './channelDocument';
import type { Channel } from '../api/types';
import type { DocumentKind } from './documentKind';
import { kindSuffix } from './documentKind';
import type { JsonObject } from './rules/ruleKit';
import { schemaOf } from './schemas';

/** Keys with a value; the records answer null for unset fields (facts section 3). */
function present(source: Record<string, unknown>, names: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const name of names) {
    const value = source[name];
    if (value !== null && value !== undefined) out[name] = value;
  }
  return out;
}

/** JSON text of an object as an object (documents hold objects; the client sends text); unreadable text is left out. */
function objectOfText(text: unknown): JsonObject | undefined {
  if (typeof text === 'object' && text !== null && !Array.isArray(text)) return text as JsonObject;
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

/** Without null values (live template records mark unset advanced arguments with null). */
function withoutNulls(value: JsonObject | undefined): JsonObject | undefined {
  if (!value) return undefined;
  const out: JsonObject = {};
  for (const [key, entry] of Object.entries(value)) if (entry !== null) out[key] = entry;
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * A template group as a *.templategroup.json document. `transcodeTemplates` comes from the list item when the
 * platform lists it (the local platform does); `templatesListed` says whether it did.
 */
export function templateGroupToDocument(group: TemplateGroupSummary): { doc: JsonObject; templatesListed: boolean } {
  const doc: JsonObject = {
    id: group.id,
    name: group.name,
    type: group.type,
    trailor: group.trailor,
    trailorDuration: group.trailorDuration,
    // 0 is "no logo group" in the document (and in templateGroup).
    logoGroupId: group.logoGroupId ?? 0,
  };
  const listed = Array.isArray(group.transcodeTemplates);
  doc.transcodeTemplates = (group.transcodeTemplates ?? []).map((item) => {
    const out = present(item as unknown as Record<string, unknown>, [
      'name',
      'videoWidth',
      'videoHeight',
      'videoBitrate',
      'audioBitrate',
      'format',
      'encryptType',
      'defaultVideo',
    ]);
    const advanced = objectOfText(item.advancedArguments);
    if (advanced) out.advancedArguments = advanced;
    return out;
  });
  return { doc, templatesListed: listed };
}

export function logoGroupToDocument(group: LogoGroup): JsonObject {
  return {
    id: group.id,
    name: group.name,
    logos: group.logos.map((logo) =>
      present(logo as unknown as Record<string, unknown>, [
        'uri',
        'width',
        'height',
        'leftPos',
        'topPos',
        'opacity',
        'resize',
        'start',
        'end',
      ]),
    ),
  };
}

export function liveTemplateToDocument(template: LiveTemplate): JsonObject {
  const doc: JsonObject = {
    id: template.id,
    ...present(template as unknown as Record<string, unknown>, ['displayName']),
  };
  // The record's `type` is text ("1"); liveTemplateUpdate takes an integer.
  const type = Number(template.type);
  if (template.type !== null && template.type !== undefined && Number.isInteger(type)) doc.type = type;
  Object.assign(
    doc,
    present(template as unknown as Record<string, unknown>, [
      'transcodeType',
      'videoWidth',
      'videoHeight',
      'videoBitrate',
      'audioBitrate',
      'frameRate',
    ]),
  );
  const advanced = withoutNulls(objectOfText(template.advancedArgumentsObj ?? template.advancedArguments));
  if (advanced) doc.advancedArguments = advanced;
  return doc;
}

/** A live logo cannot be modified (no update operation): its document is for reading and comparing. */
export function liveLogoToDocument(logo: LiveLogo): JsonObject {
  return present(logo as unknown as Record<string, unknown>, [
    'id',
    'name',
    'uri',
    'width',
    'height',
    'offsetWidth',
    'offsetHeight',
    'opacity',
    'resize',
  ]);
}

/** The platform's record of a kind, as the document of that kind. */
export type PlatformRecord =
  | { kind: 'channel'; record: Channel }
  | { kind: 'templategroup'; record: TemplateGroupSummary }
  | { kind: 'logogroup'; record: LogoGroup }
  | { kind: 'livetemplate'; record: LiveTemplate }
  | { kind: 'livelogo'; record: LiveLogo };

export function recordToDocument(found: PlatformRecord): JsonObject {
  switch (found.kind) {
    case 'channel':
      return channelToDocument(found.record);
    case 'templategroup':
      return templateGroupToDocument(found.record).doc;
    case 'logogroup':
      return logoGroupToDocument(found.record);
    case 'livetemplate':
      return liveTemplateToDocument(found.record);
    case 'livelogo':
      return liveLogoToDocument(found.record);
  }
}

export function documentText(doc: unknown): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** A file name from the record's name: `Ladder.templategroup.json`, safe on every file system. */
export function resourceFileName(kind: DocumentKind, name: string | null | undefined, id: string | number): string {
  const base = (name ?? '')
    // eslint-disable-next-line no-control-regex -- control characters are refused by some file systems too
    .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '-')
    .replace(/^[.\s-]+|[.\s]+$/g, '')
    .slice(0, 80);
  return `${base || String(id)}${kindSuffix(kind)}`;
}

const GROUP_FLAGS = ['isRecord', 'needToMp4', 'isTimeShift', 'isLiveEncrypt'];

/** A channel file may write flags (and signalType) as 0/1 or "0"/"1"; the platform answers text: both sides text. */
function flagsAsText(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const text = (entry: unknown): unknown => (entry === 0 || entry === 1 ? String(entry) : entry);
  const channel = { ...(value as JsonObject) };
  if (channel.signalType === 1 || channel.signalType === 2) channel.signalType = String(channel.signalType);
  if (Array.isArray(channel.outputGroupList))
    channel.outputGroupList = channel.outputGroupList.map((group: unknown) => {
      if (typeof group !== 'object' || group === null || Array.isArray(group)) return group;
      const out = { ...(group as JsonObject) };
      for (const flag of GROUP_FLAGS) if (flag in out) out[flag] = text(out[flag]);
      if (Array.isArray(out.outputTemplateList))
        out.outputTemplateList = out.outputTemplateList.map((template: unknown) =>
          typeof template === 'object' && template !== null && 'isDefault' in template
            ? { ...(template as JsonObject), isDefault: text((template as JsonObject).isDefault) }
            : template,
        );
      return out;
    });
  return channel;
}

type SchemaNode = { properties?: Record<string, SchemaNode>; items?: SchemaNode; $ref?: string };

/** Follows a local `#/definitions/x` reference. */
function resolve(root: SchemaNode, node: SchemaNode | undefined): SchemaNode | undefined {
  let current = node;
  for (let hops = 0; current?.$ref && hops < 5; hops++) {
    const match = /^#\/definitions\/(.+)$/.exec(current.$ref);
    current = match ? (root as { definitions?: Record<string, SchemaNode> }).definitions?.[match[1]!] : undefined;
  }
  return current;
}

function ordered(root: SchemaNode, node: SchemaNode | undefined, value: unknown): unknown {
  const schema = resolve(root, node);
  if (Array.isArray(value)) return value.map((item) => ordered(root, schema?.items, item));
  if (typeof value !== 'object' || value === null) return value;
  const record = value as JsonObject;
  const known = Object.keys(schema?.properties ?? {});
  const keys = Object.keys(record).filter((key) => key !== '$schema');
  // The schema's order first, then anything else (a field the kind does not have) by name, so it shows in a diff.
  const sorted = [...known.filter((key) => keys.includes(key)), ...keys.filter((key) => !known.includes(key)).sort()];
  const out: JsonObject = {};
  for (const key of sorted) out[key] = ordered(root, schema?.properties?.[key], record[key]);
  return out;
}

/**
 * The one normal form both sides of a comparison take: keys in the kind's schema order (unknown keys after, by
 * name), `$schema` left out, an integer id given as digits in text shown as a number, a channel's 0/1 flags as
 * the "0"/"1" text the platform answers, two-space JSON.
 */
export function normalForm(kind: DocumentKind, value: unknown): string {
  const root = schemaOf(kind) as SchemaNode;
  const doc = ordered(root, root, kind === 'channel' ? flagsAsText(value) : value);
  if (typeof doc === 'object' && doc !== null && !Array.isArray(doc) && typeof (doc as JsonObject).id === 'string') {
    // The integer-id kinds accept the id as digits in text; both sides show it as a number.
    const record = doc as JsonObject;
    if ((kind === 'templategroup' || kind === 'logogroup') && /^\d+$/.test(record.id as string))
      record.id = Number(record.id);
  }
  return documentText(doc);
}
