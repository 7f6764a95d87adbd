/**
 * Positions in text already known to be strict JSON (JSON.parse read it), found by scanning the text
 * without building a node tree: validation of a document with no problem, or a few, then costs about
 * what JSON.parse and ajv cost, not a tree of every value (issue 29). The answers are the ones
 * jsonc-parser's tree gives (test/authoring/strictTree.test.ts compares them path by path).
 */
import type { NodeType } from 'jsonc-parser';
import type { TextRange } from './problems';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** The deepest value found along a path: how many segments were followed, where it starts, its key. */
export interface Located {
  depth: number;
  type: NodeType;
  offset: number;
  /** The member's key (quotes included), when the value is an object member. */
  key?: TextRange;
}

function skipSpace(text: string, at: number): number {
  for (;;) {
    const c = text.charCodeAt(at);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) at++;
    else return at;
  }
}

/** The offset after the string starting (with its quote) at `at`. */
function stringEnd(text: string, at: number): number {
  let from = at + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    // A quote preceded by an odd number of backslashes is escaped.
    let before = quote - 1;
    while (text.charCodeAt(before) === BACKSLASH) before--;
    if ((quote - 1 - before) % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The offset after the value starting at `at`. */
export function valueEnd(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE) return stringEnd(text, at);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    for (let i = at; ;) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        i = stringEnd(text, i);
        continue;
      }
      if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return i + 1;
      i++;
    }
  }
  // true, false, null or a number: up to the next separator or space.
  let i = at + 1;
  for (;;) {
    const c = text.charCodeAt(i);
    if (i >= text.length || c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c <= 0x20) return i;
    i++;
  }
}

function typeAt(text: string, at: number): NodeType {
  switch (text.charCodeAt(at)) {
    case OPEN_BRACE:
      return 'object';
    case OPEN_BRACKET:
      return 'array';
    case QUOTE:
      return 'string';
    case 0x74: // t
    case 0x66: // f
      return 'boolean';
    case 0x6e: // n
      return 'null';
    default:
      return 'number';
  }
}

/** The text of a key, its escapes read. */
function keyText(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end - 1);
  return raw.includes('\\') ? (JSON.parse(text.slice(start, end)) as string) : raw;
}

/** The array item at `index` (numbers and numeric-looking text), as the tree's lookup reads a path. */
function itemIndex(segment: string | number): number {
  if (typeof segment === 'number') return segment;
  return /^\d+$/.test(segment) ? Number(segment) : -1;
}

function findItem(text: string, array: number, index: number): number | undefined {
  if (!Number.isInteger(index) || index < 0) return undefined;
  let at = skipSpace(text, array + 1);
  if (text.charCodeAt(at) === CLOSE_BRACKET) return undefined;
  for (let i = 0; ; i++) {
    if (i === index) return at;
    at = skipSpace(text, valueEnd(text, at));
    if (text.charCodeAt(at) !== COMMA) return undefined;
    at = skipSpace(text, at + 1);
  }
}

/** The member named `name`: the last one when `lastOfRepeated` (JSON.parse keeps the last), else the first. */
function findMember(
  text: string,
  object: number,
  name: string,
  lastOfRepeated: boolean,
): { key: TextRange; value: number } | undefined {
  let found: { key: TextRange; value: number } | undefined;
  let at = skipSpace(text, object + 1);
  if (text.charCodeAt(at) === CLOSE_BRACE) return undefined;
  for (;;) {
    const keyEnd = stringEnd(text, at);
    const value = skipSpace(text, skipSpace(text, keyEnd) + 1); // past the colon
    if (keyText(text, at, keyEnd) === name) {
      found = { key: { offset: at, length: keyEnd - at }, value };
      if (!lastOfRepeated) return found;
    }
    at = skipSpace(text, valueEnd(text, value));
    if (text.charCodeAt(at) !== COMMA) return found;
    at = skipSpace(text, at + 1);
  }
}

/**
 * Follows a path from the root as far as it goes. `lastOfRepeated`: the document may repeat a key in
 * an object, so each object is read to its end for the last one (else the first match is the one).
 */
export function locateStrict(text: string, path: ReadonlyArray<string | number>, lastOfRepeated: boolean): Located {
  let located: Located = { depth: 0, type: 'object', offset: skipSpace(text, 0) };
  located.type = typeAt(text, located.offset);
  for (const segment of path) {
    const { depth, type, offset } = located;
    if (type === 'array') {
      const item = findItem(text, offset, itemIndex(segment));
      if (item === undefined) return located;
      located = { depth: depth + 1, type: typeAt(text, item), offset: item };
    } else if (type === 'object') {
      const member = findMember(text, offset, String(segment), lastOfRepeated);
      if (!member) return located;
      located = { depth: depth + 1, type: typeAt(text, member.value), offset: member.value, key: member.key };
    } else {
      return located;
    }
  }
  return located;
}

/**
 * Whether an object of the document names a field twice: JSON.parse keeps one of each repeated key,
 * so the value then holds fewer keys than the text has members. No tree is built for this.
 */
export function repeatsKeys(text: string, value: unknown): boolean {
  const keys = typeof value === 'object' && value !== null ? keyCount(value) : 0;
  // Each member has its colon, and the other colons are inside strings: as many colons as keys
  // means no member was dropped (a quick count). Else the members are counted string by string.
  return colonCount(text) !== keys && memberCount(text) !== keys;
}

function colonCount(text: string): number {
  let count = 0;
  for (let at = text.indexOf(':'); at !== -1; at = text.indexOf(':', at + 1)) count++;
  return count;
}

/** How many object members the text holds (in strict JSON a string followed by a colon is a key). */
function memberCount(text: string): number {
  let count = 0;
  for (let at = text.indexOf('"'); at !== -1;) {
    const end = stringEnd(text, at);
    if (text.charCodeAt(skipSpace(text, end)) === COLON) count++;
    at = text.indexOf('"', end);
  }
  return count;
}

/** How many keys the objects of a parsed value hold, all levels (`value`: an object or array). */
function keyCount(value: object): number {
  let count = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'object' && item !== null) count += keyCount(item);
    }
    return count;
  }
  // JSON.parse makes plain objects whose keys are all their own, and for-in reads them quickest.
  for (const key in value) {
    count++;
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'object' && item !== null) count += keyCount(item);
  }
  return count;
}
