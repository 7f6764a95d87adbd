import type { ParamSpecs, ParamValue } from '../../api/contract';
import { Codes } from '../../api/errorCodes';
import { invalid, missing, PlatformFault } from '../http/faults';

/**
 * Reads and checks fields of a request: flat query/form parameters (all text) and JSON values alike,
 * because clients of the real service send numbers as text and flags as numbers. Every refusal names
 * the field by its full path (`outputGroupList[0].rotation`) and the rule it breaks.
 *
 * Tolerance rules: unknown fields are ignored; `undefined`, `null` and `''` mean "not given" for
 * optional fields (and "missing" for required ones).
 */
export interface FieldCodes {
  /** Code for a missing required field (default parameterMissing). */
  missing?: number;
  /** Code for a field that breaks a rule (default parameterInvalid). */
  invalid?: number;
}

interface IntRule {
  min?: number;
  max?: number;
  oneOf?: readonly number[];
}

export class Fields {
  private readonly missingCode: number;
  private readonly invalidCode: number;

  constructor(
    private readonly source: Readonly<Record<string, unknown>>,
    private readonly prefix = '',
    codes: FieldCodes = {},
  ) {
    this.missingCode = codes.missing ?? Codes.parameterMissing;
    this.invalidCode = codes.invalid ?? Codes.parameterInvalid;
  }

