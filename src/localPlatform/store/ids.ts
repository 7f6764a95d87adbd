import { createHash, randomBytes } from 'node:crypto';

/** A fresh live-object identifier: 32 lowercase hex characters, as the platform uses. */
export function newId(): string {
  return randomBytes(16).toString('hex');
}

/** A deterministic 32-hex identifier (demo data), so names and ids are stable across runs. */
export function stableId(seed: string): string {
  return createHash('md5').update(seed, 'utf8').digest('hex');
}

/** Accepts the 32-hex shape only; anything else can never name a stored object. */
export function isHexId(value: string): boolean {
  return /^[0-9a-f]{32}$/.test(value);
}
