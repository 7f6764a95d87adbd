/**
 * Turning typed call input into the text parameters that travel in the query string
 * (facts section 2), and checking what the client itself is responsible for before anything is sent.
 */
import { InvalidInputError } from './errors';
import { maskSignatures } from './signing';

/** Parameters as they travel: text only, undefined ones left out. */
export type WireParams = Record<string, string>;

/** Thrown by the helpers below; the client turns it into an InvalidInputError with action and url. */
export class InputRule extends Error {
  constructor(
    readonly field: string,
    readonly rule: string,
  ) {
    super(`${field} ${rule}`);
  }

  toError(action: string, url: string): InvalidInputError {
    return new InvalidInputError(action, url, this.field, this.rule);
  }
}

type Scalar = string | number | boolean;

/** A scalar as text: numbers must be finite, booleans travel as `true`/`false`. */
export function scalarText(field: string, value: Scalar): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new InputRule(field, 'must be a finite number');
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return value;
  throw new InputRule(field, 'must be a string, number or boolean');
}

/** Adds the defined entries of `input` as text; skips undefined (and null) values. */
export function addScalars(target: WireParams, input: Readonly<Record<string, Scalar | null | undefined>>): WireParams {
  for (const name in input) {
    const value = input[name];
    if (value === undefined || value === null) continue;
    target[name] = scalarText(name, value);
  }
  return target;
}

/** A required identifier: non-empty text without surrounding blanks. */
export function requireId(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new InputRule(field, 'must be a non-empty string');
  if (value !== value.trim()) throw new InputRule(field, 'must not start or end with blanks');
  return value;
}

/**
 * A comma-joined id list. Ids cannot hold commas themselves (the platform splits on them),
 * and an empty list is refused rather than sent as an empty value.
 */
export function idList(field: string, ids: unknown): string {
  const list = typeof ids === 'string' ? [ids] : ids;
  if (!Array.isArray(list) || list.length === 0) throw new InputRule(field, 'must hold at least one id');
  const texts = list.map((id, index) => {
    const text = typeof id === 'number' && Number.isInteger(id) ? String(id) : id;
    if (typeof text !== 'string' || text.trim() === '')
      throw new InputRule(`${field}[${index}]`, 'must be a non-empty id');
    if (text.includes(',')) throw new InputRule(`${field}[${index}]`, 'must not contain a comma');
    return text.trim();
  });
  return texts.join(',');
}

/** A positive whole number (page numbers, page sizes). */
export function positiveInteger(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new InputRule(field, 'must be a whole number of at least 1');
  }
  return value;
}

/** JSON text parameters (`transcodeTemplates`, `logos`, `advancedArguments`): the caller passes objects. */
export function jsonText(field: string, value: unknown): string {
  if (typeof value === 'string') {
    // Already JSON text: accept it only if it parses, so a typo is caught here, not on the platform.
    try {
      JSON.parse(value);
    } catch {
      throw new InputRule(field, 'must be an object/array or valid JSON text');
    }
    return value;
  }
  if (value === null || typeof value !== 'object') throw new InputRule(field, 'must be an object or an array');
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    throw new InputRule(field, 'must be serialisable as JSON (no cycles, no BigInt)');
  }
  if (text === undefined) throw new InputRule(field, 'must be serialisable as JSON');
  return text;
}

/** In a `u` regex a well-formed pair is one code point, so this matches only an unpaired surrogate. */
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/**
 * Every value must be well-formed Unicode: an unpaired surrogate (say, half an emoji left by
 * cutting a string) has no UTF-8 form, so it can be neither signed as raw UTF-8 nor percent-encoded.
 */
export function requireWellFormed(params: Readonly<WireParams>): void {
  for (const name in params) {
    if (LONE_SURROGATE.test(params[name]!)) {
      throw new InputRule(
        name,
        'must be well-formed Unicode text (it holds an unpaired surrogate, such as half of an emoji)',
      );
    }
  }
}

const MASK = '***';
/** Parameter names whose values never appear in logs. */
const SECRET_NAME = /signature|secret|password|token/i;

/**
 * A copy of the parameters fit for a log: signature and secret-looking values masked, the access
 * key shortened to its first characters, any value that contains the secret masked, and any
 * signature-like run (64 hex digits, either case) masked inside the others.
 */
export function maskParams(params: Readonly<WireParams>, secretKey: string): WireParams {
  const masked: WireParams = {};
  for (const [name, value] of Object.entries(params)) {
    if (SECRET_NAME.test(name) || (secretKey !== '' && value.includes(secretKey))) masked[name] = MASK;
    else if (name === 'accessKey') masked[name] = value.length > 4 ? `${value.slice(0, 4)}…` : MASK;
    else masked[name] = maskSignatures(value);
  }
  return masked;
}
