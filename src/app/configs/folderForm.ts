/**
 * The folder form of an account's records (issue 27): each record as the document of its kind in the normal form
 * Compare with Platform uses, without its id (ids live in the state file) and with the references the platform
 * makes by id written as the referenced record's name, so that a folder reads the same whichever account it was
 * pulled from. Categories have no document kind of their own: their file holds only the name.
 */
import { createHash } from 'node:crypto';
import type {
  Channel,
  ChannelCategory,
  LiveLogo,
  LiveTemplate,
  LogoGroup,
  TemplateGroupSummary,
} from '../../api/types';
import { isBuiltInTemplateGroup } from '../../api/types';
import { channelToDocument } from '../../authoring/channelDocument';
import type { DocumentKind } from '../../authoring/documentKind';
import {
  documentText,
  liveLogoToDocument,
  liveTemplateToDocument,
  logoGroupToDocument,
  normalForm,
  resourceFileName,
  templateGroupToDocument,
} from '../../authoring/resourceDocuments';
import type { JsonObject } from '../../authoring/rules/ruleKit';

/** The kinds a folder holds, in the order apply runs them (what others refer to first). */
export const CONFIG_KINDS = ['logogroup', 'templategroup', 'livetemplate', 'livelogo', 'category', 'channel'] as const;
export type ConfigKind = (typeof CONFIG_KINDS)[number];

/** The platform's records of every kind, one list request per kind. */
export interface Snapshot {
  logogroup: LogoGroup[];
  templategroup: TemplateGroupSummary[];
  livetemplate: LiveTemplate[];
  livelogo: LiveLogo[];
  category: ChannelCategory[];
  channel: Channel[];
}

export type AnyRecord = Snapshot[ConfigKind][number];

/** `News.category.json`, `Ladder.templategroup.json`. */
export function configSuffix(kind: ConfigKind): string {
  return `.${kind}.json`;
}

export function configKindOf(fileName: string): ConfigKind | undefined {
  const lower = fileName.toLowerCase();
  return CONFIG_KINDS.find((kind) => lower.endsWith(configSuffix(kind)));
}

export function recordId(record: AnyRecord): string {
  return String(record.id);
}

/** The name a record goes by in file names and references (a live template's display name). */
export function recordName(kind: ConfigKind, record: AnyRecord): string {
  if (kind === 'livetemplate') {
    const template = record as LiveTemplate;
    return template.displayName || template.name;
  }
  return (record as { name: string }).name;
}

/** Built-in template groups belong to the platform, not to the account: they are not pulled. */
export function ownedRecords<K extends ConfigKind>(kind: K, records: Snapshot[K]): Snapshot[K] {
  if (kind !== 'templategroup') return records;
  return (records as TemplateGroupSummary[]).filter((group) => !isBuiltInTemplateGroup(group)) as Snapshot[K];
}

/** The kinds a document may name, and the field that names them. */
export type ReferredKind = 'logogroup' | 'livetemplate' | 'livelogo' | 'category';

/** Names and ids of the records documents refer to; a name two records share is written as the id. */
export class NameBook {
  private readonly names = new Map<string, string>();
  private readonly ids = new Map<string, string | undefined>();

  static of(snapshot: Pick<Snapshot, ReferredKind>): NameBook {
    const book = new NameBook();
    for (const kind of ['logogroup', 'livetemplate', 'livelogo', 'category'] as const)
      for (const record of snapshot[kind] as AnyRecord[]) book.add(kind, recordId(record), recordName(kind, record));
    return book;
  }

  add(kind: ReferredKind, id: string, name: string): void {
    this.names.set(`${kind}:${id}`, name);
    const key = `${kind}:${name}`;
    // A second record with this name makes the name ambiguous: references then keep the id.
    this.ids.set(key, this.ids.has(key) && this.ids.get(key) !== id ? undefined : id);
  }

  /** How a document names the record: its name, or its id when the name is not unique or not known. */
  refer(kind: ReferredKind, id: string): string {
    const name = this.names.get(`${kind}:${id}`);
    return name !== undefined && this.ids.get(`${kind}:${name}`) === id ? name : id;
  }

  /** The id a reference names: by name first, then as an id of a known record. */
  resolve(kind: ReferredKind, reference: string): string | undefined {
    const byName = this.ids.get(`${kind}:${reference}`);
    if (byName !== undefined) return byName;
    return this.names.has(`${kind}:${reference}`) ? reference : undefined;
  }
}

/** A channel's output group ids by position and protocol, kept in the state file (its play addresses). */
export interface GroupIdentity {
  readonly id: string;
  readonly protocolType: number;
}

