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
export function stringToSign(params: SignableParams, secretKey: string, order?: readonly string[]): string {
  let text = secretKey;
  for (const name of order ?? namesInOrder(params)) {
    const value = params[name];
    if (value !== undefined) text += `${name}=${value}`;
  }
  return text;
}

/**
 * The signing order of a set of names, `signature` left out: an operation's (the contract knows every
 * name it may send), worked out once and handed to signParams, which skips the names a call leaves out.
 */
export function signingOrder(names: Iterable<string>): readonly string[] {
  return [...new Set(names)].filter((name) => name !== 'signature').sort(compareCaseInsensitive);
}

/**
 * The signing order of a list of names, as the names and as their places in the list. A caller sends the same
 * names in the same order call after call: the order of each list (the comparison folds case char by char) is
 * worked out once and remembered, up to a bound, and found again by comparing the names one by one (no key
 * string made per call).
 */
interface Order {
  names: readonly string[];
  sorted: readonly string[];
  places: readonly number[];
}

const orders: Order[] = [];
const MAX_ORDERS = 64;

function orderOf(names: readonly string[]): Order {
  for (const known of orders) if (sameNames(known.names, names)) return known;
  const sorted = signingOrder(names);
  const order = { names: [...names], sorted, places: sorted.map((name) => names.indexOf(name)) };
  if (orders.length >= MAX_ORDERS) orders.length = 0;
  orders.push(order);
  return order;
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Without an order given, the names of these parameters in order. */
function namesInOrder(params: SignableParams): readonly string[] {
  return orderOf(Object.keys(params)).sorted;
}

/**
 * The HMAC-SHA256 blocks of one key (RFC 2104): the key XOR ipad, and the key XOR opad with room for
 * the inner digest. `innerText` is the first as text where it can be: when every byte of the key is
 * ASCII (so is every byte XOR 0x36), the text's UTF-8 is those same bytes, and the inner hash can read
 * the block and the string to sign as one string, with no buffer written per call.
 */
interface HmacKey {
  inner: Buffer;
  innerText: string | undefined;
  outer: Buffer;
}

const BLOCK = 64;
const DIGEST = 32;
const hmacKeys = new Map<string, HmacKey>();
const MAX_KEYS = 64;

function hmacKey(secretKey: string): HmacKey {
  const known = hmacKeys.get(secretKey);
  if (known) return known;
  let bytes: Buffer = Buffer.from(secretKey, 'utf8');
  if (bytes.length > BLOCK) bytes = hash('sha256', bytes, 'buffer');
  const inner = Buffer.alloc(BLOCK);
  const outer = Buffer.alloc(BLOCK + DIGEST);
  for (let i = 0; i < BLOCK; i++) {
    const byte = i < bytes.length ? bytes[i]! : 0;
    inner[i] = byte ^ 0x36;
    outer[i] = byte ^ 0x5c;
  }
  const innerText = inner.every((byte) => byte < 0x80) ? inner.toString('latin1') : undefined;
  const key: HmacKey = { inner, innerText, outer };
  if (hmacKeys.size >= MAX_KEYS) hmacKeys.clear();
  hmacKeys.set(secretKey, key);
  return key;
}

/** Where the inner block and the string to sign are put together for a key that is not ASCII; grown when a longer one comes. */
let scratch = Buffer.allocUnsafe(4096);

/**
 * HMAC-SHA256 (keyed with the secret key) of the string to sign, as lowercase hex. Made of two one-shot
 * `crypto.hash` calls over the key's blocks, worked out once per key: `createHmac` looks the MAC up in
 * OpenSSL's providers per call (5 to 7 µs a request in the client bench's profile), and so does a kept
 * `createHash` state's `copy()` (slower again in a tight loop). `order`: the names in signing order,
 * see signingOrder; every name of `params` must be in it.
 */
export function signParams(params: SignableParams, secretKey: string, order?: readonly string[]): string {
  return hash('sha256', outerBlock(secretKey, stringToSign(params, secretKey, order)), 'hex');
}

/**
 * The same HMAC, of parameters given as two lists (each name once, `values[i]` the value of `names[i]`), its 32
 * bytes written into `into`: the local platform's one buffer (a digest as a new Buffer per request costs more
 * than the short string it is read from), and the names' order found without an object made of them.
 */
export function signatureOfPairs(
  into: Buffer,
  names: readonly string[],
  values: readonly string[],
  secretKey: string,
): Buffer {
  let text = secretKey;
  for (const i of orderOf(names).places) text += `${names[i]}=${values[i]}`;
  into.write(hash('sha256', outerBlock(secretKey, text), 'binary'), 0, DIGEST, 'latin1');
  return into;
}

/**
 * The key XOR opad followed by the inner digest of the string to sign: what the HMAC's outer hash reads. The inner digest
 * comes back as a `binary` (latin1) string, one char a byte: a digest as a Buffer costs three times a short
 * string in Node 20 (a new backing store per call).
 */
function outerBlock(secretKey: string, text: string): Buffer {
  const key = hmacKey(secretKey);
  const digest =
    key.innerText !== undefined ? hash('sha256', key.innerText + text, 'binary') : innerDigest(key.inner, text);
  for (let i = 0; i < DIGEST; i++) key.outer[BLOCK + i] = digest.charCodeAt(i);
  return key.outer;
}

/** The inner hash over the key's block as bytes, then the string to sign as UTF-8. */
function innerDigest(inner: Buffer, text: string): string {
  const most = BLOCK + text.length * 3;
  if (most > scratch.length) scratch = Buffer.allocUnsafe(Math.max(most, scratch.length * 2));
  inner.copy(scratch, 0);
  const length = BLOCK + scratch.write(text, BLOCK, 'utf8');
  return hash('sha256', scratch.subarray(0, length), 'binary');
}

/** A run of 64 hex digits in either case: what a signature looks like, however a server echoes it back. */
const SIGNATURE_LIKE = /[0-9a-f]{64}/gi;

/** The text with every signature-like run replaced by `***` (for messages and logs). */
export function maskSignatures(text: string): string {
  return text.replace(SIGNATURE_LIKE, '***');
}
