/**
 * Which rules of a profile hit an answer: its channel or video (the rule's target), its variant, its segment,
 * and the rule's probability decided by a hash of its seed and the answer, so that a run repeats exactly.
 */
import { createHash } from 'node:crypto';
import type { FaultRule, FileKind, NumberSelector } from './profile';
import { targetMatches } from './profile';

export interface Variant {
  /** 1-based place in the master playlist (template order). */
  index: number;
  width: number;
  height: number;
  /** kbit/s */
  videoBitrate: number;
  name?: string;
}

/** One answer the platform is about to give: whose it is and what it holds. */
export interface Served {
  item: { kind: 'channel' | 'video'; id: string; name: string };
  file: FileKind;
  /** The request path (the key of per-playlist state and of the probability's draw). */
  path: string;
  variant?: Variant;
  /** A master playlist's variants, in order. */
  variants?: Variant[];
  /** A segment's media sequence number, when its name says it. */
  sequence?: number;
  /** A segment's place in its playlist, when known (on-demand playlists: its number). */
  segmentIndex?: number;
}

export function selects(selector: NumberSelector | undefined, n: number | undefined): boolean {
  if (selector === undefined) return true;
  if (n === undefined) return false;
  if (typeof selector === 'number') return n === selector;
  if (Array.isArray(selector)) return n >= selector[0] && n <= selector[1];
  return n % selector.every === 0;
}

export function variantMatches(rule: FaultRule, variant: Variant | undefined): boolean {
  if (rule.variant !== undefined) {
    if (!variant) return false;
    const v = rule.variant;
    const hit = v === `${variant.width}x${variant.height}` || v === variant.name || v === String(variant.index);
    if (!hit) return false;
  }
  if (rule.bitrate !== undefined) {
    if (!variant) return false;
    const [min, max] = Array.isArray(rule.bitrate) ? rule.bitrate : [rule.bitrate, rule.bitrate];
    if (variant.videoBitrate < min || variant.videoBitrate > max) return false;
  }
  return true;
}

/** The rule's draw for this key: the same seed, rule and key always decide alike. */
export function drawn(rule: FaultRule, ruleKey: string, key: string): boolean {
  if (rule.probability === undefined || rule.probability >= 1) return true;
  const hash = createHash('sha256')
    .update(`${rule.seed ?? 0}\0${ruleKey}\0${key}`)
    .digest();
  return hash.readUInt32BE(0) / 2 ** 32 < rule.probability;
}

/** A segment (in a playlist or as a file) is hit by the rule's segment selectors and its draw. */
export function segmentHit(
  rule: FaultRule,
  ruleKey: string,
  at: { sequence?: number; segmentIndex?: number },
  key: string,
): boolean {
  return (
    selects(rule.segmentIndex, at.segmentIndex) && selects(rule.mediaSequence, at.sequence) && drawn(rule, ruleKey, key)
  );
}

/** The rules whose target and variant fit the answer (segment selectors are judged where segments are known). */
export function rulesFor(rules: readonly FaultRule[], served: Served): FaultRule[] {
  return rules.filter(
    (rule) =>
      targetMatches(rule.target, served.item) && (served.file === 'master' || variantMatches(rule, served.variant)),
  );
}
