import { createHmac } from 'node:crypto';

/** A parameter value as it travels in a query string or form body (already text). */
export type SignableParams = Readonly<Record<string, string>>;

/**
 * Java's String.CASE_INSENSITIVE_ORDER: compare char by char after folding case
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

function foldChar(code: number): number {
  const ch = String.fromCharCode(code);
  return ch.toUpperCase().toLowerCase().charCodeAt(0);
}

/** The text that is signed: secret key, then `name=value` pairs in case-insensitive name order, no separators. */
export function stringToSign(params: SignableParams, secretKey: string): string {
  const names = Object.keys(params).filter((name) => name !== 'signature');
  names.sort(compareCaseInsensitive);
  let text = secretKey;
  for (const name of names) text += `${name}=${params[name]}`;
  return text;
}

/** HMAC-SHA256 (keyed with the secret key) of the string to sign, as lowercase hex. */
export function signParams(params: SignableParams, secretKey: string): string {
  return createHmac('sha256', secretKey).update(stringToSign(params, secretKey), 'utf8').digest('hex');
}
