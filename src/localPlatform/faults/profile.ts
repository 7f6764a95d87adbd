/**
 * Fault profiles: a JSON array of rules `{"target": "<id, name or *>", "fault": "<name>", ...options}` that make
 * the local platform serve a channel's or a video's HLS badly on purpose (src/localPlatform/README.md "Stream
 * faults"). Each rule is checked with a JSON schema, as the project's documents are: the schema of every rule, then
 * the schema of its fault, so a refusal names the rule's index, the field and the rule it breaks. The schemas below
 * are compiled by `npm run build` into standalone ajv code (scripts/generateValidators.ts writes
 * ./generated/profile.js, a build output), so the local platform carries no ajv and compiles nothing at run time.
 */
import type { ErrorObject } from 'ajv';

export const DELIVERY_FAULTS = [
  'delay',
  'status',
  'timeout',
  'throttle',
  'reset',
  'truncate',
  'content-type',
  'no-cors',
] as const;
export const CONTENT_FAULTS = [
  'playlist-stall',
  'sequence-regress',
  'segment-drop',
  'extinf-lie',
  'bandwidth-lie',
  'timestamp-jump',
  'no-idr-start',
  'audio-gap',
  'key-404',
] as const;
export const FAULT_NAMES = [...DELIVERY_FAULTS, ...CONTENT_FAULTS] as const;
export type FaultName = (typeof FAULT_NAMES)[number];

