/**
 * The registry of check families: each family names its finding codes (severity, clause, meaning) and, when it
 * judges a stream, its check, a pure function over the stream model (model.ts). Reading fills the model; the
 * checks decide. A family from outside src/inspector (content checks of src/media/qa, say) is added by one call
 * of `registerFamily`; its codes then appear in reports, SARIF rules and the README's table like the built-in ones.
 */
import type { Finding, Severity } from './findings';
import type { StreamModel } from './model';

export interface CodeInfo {
  readonly severity: Severity;
  /** What the code means, in one sentence. */
  readonly meaning: string;
  /** RFC 8216 section, draft-pantos-hls-rfc8216bis section, or Apple HLS Authoring Spec item. */
  readonly clause: string;
}

export interface CheckFamily {
  /** A short id, e.g. `master` or `loudness`. */
  readonly name: string;
  /** What the family checks, as a report heading. */
  readonly title: string;
  readonly codes: Readonly<Record<string, CodeInfo>>;
  /** The family's judgement of a stream; omitted by families whose codes come from reading (INPUT-...). */
  readonly check?: (model: StreamModel) => Finding[];
  /**
   * A family that decodes the media itself (the content checks: src/app/inspect/contentFamily.ts): run after
   * reading, only when the run names it in `InspectOptions.mediaFamilies` (with its options), with the input's
   * renditions and the inspector's bounded reader.
   */
  readonly inspectMedia?: (input: MediaInput, options: unknown) => Promise<MediaFamilyResult>;
}

/** What a media family is given: the renditions of the input as addresses, and the inspector's reader. */
export interface MediaInput {
  readonly live: boolean;
  /**
   * Each variant (or the input file): its name, whether it is encrypted, its segments' addresses in order, and its
   * initialization section's address (EXT-X-MAP: fMP4 segments need it first).
   */
  readonly renditions: ReadonlyArray<{
    readonly name: string;
    readonly encrypted: boolean;
    readonly files: string[];
    readonly init?: string;
  }>;
  /** One address read through the inspector's reader (its address policy and limits), at most `maxBytes`. */
  read(address: string, maxBytes: number): Promise<Buffer>;
  readonly signal?: AbortSignal;
  progress(text: string): void;
}

export interface MediaFamilyResult {
  readonly findings: Finding[];
  /** What it could not check, in words (said in the report's sampling note). */
  readonly notChecked?: string[];
}

const families = new Map<string, CheckFamily>();
/** Checks attached after their family's codes (built-in families whose checks are heavy: see registerCheck). */
const laterChecks = new Map<string, (model: StreamModel) => Finding[]>();
const codeFamily = new Map<string, CheckFamily>();

/** Adds a family; a code may belong to one family only (tools match on codes). */
export function registerFamily(family: CheckFamily): void {
  const existing = families.get(family.name);
  if (existing === family) return;
  if (existing) throw new Error(`check family "${family.name}" is registered already`);
  for (const code of Object.keys(family.codes)) {
    if (!/^[A-Z0-9]+(-[A-Z0-9]+)*$/.test(code)) throw new Error(`finding code "${code}": capitals, digits and dashes`);
    const owner = codeFamily.get(code);
    if (owner) throw new Error(`finding code ${code} belongs to family "${owner.name}" already`);
  }
  families.set(family.name, family);
  for (const code of Object.keys(family.codes)) codeFamily.set(code, family);
}

/**
 * Attaches the check of a family registered without one. The built-in families whose checks read measured media
 * register their codes from a light module (what an open `.m3u8` needs at activation) and their check from another
 * (loaded with the inspector): the extension's bundle stays small. A family from outside gives both at once.
 */
export function registerCheck(name: string, check: (model: StreamModel) => Finding[]): void {
  const family = families.get(name);
  if (!family) throw new Error(`check family "${name}" is not registered`);
  if (family.check || (laterChecks.has(name) && laterChecks.get(name) !== check)) {
    throw new Error(`check family "${name}" has a check already`);
  }
  laterChecks.set(name, check);
}

export function registeredFamilies(): CheckFamily[] {
  return [...families.values()];
}

export function codeInfo(code: string): (CodeInfo & { family: string }) | undefined {
  const family = codeFamily.get(code);
  const info = family?.codes[code];
  return family && info ? { ...info, family: family.name } : undefined;
}

export function registeredCodes(): string[] {
  return [...codeFamily.keys()];
}

/** Every registered family's check over the model, in registration order. */
export function runChecks(model: StreamModel): Finding[] {
  return registeredFamilies().flatMap((family) => (family.check ?? laterChecks.get(family.name))?.(model) ?? []);
}

/**
 * A web address for a clause, for SARIF's helpUri and the report's links: the RFC's section, the draft's
 * section, or Apple's specification page.
 */
export function clauseUri(clause: string): string | undefined {
  const rfc = /RFC 8216 (\d+(?:\.\d+)*)/.exec(clause);
  if (rfc) return `https://www.rfc-editor.org/rfc/rfc8216#section-${rfc[1]}`;
  const bis = /rfc8216bis (\d+(?:\.\d+)*)/.exec(clause);
  if (bis) return `https://datatracker.ietf.org/doc/html/draft-pantos-hls-rfc8216bis#section-${bis[1]}`;
  if (clause.includes('Apple'))
    return 'https://developer.apple.com/documentation/http-live-streaming/hls-authoring-specification-for-apple-devices';
  if (clause.includes('14496-12')) return 'https://www.iso.org/standard/83102.html';
  return undefined;
}