  /** Reads a JSON value that must be an object, for nested field paths. */
  static object(value: unknown, path: string, codes: FieldCodes = {}): Fields {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw invalid(path, 'must be an object', codes.invalid ?? Codes.parameterInvalid);
    }
    return new Fields(value as Record<string, unknown>, path, codes);
  }

  path(name: string): string {
    return this.prefix ? `${this.prefix}.${name}` : name;
  }

  missing(name: string): PlatformFault {
    return missing(this.path(name), this.missingCode);
  }

  invalid(name: string, rule: string): PlatformFault {
    return invalid(this.path(name), rule, this.invalidCode);
  }

  /** Every field as given (unknown ones included), for reading the same fields as another shape. */
  entries(): Readonly<Record<string, unknown>> {
    return this.source;
  }

  raw(name: string): unknown {
    return Object.prototype.hasOwnProperty.call(this.source, name) ? this.source[name] : undefined;
  }

  has(name: string): boolean {
    const value = this.raw(name);
    return value !== undefined && value !== null && value !== '';
  }

  /** Text field; numbers are accepted and turned into text. */
  str(name: string, required: true, maxLength?: number): string;
  str(name: string, required?: boolean, maxLength?: number): string | undefined;
  str(name: string, required = false, maxLength = 1000): string | undefined {
    if (!this.has(name)) {
      if (required) throw this.missing(name);
      return undefined;
    }
    const value = this.raw(name);
    let text: string;
    if (typeof value === 'string') text = value;
    else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
    else throw this.invalid(name, 'must be text');
    if (required && text.trim() === '') throw this.missing(name);
    if (text.length > maxLength) throw this.invalid(name, `must be at most ${maxLength} characters`);
    return text;
  }

  /** Integer given as a JSON number or as decimal text. */
  int(name: string, required: true, rule?: IntRule): number;
  int(name: string, required?: boolean, rule?: IntRule): number | undefined;
  int(name: string, required = false, rule: IntRule = {}): number | undefined {
    if (!this.has(name)) {
      if (required) throw this.missing(name);
      return undefined;
    }
    const value = this.raw(name);
    let n: number;
    if (typeof value === 'number') n = value;
    else if (typeof value === 'string' && /^\s*-?\d{1,15}\s*$/.test(value)) n = Number(value);
    else throw this.invalid(name, 'must be an integer');
    if (!Number.isSafeInteger(n)) throw this.invalid(name, 'must be an integer');
    if (rule.oneOf && !rule.oneOf.includes(n)) throw this.invalid(name, `must be one of ${rule.oneOf.join(', ')}`);
    if (rule.min !== undefined && rule.max !== undefined && (n < rule.min || n > rule.max)) {
      throw this.invalid(name, `must be between ${rule.min} and ${rule.max}`);
    }
    if (rule.min !== undefined && n < rule.min) throw this.invalid(name, `must be at least ${rule.min}`);
    if (rule.max !== undefined && n > rule.max) throw this.invalid(name, `must be at most ${rule.max}`);
    return n;
  }

  /** `"0"`/`"1"` flag; numbers 0/1 and booleans are accepted too. */
  flag(name: string, required = false): '0' | '1' | undefined {
    if (!this.has(name)) {
      if (required) throw this.missing(name);
      return undefined;
    }
    const value = this.raw(name);
    if (value === '1' || value === 1 || value === true || value === 'true') return '1';
    if (value === '0' || value === 0 || value === false || value === 'false') return '0';
    throw this.invalid(name, 'must be 0 or 1');
  }

  /** Boolean as true/false (JSON or text) or 1/0. */
  bool(name: string, required: true): boolean;
  bool(name: string, required?: boolean): boolean | undefined;
  bool(name: string, required = false): boolean | undefined {
    const f = this.has(name) ? this.boolValue(name) : undefined;
    if (f === undefined && required) throw this.missing(name);
    return f;
  }

  private boolValue(name: string): boolean {
    const value = this.raw(name);
    if (value === true || value === 1 || value === 'true' || value === '1' || value === 'TRUE' || value === 'True')
      return true;
    if (value === false || value === 0 || value === 'false' || value === '0' || value === 'FALSE' || value === 'False')
      return false;
    throw this.invalid(name, 'must be true or false');
  }

  /** Text that must be one of a fixed set. */
  oneOf<T extends string>(name: string, values: readonly T[], required = false, code?: number): T | undefined {
    if (!this.has(name)) {
      if (required) throw this.missing(name);
      return undefined;
    }
    const value = this.raw(name);
    const text = typeof value === 'number' ? String(value) : value;
    if (typeof text !== 'string' || !(values as readonly string[]).includes(text)) {
      throw invalid(this.path(name), `must be one of ${values.join(', ')}`, code ?? this.invalidCode);
    }
    return text as T;
  }

  /** A JSON array, given as a JSON value or as JSON text (how form parameters carry it). */
  array(name: string, required: true): unknown[];
  array(name: string, required?: boolean): unknown[] | undefined;
  array(name: string, required = false): unknown[] | undefined {
    const value = this.jsonValue(name, required);
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) throw this.invalid(name, 'must be a JSON array');
    return value;
  }

  /** A JSON value, given as a JSON value or as JSON text. */
  jsonValue(name: string, required = false): unknown {
    if (!this.has(name)) {
      if (required) throw this.missing(name);
      return undefined;
    }
    const value = this.raw(name);
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      throw this.invalid(name, 'must be valid JSON text');
    }
  }

  /**
   * Comma-separated list of ids (`a,b,c`); blanks around ids ignored, duplicates removed, order
   * kept. An empty id (`a,,b`, `a,`) is refused: it is a mistake, never "no id".
   */
  idList(name: string, required = true, max = 1000): string[] {
    const text = this.str(name, required, 100_000);
    if (text === undefined) return [];
    const parts = text.split(',').map((part) => part.trim());
    if (parts.length === 1 && parts[0] === '') {
      if (required) throw this.missing(name);
      return [];
    }
    const empty = parts.indexOf('');
    if (empty >= 0) {
      throw this.invalid(name, `must list ids separated by commas, with no empty id (entry ${empty + 1} is empty)`);
    }
    const ids = [...new Set(parts)];
    if (ids.length > max) throw this.invalid(name, `must list at most ${max} ids`);
    return ids;
  }

  /** A parameter read by its spec in the operation's contract (src/api/operations): kind, required, limits. */
  param<P extends ParamSpecs, K extends keyof P & string>(specs: P, name: K): ParamValue<P[K]> {
    const spec = specs[name]!;
    const required = spec.required === true;
    switch (spec.kind) {
      case 'id':
      case 'text':
        return this.str(name, required, spec.maxLength) as ParamValue<P[K]>;
      case 'int':
        return this.int(name, required, {
          min: spec.min,
          max: spec.max,
          oneOf: spec.oneOf as readonly number[] | undefined,
        }) as ParamValue<P[K]>;
      case 'enum':
        return this.oneOf(name, spec.oneOf as readonly string[], required, spec.code) as ParamValue<P[K]>;
      case 'bool':
        return this.bool(name, required) as ParamValue<P[K]>;
      case 'ids':
        return this.idList(name, required, spec.maxItems) as ParamValue<P[K]>;
      case 'json':
        return this.jsonValue(name, required) as ParamValue<P[K]>;
    }
  }

  nested(name: string): Fields {
    return Fields.object(this.raw(name), this.path(name), { missing: this.missingCode, invalid: this.invalidCode });
  }

  item(name: string, index: number, value: unknown): Fields {
    return Fields.object(value, `${this.path(name)}[${index}]`, {
      missing: this.missingCode,
      invalid: this.invalidCode,
    });
  }
}