/** What a delivery fault may be limited to. */
export const FILE_KINDS = ['master', 'playlist', 'segment', 'key'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

/** A number, an inclusive range `[from, to]`, or every n-th (`{"every": n}`). */
export type NumberSelector = number | [number, number] | { every: number };

export interface FaultRule {
  target: string;
  fault: FaultName;
  /** Variant: its resolution (`854x480`), its template name, or its 1-based place in the master playlist. */
  variant?: string;
  /** The variant's video bit rate in kbit/s: exact, or `[min, max]`. */
  bitrate?: number | [number, number];
  /** The segment's 0-based place in the playlist served. */
  segmentIndex?: NumberSelector;
  /** The segment's media sequence number. */
  mediaSequence?: NumberSelector;
  /** Which answers a delivery fault hits (default: all). */
  files?: FileKind[];
  /** Chance (0-1) that a matching answer is hit; decided by `seed` and the answer, so a run repeats. */
  probability?: number;
  seed?: number;
  ms?: number;
  code?: number;
  bytesPerSecond?: number;
  afterBytes?: number;
  bytes?: number;
  value?: string;
  by?: number;
  factor?: number;
  seconds?: number;
}

const RANGE = { type: 'array', items: { type: 'integer', minimum: 0 }, minItems: 2, maxItems: 2 };
const NUMBER_SELECTOR = {
  anyOf: [
    { type: 'integer', minimum: 0 },
    RANGE,
    {
      type: 'object',
      properties: { every: { type: 'integer', minimum: 1, maximum: 1_000_000 } },
      required: ['every'],
      additionalProperties: false,
    },
  ],
};

/** Every rule may choose what it hits with these. */
const SELECTORS = {
  target: { type: 'string', minLength: 1, maxLength: 200 },
  fault: { type: 'string' },
  variant: { type: 'string', minLength: 1, maxLength: 100 },
  bitrate: { anyOf: [{ type: 'integer', minimum: 0 }, RANGE] },
  segmentIndex: NUMBER_SELECTOR,
  mediaSequence: NUMBER_SELECTOR,
  probability: { type: 'number', minimum: 0, maximum: 1 },
  seed: { type: 'integer', minimum: 0, maximum: 2 ** 32 - 1 },
};
const FILES = { files: { type: 'array', items: { enum: [...FILE_KINDS] }, minItems: 1, uniqueItems: true } };

/** The options of each fault (bounded: a profile cannot hold a request for hours or send 1 byte a minute). */
const OPTIONS: Record<FaultName, Record<string, object>> = {
  delay: { ...FILES, ms: { type: 'integer', minimum: 0, maximum: 120_000 } },
  status: { ...FILES, code: { type: 'integer', minimum: 400, maximum: 599 } },
  timeout: { ...FILES, ms: { type: 'integer', minimum: 1_000, maximum: 600_000 } },
  throttle: { ...FILES, bytesPerSecond: { type: 'integer', minimum: 1_000, maximum: 1_000_000_000 } },
  reset: { ...FILES, afterBytes: { type: 'integer', minimum: 0 } },
  truncate: { ...FILES, bytes: { type: 'integer', minimum: 0 } },
  'content-type': { ...FILES, value: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e ]+$' } },
  'no-cors': { ...FILES },
  'playlist-stall': {},
  'sequence-regress': { by: { type: 'integer', minimum: 1, maximum: 1_000_000 } },
  'segment-drop': {},
  'extinf-lie': { factor: { type: 'number', exclusiveMinimum: 0, maximum: 100 } },
  'bandwidth-lie': { factor: { type: 'number', exclusiveMinimum: 0, maximum: 100 } },
  'timestamp-jump': { seconds: { type: 'number', minimum: -3600, maximum: 3600 } },
  'no-idr-start': {},
  'audio-gap': { ms: { type: 'integer', minimum: 1, maximum: 60_000 } },
  'key-404': {},
};

/** Faults that need to know which segments they hit (dropping or shifting every one would show nothing). */
const NEEDS_SEGMENT = new Set<FaultName>(['segment-drop', 'timestamp-jump']);

const RULE_SCHEMA = {
  type: 'object',
  properties: { target: SELECTORS.target, fault: { enum: [...FAULT_NAMES] } },
  required: ['target', 'fault'],
};

/** What a fault's rule is checked for, in this order: no unknown field, then the selectors, then its options. */
type Part = 'known' | 'options';

/** The name a fault's validator is exported under in the generated module (`content-type` -> `optionsContentType`). */
function validatorName(part: Part, fault: FaultName): string {
  return part + fault.replace(/(^|-)(\w)/g, (_, dash: string, letter: string) => letter.toUpperCase());
}

/**
 * The schemas the build compiles (scripts/generateValidators.ts), by the name each validator is exported under:
 * `rule` for every rule, then per fault its fields (selectors and options, nothing else), the selectors (one
 * validator for all faults: its code is made once), and the fault's options. Checked one after the other, they
 * refuse what one schema per fault refused, with the same first error.
 */
export function profileSchemas(): Record<string, object> {
  const schemas: Record<string, object> = { rule: RULE_SCHEMA, selectors: { type: 'object', properties: SELECTORS } };
  for (const fault of FAULT_NAMES) {
    const fields = Object.keys({ ...SELECTORS, ...OPTIONS[fault] }).map((name) => [name, true]);
    schemas[validatorName('known', fault)] = {
      type: 'object',
      properties: Object.fromEntries(fields),
      additionalProperties: false,
    };
    schemas[validatorName('options', fault)] = { type: 'object', properties: OPTIONS[fault] };
  }
  return schemas;
}

/** A validator as ajv's standalone code makes it: true or false, and the first error kept on the function. */
type Check = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

let generated: Readonly<Record<string, Check>> | undefined;

/** Loaded on the first profile checked: the platform starts as fast without faults. */
function validator(name: string): Check {
  if (!generated) {
    try {
      generated = require('./generated/profile.js') as Record<string, Check>;
    } catch (error) {
      throw new Error('The fault profile validators have not been generated (faults/profile.ts): run npm run build.', {
        cause: error,
      });
    }
  }
  return generated[name];
}

/** The first schema error of a rule (an object), or undefined when it passes the schemas. */
export function ruleError(rule: Record<string, unknown>): ErrorObject | undefined {
  const base = validator('rule');
  if (!base(rule)) return base.errors![0];
  const fault = rule.fault as FaultName;
  for (const name of [validatorName('known', fault), 'selectors', validatorName('options', fault)]) {
    const check = validator(name);
    if (!check(rule)) return check.errors![0];
  }
  return undefined;
}

export class ProfileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProfileError';
  }
}

