import { hash } from 'node:crypto';

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

/** The HMAC-SHA256 blocks of one key (RFC 2104): the key XOR ipad, and the key XOR opad with room for the inner digest. */
interface HmacKey {
  inner: Buffer;
  outer: Buffer;
}

const BLOCK = 64;
const hmacKeys = new Map<string, HmacKey>();
const MAX_KEYS = 64;

function hmacKey(secretKey: string): HmacKey {
  const known = hmacKeys.get(secretKey);
  if (known) return known;
  let bytes: Buffer = Buffer.from(secretKey, 'utf8');
  if (bytes.length > BLOCK) bytes = hash('sha256', bytes, 'buffer');
  const key: HmacKey = { inner: Buffer.alloc(BLOCK), outer: Buffer.alloc(BLOCK + 32) };
  for (let i = 0; i < BLOCK; i++) {
    const byte = i < bytes.length ? bytes[i]! : 0;
    key.inner[i] = byte ^ 0x36;
    key.outer[i] = byte ^ 0x5c;
  }
  if (hmacKeys.size >= MAX_KEYS) hmacKeys.clear();
  hmacKeys.set(secretKey, key);
  return key;
}

/** Where the inner block and the string to sign are put together; grown when a longer one comes. */
let scratch = Buffer.allocUnsafe(4096);

/**
 * HMAC-SHA256 (keyed with the secret key) of the string to sign, as lowercase hex. Made of two one-shot
 * `crypto.hash` calls over the key's blocks, worked out once per key: `createHmac` looks the MAC up in
 * OpenSSL's providers per call, which cost 5 to 7 µs a request in the client bench's profile (under 2 µs in
 * a tight loop), more than the rest of the signing.
 */
export function signParams(params: SignableParams, secretKey: string): string {
  return hash('sha256', outerBlock(params, secretKey), 'hex');
}

/** The same HMAC as bytes (the local platform compares them in constant time, no hex decoded per request). */
export function signatureBytes(params: SignableParams, secretKey: string): Buffer {
  return hash('sha256', outerBlock(params, secretKey), 'buffer');
}

/** The key XOR opad followed by the inner digest: what the HMAC's outer hash reads. */
function outerBlock(params: SignableParams, secretKey: string): Buffer {
  const key = hmacKey(secretKey);
  const text = stringToSign(params, secretKey);
  const most = BLOCK + text.length * 3;
  if (most > scratch.length) scratch = Buffer.allocUnsafe(Math.max(most, scratch.length * 2));
  key.inner.copy(scratch, 0);
  const length = BLOCK + scratch.write(text, BLOCK, 'utf8');
  hash('sha256', scratch.subarray(0, length), 'buffer').copy(key.outer, BLOCK);
  return key.outer;
}

/** A run of 64 hex digits in either case: what a signature looks like, however a server echoes it back. */
const SIGNATURE_LIKE = /[0-9a-f]{64}/gi;

/** The text with every signature-like run replaced by `***` (for messages and logs). */
export function maskSignatures(text: string): string {
  return text.replace(SIGNATURE_LIKE, '***');
}
