/**
 * HMAC-SHA256 (RFC 2104, FIPS 180-4) in JavaScript, for the one signature every request carries.
 *
 * Why not node:crypto: `createHmac` looks the MAC up in OpenSSL's providers on every call, and two one-shot
 * `crypto.hash` calls still cross into C++ and allocate twice; in the client bench's profile either cost
 * 4 to 7 µs a request among undici's work (under 2 µs in a tight loop). Here the states after the key's
 * two blocks are worked out once per key, so a short query's signature is four compressions of plain
 * integer arithmetic, without allocations. test/api/signing.test.ts checks it against node:crypto.
 */
import { createHash } from 'node:crypto';

const K = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);
const INITIAL = Int32Array.from([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);
const BLOCK = 64;
const W = new Int32Array(64);

/** One SHA-256 compression of the 64 bytes at `offset` into `state`. */
function compress(state: Int32Array, bytes: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    W[i] = (bytes[j]! << 24) | (bytes[j + 1]! << 16) | (bytes[j + 2]! << 8) | bytes[j + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const w15 = W[i - 15]!;
    const w2 = W[i - 2]!;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
  }
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  let e = state[4]!;
  let f = state[5]!;
  let g = state[6]!;
  let h = state[7]!;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}

/** The states after the key XOR ipad block and the key XOR opad block. */
interface KeyStates {
  inner: Int32Array;
  outer: Int32Array;
}

const keyStates = new Map<string, KeyStates>();
const MAX_KEYS = 64;

function statesOf(secretKey: string): KeyStates {
  const known = keyStates.get(secretKey);
  if (known) return known;
  let bytes: Uint8Array = Buffer.from(secretKey, 'utf8');
  if (bytes.length > BLOCK) bytes = createHash('sha256').update(bytes).digest();
  const pad = new Uint8Array(BLOCK);
  const states: KeyStates = { inner: INITIAL.slice(), outer: INITIAL.slice() };
  for (let i = 0; i < BLOCK; i++) pad[i] = (bytes[i] ?? 0) ^ 0x36;
  compress(states.inner, pad, 0);
  for (let i = 0; i < BLOCK; i++) pad[i] = (bytes[i] ?? 0) ^ 0x5c;
  compress(states.outer, pad, 0);
  if (keyStates.size >= MAX_KEYS) keyStates.clear();
  keyStates.set(secretKey, states);
  return states;
}

/** The message and its padding; grown when a longer one comes. */
let message = Buffer.allocUnsafe(4096);
const outerBlock = new Uint8Array(BLOCK);
const state = new Int32Array(8);
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** HMAC-SHA256 of `text` (as UTF-8) keyed with `secretKey` (as UTF-8), as lowercase hex. */
export function hmacSha256Hex(secretKey: string, text: string): string {
  const states = statesOf(secretKey);
  // Room for the text's UTF-8 (at most 3 bytes a UTF-16 unit), the 0x80 byte and the 8-byte length.
  const most = text.length * 3 + 9 + BLOCK;
  if (most > message.length) message = Buffer.allocUnsafe(Math.max(most, message.length * 2));
  let length = 0;
  for (; length < text.length; length++) {
    const code = text.charCodeAt(length);
    if (code >= 0x80) break;
    message[length] = code;
  }
  if (length < text.length) length = message.write(text, 0, 'utf8');
  // Padding: 0x80, zeros, then the length in bits of everything hashed (the key block too), big-endian.
  const padded = Math.ceil((length + 9) / BLOCK) * BLOCK;
  message.fill(0, length, padded);
  message[length] = 0x80;
  const bits = (BLOCK + length) * 8;
  message.writeUInt32BE(Math.floor(bits / 0x100000000), padded - 8);
  message.writeUInt32BE(bits >>> 0, padded - 4);
  state.set(states.inner);
  for (let offset = 0; offset < padded; offset += BLOCK) compress(state, message, offset);
  // The outer hash: the inner digest (32 bytes), 0x80, zeros, and the length of 64 + 32 bytes in bits.
  for (let i = 0; i < 8; i++) {
    const word = state[i]!;
    outerBlock[i * 4] = word >>> 24;
    outerBlock[i * 4 + 1] = (word >>> 16) & 0xff;
    outerBlock[i * 4 + 2] = (word >>> 8) & 0xff;
    outerBlock[i * 4 + 3] = word & 0xff;
  }
  outerBlock[32] = 0x80;
  outerBlock.fill(0, 33, 62);
  outerBlock[62] = ((BLOCK + 32) * 8) >>> 8;
  outerBlock[63] = ((BLOCK + 32) * 8) & 0xff;
  state.set(states.outer);
  compress(state, outerBlock, 0);
  let hex = '';
  for (let i = 0; i < 8; i++) {
    const word = state[i]!;
    hex += HEX[word >>> 24]! + HEX[(word >>> 16) & 0xff]! + HEX[(word >>> 8) & 0xff]! + HEX[word & 0xff]!;
  }
  return hex;
}