/** The record as its folder document, and the ids that stay out of the file. */
export interface FolderRecord {
  readonly kind: ConfigKind;
  readonly id: string;
  readonly name: string;
  readonly doc: JsonObject;
  readonly groups?: GroupIdentity[];
  /**
   * A template group the platform listed without its templates (a real platform may: facts section 4 lists the
   * other fields only): its doc has no `transcodeTemplates` at all, never an empty list. See withKnownTemplates.
   */
  readonly templatesUnlisted?: true;
}

export function toFolderRecord(kind: ConfigKind, record: AnyRecord, book: NameBook): FolderRecord {
  const base = { kind, id: recordId(record), name: recordName(kind, record) };
  switch (kind) {
    case 'category':
      return { ...base, doc: { name: (record as ChannelCategory).name } };
    case 'logogroup':
      return { ...base, doc: withoutId(logoGroupToDocument(record as LogoGroup)) };
    case 'livetemplate':
      return { ...base, doc: withoutId(liveTemplateToDocument(record as LiveTemplate)) };
    case 'livelogo':
      return { ...base, doc: withoutId(liveLogoToDocument(record as LiveLogo)) };
    case 'templategroup': {
      const { doc: full, templatesListed } = templateGroupToDocument(record as TemplateGroupSummary);
      const doc = withoutId(full);
      const logoGroupId = Number(doc.logoGroupId);
      if (logoGroupId) doc.logoGroupId = book.refer('logogroup', String(logoGroupId));
      if (templatesListed) return { ...base, doc };
      delete doc.transcodeTemplates;
      return { ...base, doc, templatesUnlisted: true };
    }
    case 'channel':
      return channelFolderRecord(base, record as Channel, book);
  }
}

function channelFolderRecord(
  base: { kind: ConfigKind; id: string; name: string },
  channel: Channel,
  book: NameBook,
): FolderRecord {
  const doc = withoutId(channelToDocument(channel));
  // The category by name (the schema's typeName); its id is resolved at plan time.
  delete doc.type;
  if (channel.type) doc.typeName = book.refer('category', channel.type);
  const groups: GroupIdentity[] = [];
  doc.outputGroupList = (doc.outputGroupList as JsonObject[]).map((group) => {
    const { id, ...rest } = group;
    groups.push({ id: String(id), protocolType: Number(group.protocolType) });
    if (typeof rest.logoId === 'string') rest.logoId = book.refer('livelogo', rest.logoId);
    rest.outputTemplateList = (rest.outputTemplateList as JsonObject[]).map((template) => ({
      ...template,
      templateId: book.refer('livetemplate', String(template.templateId)),
    }));
    return rest;
  });
  return { ...base, doc, groups };
}

/**
 * The record's folder document; for a template group listed without its templates, with the templates known from
 * elsewhere (the file before a pull, the last pull for a plan, what apply sent): what the platform did not say is
 * taken as unchanged, and with nothing known the document has none rather than an empty list.
 */
export function withKnownTemplates(folder: FolderRecord, known: unknown): JsonObject {
  if (!folder.templatesUnlisted) return folder.doc;
  const templates = (known as JsonObject | undefined)?.transcodeTemplates;
  return Array.isArray(templates) && templates.length > 0
    ? { ...folder.doc, transcodeTemplates: templates }
    : folder.doc;
}

/** A template group document with at least one template (an update replaces the group's whole list). */
export function hasTemplates(doc: JsonObject | undefined): boolean {
  return Array.isArray(doc?.transcodeTemplates) && doc.transcodeTemplates.length > 0;
}

function withoutId(doc: JsonObject): JsonObject {
  const { id: _id, ...rest } = doc;
  return rest;
}

/** The folder document's text in the kind's normal form (schema key order, two-space JSON). */
export function folderText(kind: ConfigKind, doc: unknown): string {
  return kind === 'category' ? documentText(doc) : normalForm(kind as DocumentKind, doc);
}

/** The hash of a folder document in normal form: equal documents, equal hashes, whatever the key order. */
export function hashOf(kind: ConfigKind, doc: unknown): string {
  return createHash('sha256').update(folderText(kind, doc)).digest('hex');
}

/** `Ladder.templategroup.json`, safe on every file system; `Ladder (2).templategroup.json` for a second "Ladder". */
export function folderFileName(kind: ConfigKind, name: string, id: string, taken: ReadonlySet<string>): string {
  const first =
    kind === 'category'
      ? resourceFileName('channel', name, id).replace(/\.channel\.json$/, configSuffix(kind))
      : resourceFileName(kind as DocumentKind, name, id);
  if (!taken.has(first.toLowerCase())) return first;
  const stem = first.slice(0, -configSuffix(kind).length);
  for (let n = 2; ; n++) {
    const candidate = `${stem} (${n})${configSuffix(kind)}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}