const MAX_RULES = 100;

/** One ajv error in the profile's words: the rule, the field and what it must be. */
function describe(index: number, rule: Record<string, unknown>, error: ErrorObject): string {
  const at = `rule ${index}`;
  if (error.keyword === 'additionalProperty' || error.keyword === 'additionalProperties') {
    const name = String((error.params as { additionalProperty: string }).additionalProperty);
    return `${at}: ${JSON.stringify(name.slice(0, 60))} is not an option of fault ${String(rule.fault)} (its options: ${Object.keys({ ...OPTIONS[rule.fault as FaultName] }).join(', ') || 'none'}; selectors: ${Object.keys(SELECTORS).join(', ')})`;
  }
  if (error.keyword === 'required') {
    return `${at}: ${String((error.params as { missingProperty: string }).missingProperty)} is required`;
  }
  const field = error.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'rule';
  if (field === 'fault')
    return `${at}: fault ${JSON.stringify(rule.fault)} is not a fault (one of ${FAULT_NAMES.join(', ')})`;
  return `${at}: ${field} ${error.message ?? 'is not valid'}`;
}

/** Checks a parsed profile; throws ProfileError naming the rule and the field. */
export function checkProfile(value: unknown): FaultRule[] {
  if (!Array.isArray(value)) throw new ProfileError('a fault profile must be a JSON array of rules');
  if (value.length > MAX_RULES) throw new ProfileError(`a fault profile holds at most ${MAX_RULES} rules`);
  value.forEach((rule: unknown, i) => {
    if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) {
      throw new ProfileError(`rule ${i}: must be an object {"target", "fault", ...options}`);
    }
    const record = rule as Record<string, unknown>;
    const error = ruleError(record);
    if (error) throw new ProfileError(describe(i, record, error));
    for (const field of ['bitrate', 'segmentIndex', 'mediaSequence'] as const) {
      const range = record[field];
      if (Array.isArray(range) && range[0] > range[1])
        throw new ProfileError(`rule ${i}: ${field} [from, to] needs from <= to`);
    }
    if (
      NEEDS_SEGMENT.has(record.fault as FaultName) &&
      record.segmentIndex === undefined &&
      record.mediaSequence === undefined
    ) {
      throw new ProfileError(
        `rule ${i}: fault ${String(record.fault)} needs segmentIndex or mediaSequence (which segments it hits)`,
      );
    }
  });
  return value as FaultRule[];
}

/** Reads a profile from JSON text (a file, a form field). */
export function parseProfile(text: string, where = 'the fault profile'): FaultRule[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ProfileError(`${where} is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  try {
    return checkProfile(value);
  } catch (error) {
    if (error instanceof ProfileError) throw new ProfileError(`${where}: ${error.message}`);
    throw error;
  }
}

/** What a profile's targets are checked against: the channels and videos of one account. */
export interface Catalog {
  channels: Iterable<{ id: string; name: string }>;
  videos: Iterable<{ id: string; title: string }>;
}

export function targetMatches(target: string, item: { id: string; name: string }): boolean {
  return target === '*' || target === item.id || target === item.name;
}

/** Refuses a rule whose target names no channel or video of the account. */
export function checkTargets(rules: readonly FaultRule[], catalog: Catalog, where = 'the fault profile'): void {
  const items = [
    ...[...catalog.channels].map((c) => ({ id: c.id, name: c.name })),
    ...[...catalog.videos].map((v) => ({ id: v.id, name: v.title })),
  ];
  rules.forEach((rule, i) => {
    if (!items.some((item) => targetMatches(rule.target, item))) {
      throw new ProfileError(
        `${where}: rule ${i}: target ${JSON.stringify(rule.target.slice(0, 100))} names no channel or video of the account (an id, a name, or *)`,
      );
    }
  });
}
