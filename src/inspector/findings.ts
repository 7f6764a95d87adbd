/**
 * The findings the inspector reports: each code is stable (tools and CI match on it), with its severity, its
 * family, what it means, and the clause of RFC 8216, of draft-pantos-hls-rfc8216bis or of Apple's HLS Authoring
 * Specification it rests on. The codes live with their families (registry.ts); this module holds the families
 * whose codes come from reading rather than from a check: the input, encryption and single files.
 * README.md ("Inspecting streams") lists the same table.
 */
import { l10n } from '../l10n/l10n';
import type { dateRangesFamily } from './checks/dateranges';
import type { deliveryFamily } from './checks/delivery';
import type { liveFamily } from './checks/live';
import type { llhlsFamily } from './checks/llhls';
import type { masterFamily } from './checks/master';
import type { mediaFamily } from './checks/media';
import type { timingFamily } from './checks/timing';
import type { playlistFamily } from './playlistProblems';
import { codeInfo, registerFamily } from './registry';

export type Severity = 'error' | 'warning' | 'info';

type CodesOf<F> = F extends { readonly codes: infer C } ? Extract<keyof C, string> : never;

/** The codes of the built-in families, from their registrations: a misspelt code fails the typecheck. */
export type BuiltInCode = CodesOf<
  | typeof inputFamily
  | typeof encryptionFamily
  | typeof fileFamily
  | typeof playlistFamily
  | typeof masterFamily
  | typeof timingFamily
  | typeof mediaFamily
  | typeof liveFamily
  | typeof llhlsFamily
  | typeof dateRangesFamily
  | typeof deliveryFamily
>;

/** A code of a family registered from outside src/inspector (registerFamily): made by `outsideCode`. */
export type OutsideCode = string & { readonly registeredOutside: true };

/** A registered finding code (registry.ts); `finding` refuses any other. */
export type FindingCode = BuiltInCode | OutsideCode;

/** A code of a family from outside src/inspector, for `finding` and `Finding.code` (registerFamily checks its form). */
export function outsideCode(code: string): OutsideCode {
  return code as OutsideCode;
}

export interface Finding {
  readonly code: FindingCode;
  readonly severity: Severity;
  /** The check family the code belongs to (registry.ts). */
  readonly family: string;
  /** Plain words, naming the figures that made the finding. */
  readonly message: string;
  /** The variant (its playlist address as written in the master playlist), when the finding concerns one. */
  readonly variant?: string;
  /** The segment (its address as written in the media playlist), when the finding concerns one. */
  readonly segment?: string;
  readonly clause: string;
  /** The stretch of the media it concerns (s from its start), for findings of media families. */
  readonly range?: { readonly start: number; readonly end: number };
  /** A still of the picture at that time (a `data:image/jpeg;base64,...` address). */
  readonly still?: string;
}

export const RFC = 'RFC 8216';
export const BIS = 'rfc8216bis';
/**
 * Cited by section name, not item number: Apple renumbers the items between revisions of the specification (the
 * "key frames every two seconds" item was 1.5 in one revision and 1.9 in a later one), so a bare number would point
 * at the wrong rule.
 */
export const APPLE = 'Apple HLS Authoring Spec';

const inputFamily = {
  name: 'input',
  get title(): string {
    return l10n.t('Reading the input');
  },
  codes: {
    'INPUT-UNREADABLE': {
      severity: 'error',
      meaning: 'a playlist, segment or file could not be read (HTTP status, network error, missing file)',
      clause: `${RFC} 6.3.1`,
    },
    'INPUT-REFUSED': {
      severity: 'error',
      meaning:
        'a playlist read over http(s) names a file:// (or other non-http) address for a variant, segment, key or map: not read',
      clause: `${RFC} 4.1`,
    },
    'INPUT-TOO-LARGE': {
      severity: 'warning',
      meaning:
        'a playlist longer than the inspector reads (4 MiB or 100,000 lines), or a segment larger than it reads (32 MiB): not measured',
      clause: `${RFC} 6.2`,
    },
    'INSPECT-DEADLINE': {
      severity: 'warning',
      meaning: 'the run reached its deadline (60 s by default): what was not read by then is not in the report',
      clause: `${RFC} 6.3.1`,
    },
    'MEDIA-UNDECODABLE': {
      severity: 'error',
      meaning: 'a segment or file could not be read as media (not a container the reader knows, or damaged)',
      clause: `${RFC} 3`,
    },
  },
} as const;

registerFamily(inputFamily);

const encryptionFamily = {
  name: 'encryption',
  get title(): string {
    return l10n.t('Encryption');
  },
  codes: {
    'HLS-KEY-UNAVAILABLE': {
      severity: 'error',
      meaning: 'the AES-128 key URI could not be fetched',
      clause: `${RFC} 4.3.2.4`,
    },
    'HLS-KEY-INVALID': {
      severity: 'error',
      meaning: 'the AES-128 key is not 16 bytes long',
      clause: `${RFC} 5.1`,
    },
    'HLS-DECRYPT-FAILED': {
      severity: 'error',
      meaning: 'a segment does not decrypt to media with the key and the IV (given, or the media sequence number)',
      clause: `${RFC} 5.2`,
    },
    'HLS-ENCRYPTION-NOT-CHECKED': {
      severity: 'info',
      meaning: 'SAMPLE-AES or a DRM key format: the key is not fetched and segments are not decoded',
      clause: `${RFC} 4.3.2.4`,
    },
  },
} as const;

registerFamily(encryptionFamily);

const fileFamily = {
  name: 'file',
  get title(): string {
    return l10n.t('Single files (MP4, FLV, TS)');
  },
  codes: {
    'MP4-MOOV-AT-END': {
      severity: 'warning',
      meaning: 'the MP4 index (moov) follows the media (mdat): progressive playback must read the whole file first',
      clause: 'ISO/IEC 14496-12 (progressive download)',
    },
    'MEDIA-NO-VIDEO': {
      severity: 'info',
      meaning: 'the input has no video stream',
      clause: `${RFC} 3`,
    },
  },
} as const;

registerFamily(fileFamily);

/** A finding of the registry's severity, family and clause, unless the caller has reason to lower the severity. */
export function finding(
  code: FindingCode,
  message: string,
  where: { variant?: string; segment?: string; severity?: Severity } = {},
): Finding {
  const info = codeInfo(code);
  if (!info) throw new Error(`finding code ${code} is not registered (registry.ts)`);
  return {
    code,
    severity: where.severity ?? info.severity,
    family: info.family,
    message,
    ...(where.variant !== undefined ? { variant: where.variant } : {}),
    ...(where.segment !== undefined ? { segment: where.segment } : {}),
    clause: info.clause,
  };
}

export function hasErrors(findings: readonly Finding[]): boolean {
  return findings.some((f) => f.severity === 'error');
}
