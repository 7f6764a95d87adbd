/**
 * One contract per platform operation (interface section 4, facts section 4): how it travels, its
 * parameters with their kinds and limits, its body, and how its answer is read. The client
 * (client.ts) sends through it and the local platform's handlers read their parameters through the
 * same specs, so each rule is written once. The operations themselves are in ./operations/.
 */
import { idList, InputRule, jsonText, positiveInteger, requireId, scalarText, type WireParams } from './params';
import type { Envelope } from './types';

/** How each action travels (facts section 2). */
export type HttpMethod = 'GET' | 'POST';

/**
 * What a parameter is: `id` one identifier, `ids` a comma-joined id list, `text`, `int` an integer,
 * `enum` one of fixed words, `bool` true/false, `json` a JSON value carried as JSON text.
 */
export type ParamKind = 'id' | 'ids' | 'text' | 'int' | 'enum' | 'bool' | 'json';

/**
 * What the client itself refuses before sending (a message naming the field, nothing sent); the
 * other rules are the platform's to judge, so a request meant to be refused still reaches it.
 * `present`: a non-empty id or text; `page`: a whole number of at least 1; `boolean`: true or false;
 * `array`: an array.
 */
export type ClientCheck = 'present' | 'page' | 'boolean' | 'array';

export interface ParamSpec {
  readonly kind: ParamKind;
  /** Required by the platform (a missing one is refused with parameterMissing). */
  readonly required?: boolean;
  /** Longest text (`id`, `text`), in characters. */
  readonly maxLength?: number;
  readonly min?: number;
  readonly max?: number;
  /** The allowed values (`int`, `enum`). */
  readonly oneOf?: readonly (string | number)[];
  /** Most ids of an `ids` list. */
  readonly maxItems?: number;
  /** The code of a refusal when the rule is broken, where the interface names one (default parameterInvalid). */
  readonly code?: number;
  readonly client?: ClientCheck;
  /** The client's refusal where it says more than the check's own words. */
  readonly rule?: string;
  /** What the elements of an `array` are, for the client's refusal ("must be an array of logo items"). */
  readonly items?: string;
}

export type ParamSpecs = Readonly<Record<string, ParamSpec>>;

type BaseValue<S extends ParamSpec> = S['kind'] extends 'int'
  ? number
  : S['kind'] extends 'bool'
    ? boolean
    : S['kind'] extends 'ids'
      ? string[]
      : S['kind'] extends 'json'
        ? unknown
        : S extends { oneOf: readonly (infer V)[] }
          ? V & string
          : string;

/** What reading a parameter by its spec gives: its value, or undefined for an optional one not given. */
export type ParamValue<S extends ParamSpec> = S extends { required: true } ? BaseValue<S> : BaseValue<S> | undefined;

/** What an answer's checks name and what its messages never show. */
export interface AnswerContext {
  action: string;
  url: string;
  scrub: readonly string[];
  /** For a POST, the warning that a garbled answer may hide a done operation. */
  note: string;
}

/** Turns a checked envelope into the operation's result. */
export type ResultReader<Out> = (envelope: Envelope<unknown>, context: AnswerContext) => Out;

export interface OperationSpec<In, Out, P extends ParamSpecs = ParamSpecs> {
  readonly method: HttpMethod;
  /**
   * The call's input as a whole, as its refusals name it (`query`, `input`, `job`); `optional`: absent
   * (undefined or null) means no filters.
   */
  readonly input?: { readonly field: string; readonly optional?: boolean };
  /** The query-string parameters, in the order they are read. */
  readonly params: P;
  /** A JSON body (liveCreateChannel, liveUpdate: not signed, facts section 2): the input itself, named so. */
  readonly body?: { readonly field: string; readonly requireId?: boolean };
  /** Input to wire values where a parameter travels other than as it is given (JSON inside JSON text). */
  readonly shape?: (input: In) => Readonly<Record<string, unknown>>;
  /** Undefined: the operation answers nothing the caller needs. */
  readonly read?: ResultReader<Out>;
  /** Type-only: the input the client's method takes. */
  readonly _input?: In;
}

export interface Operation<In = unknown, Out = unknown, P extends ParamSpecs = ParamSpecs> extends OperationSpec<
  In,
  Out,
  P
> {
  readonly action: string;
}

/** Names each spec by its key, so the action name is written once. */
export function defineOperations<
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any input: each operation keeps its own
  T extends Record<string, OperationSpec<any, unknown>>,
>(specs: T): { readonly [K in keyof T & string]: T[K] & { readonly action: K } } {
  return Object.fromEntries(Object.entries(specs).map(([action, spec]) => [action, { ...spec, action }])) as never;
}

/**
 * One operation's spec, its input and result named, its parameters' literal kinds and limits kept
 * (so that ParamValue can read them): `operation<Input, Result>()({ ... })`.
 */
export function operation<In, Out = void>() {
  return <const P extends ParamSpecs>(spec: OperationSpec<In, Out, P>): OperationSpec<In, Out, P> => spec;
}

/** An operation's input as it travels: the signed query parameters, and the JSON body where it has one. */
export interface Prepared {
  params: WireParams;
  /** JSON text body (liveCreateChannel / liveUpdate only). */
  json?: string;
}

/**
 * The client's side of the contract: checks what the client refuses itself (an InputRule naming the
 * field) and turns the input into text parameters, in the order of the specs; undefined and null are
 * left out.
 */
export function prepareRequest<In>(op: OperationSpec<In, unknown>, input: In): Prepared {
  if (op.body) {
    if (op.body.requireId) requireId('id', (input as { id?: unknown } | undefined)?.id);
    const body = requireObject(op.body.field, input);
    return { params: {}, json: jsonText(op.body.field, body) };
  }
  const given = inputObject(op, input);
  const values = op.shape ? op.shape(given as In) : given;
  const params: WireParams = {};
  for (const name in op.params) {
    const text = wireValue(name, op.params[name]!, values[name]);
    if (text !== undefined) params[name] = text;
  }
  return { params };
}

function inputObject(
  op: { readonly input?: OperationSpec<unknown, unknown>['input'] },
  input: unknown,
): Readonly<Record<string, unknown>> {
  if (op.input?.optional && (input === undefined || input === null)) return {};
  return requireObject(op.input?.field ?? 'input', input) as Record<string, unknown>;
}

function wireValue(name: string, spec: ParamSpec, value: unknown): string | undefined {
  switch (spec.client) {
    case 'present':
      if (spec.kind === 'id') requireId(name, value);
      else requireText(name, value);
      break;
    case 'page':
      if (spec.required || value !== undefined) positiveInteger(name, value);
      break;
    case 'boolean':
      if (typeof value !== 'boolean') throw new InputRule(name, spec.rule ?? 'must be true or false');
      break;
    case 'array':
      if (!Array.isArray(value)) throw new InputRule(name, `must be an array of ${spec.items ?? 'items'}`);
      break;
  }
  if (spec.kind === 'ids') return idList(name, value);
  if (value === undefined || value === null) return undefined;
  if (spec.kind === 'json') return jsonText(name, value);
  return scalarText(name, value as string | number | boolean);
}

function requireObject(field: string, value: unknown): object {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InputRule(field, 'must be an object');
  return value;
}

function requireText(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new InputRule(field, 'must be a non-empty string');
  return value;
}
