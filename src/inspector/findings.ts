/**
 * The findings the inspector reports: each code is stable (tools and CI match on it), with its severity,
 * what it means, and the clause of RFC 8216 or of Apple's HLS Authoring Specification it rests on.
 * README.md ("Inspecting streams") lists the same table.
 */
export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  readonly code: FindingCode;
  readonly severity: Severity;
  /** Plain words, naming the figures that made the finding. */
  readonly message: string;
  /** The variant (its playlist address as written in the master playlist), when the finding concerns one. */
  readonly variant?: string;
  /** The segment (its address as written in the media playlist), when the finding concerns one. */
  readonly segment?: string;
  readonly clause: string;
}

interface CodeInfo {
  readonly severity: Severity;
  readonly meaning: string;
  readonly clause: string;
}

const RFC = 'RFC 8216';
/**
 * Cited by section name, not item number: Apple renumbers the items between revisions of the specification (the
 * "key frames every two seconds" item was 1.5 in one revision and 1.9 in a later one), so a bare number would point
 * at the wrong rule.
 */
const APPLE = 'Apple HLS Authoring Spec';

export const FINDING_CODES = {
  // Reading the input
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
  // Playlist text (also shown as problems on an open .m3u8 document)
  'HLS-PLAYLIST-HEADER': {
    severity: 'error',
    meaning: 'the first line is not #EXTM3U',
    clause: `${RFC} 4.3.1.1`,
  },
  'HLS-TARGETDURATION-MISSING': {
    severity: 'error',
    meaning: 'a media playlist has no EXT-X-TARGETDURATION',
    clause: `${RFC} 4.3.3.1`,
  },
  'HLS-SEGMENT-LONGER-THAN-TARGET': {
    severity: 'error',
    meaning:
      'a segment (EXTINF, or its measured duration), rounded to the nearest second, exceeds EXT-X-TARGETDURATION',
    clause: `${RFC} 4.3.3.1`,
  },
  'HLS-VERSION-TOO-LOW': {
    severity: 'error',
    meaning: 'the playlist uses a feature that needs a higher EXT-X-VERSION than it declares (or declares none)',
    clause: `${RFC} 7`,
  },
  'HLS-TAG-MISPLACED': {
    severity: 'error',
    meaning:
      'a tag is where it may not be: a media-playlist tag after the first segment, master and media tags mixed, a tag given twice',
    clause: `${RFC} 4.3.3`,
  },
  'HLS-URI-MISSING': {
    severity: 'error',
    meaning: 'an EXTINF or EXT-X-STREAM-INF is not followed by a URI line',
    clause: `${RFC} 4.3.2.1`,
  },
  'HLS-ATTRIBUTE-INVALID': {
    severity: 'error',
    meaning: 'a required attribute is missing or has a value of the wrong form (BANDWIDTH, EXTINF duration, METHOD...)',
    clause: `${RFC} 4.2`,
  },
  'HLS-UNKNOWN-TAG': {
    severity: 'info',
    meaning: 'a tag the inspector does not know (clients ignore it)',
    clause: `${RFC} 4.1`,
  },
  // Variants against their declaration
  'HLS-BANDWIDTH-MISMATCH': {
    severity: 'error',
    meaning: 'the measured peak segment bit rate is more than 10 % above BANDWIDTH',
    clause: `${RFC} 4.3.4.2; ${APPLE}, bit rates (peak within 10 % of BANDWIDTH)`,
  },
  'HLS-BANDWIDTH-OVERSTATED': {
    severity: 'warning',
    meaning:
      'BANDWIDTH is more than 10 % above the measured peak segment bit rate (players pick a lower variant than they could)',
    clause: `${APPLE}, bit rates (peak within 10 % of BANDWIDTH)`,
  },
  'HLS-AVERAGE-BANDWIDTH-MISMATCH': {
    severity: 'warning',
    meaning: 'the measured average segment bit rate is not within 10 % of AVERAGE-BANDWIDTH',
    clause: `${RFC} 4.3.4.2; ${APPLE}, bit rates (average within 10 % of AVERAGE-BANDWIDTH)`,
  },
  'HLS-RESOLUTION-MISMATCH': {
    severity: 'error',
    meaning: 'the video of the variant does not have the declared RESOLUTION',
    clause: `${RFC} 4.3.4.2`,
  },
  'HLS-CODECS-MISMATCH': {
    severity: 'error',
    meaning:
      'the media does not match CODECS (a codec declared but absent, present but undeclared, or another profile)',
    clause: `${RFC} 4.3.4.2`,
  },
  'HLS-CODECS-MISSING': {
    severity: 'warning',
    meaning: 'a variant declares no CODECS',
    clause: `${RFC} 4.3.4.2`,
  },
  'HLS-EXTINF-MISMATCH': {
    severity: 'warning',
    meaning: 'a sampled segment lasts more than half a second longer or shorter than its EXTINF',
    clause: `${RFC} 4.3.2.1`,
  },
  'HLS-SEGMENT-NOT-IDR-START': {
    severity: 'error',
    meaning: 'a sampled video segment does not start with an IDR frame (switching and seeking to it stall)',
    clause: `${RFC} 3; ${APPLE}, media segmentation (segments start with an IDR)`,
  },
  'HLS-KEYFRAME-INTERVAL': {
    severity: 'warning',
    meaning: 'keyframes are further apart than 2 seconds on average',
    clause: `${APPLE}, video (keyframes every 2 s)`,
  },
  'HLS-KEYFRAMES-NOT-ALIGNED': {
    severity: 'warning',
    meaning: 'the same segment starts, or has its keyframes, at different times in different variants',
    clause: `${APPLE}, media segmentation (aligned across variants); ${RFC} 6.2.4`,
  },
  // Encryption
  'HLS-KEY-UNAVAILABLE': {
    severity: 'error',
    meaning: 'the AES-128 key URI could not be fetched',
    clause: `${RFC} 4.3.2.4`,
  },
  'HLS-KEY-INVALID': {
    severity: 'error',
    meaning: 'the AES-128 key is not 16 bytes long',
    clause: `${RFC} 5.2`,
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
  // Live
  'HLS-LIVE-PLAYLIST-STALE': {
    severity: 'error',
    meaning: 'a live playlist was not updated within 1.5 target durations while watched',
    clause: `${RFC} 6.2.1, 6.3.4`,
  },
  'HLS-MEDIA-SEQUENCE-REGRESSED': {
    severity: 'error',
    meaning: 'EXT-X-MEDIA-SEQUENCE went down, or a segment changed its media sequence number, between reloads',
    clause: `${RFC} 6.2.1`,
  },
  'HLS-PROGRAM-DATE-TIME-DRIFT': {
    severity: 'warning',
    meaning: 'EXT-X-PROGRAM-DATE-TIME drifts more than half a second from the sum of the EXTINF durations',
    clause: `${RFC} 4.3.2.6`,
  },
  'HLS-LIVE-EDGE-BEHIND': {
    severity: 'warning',
    meaning: 'the newest segment ends (by its program date-time) more than 3 target durations before the clock',
    clause: `${RFC} 6.2.2, 6.3.3`,
  },
  'HLS-LIVE-NOT-WATCHED': {
    severity: 'info',
    meaning:
      'a live playlist was read once (--live-seconds 0), or watched no longer than 1.5 target durations: staleness not checked',
    clause: `${RFC} 6.3.4`,
  },
  // Single files (MP4, FLV, TS)
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
} as const satisfies Record<string, CodeInfo>;

export type FindingCode = keyof typeof FINDING_CODES;

/** A finding of the catalogue's severity and clause, unless the caller has reason to lower the severity. */
export function finding(
  code: FindingCode,
  message: string,
  where: { variant?: string; segment?: string; severity?: Severity } = {},
): Finding {
  const info: CodeInfo = FINDING_CODES[code];
  return {
    code,
    severity: where.severity ?? info.severity,
    message,
    ...(where.variant !== undefined ? { variant: where.variant } : {}),
    ...(where.segment !== undefined ? { segment: where.segment } : {}),
    clause: info.clause,
  };
}

export function hasErrors(findings: readonly Finding[]): boolean {
  return findings.some((f) => f.severity === 'error');
}
