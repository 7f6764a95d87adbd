import { hmacSha256Hex } from './hmac';

/** A parameter value as it travels in a query string or form body (already text). */
export type SignableParams = Readonly<Record<string, string>>;

/**
 * Java's String.CASE_INSENSITIVE_ORDER: compare char (UTF-16 unit) by char after folding case
 * (upper then lower, as Java does), shorter name first on a tie.
 */
export function compareCaseInsensitive(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let c1 = a.charCodeAt(i);
    let c2 = b.charCodeAt(i);
    if (c1 === c2) continue;
    c1 = foldChar(c1);
    c2 = foldChar(c2);
    if (c1 !== c2) return c1 - c2;
  }
  return a.length - b.length;
}

/**
 * `Character.toLowerCase(Character.toUpperCase(c))`. Java maps one char to one char (simple case
 * mapping); JavaScript's toUpperCase uses full mapping, which turns some chars into several
 * ("ß" -> "SS", "ᾀ" -> "ἈΙ"). Where that happens Java leaves the char as it is, so do the same
 * rather than take the first char of the expansion (that sorted "ß" as "s").
 */
function foldChar(code: number): number {
  if (code < 0x80) return code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
  const ch = String.fromCharCode(code);
  const upper = ch.toUpperCase();
  // toLowerCase of a single char only expands for "İ" ("i" + combining dot); Java gives "i" there.
  return (upper.length === 1 ? upper : ch).toLowerCase().charCodeAt(0);
}

/** The text that is signed: secret key, then `name=value` pairs in case-insensitive name order, no separators. */
export function stringToSign(params: SignableParams, secretKey: string): string {
  let text = secretKey;
  for (const name of signingOrder(Object.keys(params))) text += `${name}=${params[name]}`;
  return text;
}

/**
 * Each operation sends the same names in the same order call after call: their signing order is
 * worked out once per list of names (the comparison folds case char by char, which costs more than
 * the HMAC on a short query) and remembered, up to a bound.
 */
const orders = new Map<string, { names: readonly string[]; sorted: readonly string[] }>();
const MAX_ORDERS = 512;

function signingOrder(names: readonly string[]): readonly string[] {
  const key = names.join(',');
  const known = orders.get(key);
  if (known && known.names.length === names.length && known.names.every((name, i) => name === names[i])) {
    return known.sorted;
  }
  const sorted = names.filter((name) => name !== 'signature').sort(compareCaseInsensitive);
  if (orders.size >= MAX_ORDERS) orders.clear();
  orders.set(key, { names: [...names], sorted });
  return sorted;
}

/** HMAC-SHA256 (keyed with the secret key) of the string to sign, as lowercase hex (see ./hmac.ts for why not node:crypto). */
export function signParams(params: SignableParams, secretKey: string): string {
  return hmacSha256Hex(secretKey, stringToSign(params, secretKey));
}

/** A run of 64 hex digits in either case: what a signature looks like, however a server echoes it back. */
const SIGNATURE_LIKE = /[0-9a-f]{64}/gi;

/** The text with every signature-like run replaced by `***` (for messages and logs). */
export function maskSignatures(text: string): string {
  return text.replace(SIGNATURE_LIKE, '***');
}
