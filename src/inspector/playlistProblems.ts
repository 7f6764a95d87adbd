/**
 * The checks of an HLS playlist that need only its text (no network, no media): what an open `.m3u8`
 * document shows as problems, and the first checks the inspector runs on every playlist it reads.
 * Lines and columns are 0-based, as editors count them.
 */
import { l10n } from '../l10n/l10n';
import { dateRangeProblems } from './checks/dateranges';
import { masterTextProblems } from './checks/master';
import { llhlsTextProblems } from './checks/llhls';
import './checks/live';
import { finding, RFC, type Finding, type FindingCode, type Severity } from './findings';
import type { StreamModel } from './model';
import { codeInfo, registerFamily } from './registry';

import { parseAttributes } from './checks/tags';

export { parseAttributes };

export const playlistFamily = {
  name: 'playlist',
  title: 'Playlist syntax and tag rules',
  codes: {
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
      clause: `${RFC} 4.3.3, 4.3.5`,
    },
    'HLS-URI-MISSING': {
      severity: 'error',
      meaning: 'an EXTINF or EXT-X-STREAM-INF is not followed by a URI line',
      clause: `${RFC} 4.3.2.1`,
    },
    'HLS-ATTRIBUTE-INVALID': {
      severity: 'error',
      meaning:
        'a required attribute is missing or has a value of the wrong form (BANDWIDTH, EXTINF duration, METHOD...)',
      clause: `${RFC} 4.2`,
    },
    'HLS-UNKNOWN-TAG': {
      severity: 'info',
      meaning: 'a tag the inspector does not know (clients ignore it)',
      clause: `${RFC} 4.1, 6.3.1`,
    },
  },
  check: (model: StreamModel): Finding[] => [
    ...(model.master ? textFindings(model.master.text, undefined, variantLines(model.master.text)) : []),
    ...model.playlists.flatMap((p) =>
      p.text !== undefined ? textFindings(p.text, p.viaMaster ? p.name : undefined) : [],
    ),
  ],
} as const;

registerFamily(playlistFamily);

/**
 * The text problems of a playlist as findings (the line in the message); a problem on a master playlist's
 * EXT-X-STREAM-INF line is about the variant whose URI follows it, so the report can mark that variant's row.
 */
function textFindings(text: string, variant: string | undefined, variants = new Map<number, string>()): Finding[] {
  return playlistProblems(text).map((p) => {
    const about = variant ?? variants.get(p.line);
    return finding(p.code, l10n.t('{0} (line {1})', p.message, p.line + 1), {
      ...(about !== undefined ? { variant: about } : {}),
      severity: p.severity,
    });
  });
}

/** Each EXT-X-STREAM-INF line of a master playlist (0-based) with the URI that follows it. */
function variantLines(text: string): Map<number, string> {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const out = new Map<number, string>();
  lines.forEach((line, i) => {
    if (!line.trim().startsWith('#EXT-X-STREAM-INF')) return;
    const uri = lines.slice(i + 1).find((next) => next.trim() !== '' && !next.trim().startsWith('#'));
    if (uri !== undefined) out.set(i, uri.trim());
  });
  return out;
}

export interface PlaylistProblem {
  readonly code: FindingCode;
  readonly severity: Severity;
  readonly message: string;
  readonly line: number;
  readonly startColumn: number;
  readonly endColumn: number;
}

const MASTER_TAGS = new Set([
  'EXT-X-STREAM-INF',
  'EXT-X-I-FRAME-STREAM-INF',
  'EXT-X-MEDIA',
  'EXT-X-SESSION-DATA',
  'EXT-X-SESSION-KEY',
  'EXT-X-CONTENT-STEERING',
]);
const MEDIA_HEADER_TAGS = new Set([
  'EXT-X-TARGETDURATION',
  'EXT-X-MEDIA-SEQUENCE',
  'EXT-X-DISCONTINUITY-SEQUENCE',
  'EXT-X-PLAYLIST-TYPE',
  'EXT-X-I-FRAMES-ONLY',
]);
const SEGMENT_TAGS = new Set([
  'EXTINF',
  'EXT-X-BYTERANGE',
  'EXT-X-DISCONTINUITY',
  'EXT-X-KEY',
  'EXT-X-MAP',
  'EXT-X-PROGRAM-DATE-TIME',
  'EXT-X-DATERANGE',
  'EXT-X-GAP',
  'EXT-X-BITRATE',
  'EXT-X-PART',
  'EXT-X-CUE-OUT',
  'EXT-X-CUE-IN',
  'EXT-X-CUE-OUT-CONT',
]);
const OTHER_TAGS = new Set([
  'EXTM3U',
  'EXT-X-VERSION',
  'EXT-X-INDEPENDENT-SEGMENTS',
  'EXT-X-START',
  'EXT-X-DEFINE',
  'EXT-X-ENDLIST',
  'EXT-X-SERVER-CONTROL',
  'EXT-X-PART-INF',
  'EXT-X-PRELOAD-HINT',
  'EXT-X-RENDITION-REPORT',
  'EXT-X-SKIP',
  'EXT-X-ALLOW-CACHE',
]);
/** Tags that may appear once only (RFC 8216 4.3.3, 4.3.5; rfc8216bis 4.4.3.7-8). */
const ONCE = new Set([
  'EXT-X-VERSION',
  'EXT-X-TARGETDURATION',
  'EXT-X-MEDIA-SEQUENCE',
  'EXT-X-DISCONTINUITY-SEQUENCE',
  'EXT-X-PLAYLIST-TYPE',
  'EXT-X-I-FRAMES-ONLY',
  'EXT-X-ENDLIST',
  'EXT-X-INDEPENDENT-SEGMENTS',
  'EXT-X-START',
  'EXT-X-PART-INF',
  'EXT-X-SERVER-CONTROL',
  'EXT-X-SKIP',
  'EXT-X-CONTENT-STEERING',
]);

export function playlistProblems(text: string, _uri?: string): PlaylistProblem[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const problems: PlaylistProblem[] = [];
  const add = (code: FindingCode, message: string, line: number, start = 0, end = lines[line]?.length ?? 0): void => {
    const severity = codeInfo(code)?.severity;
    if (!severity) throw new Error(`finding code ${code} is not registered (registry.ts)`);
    problems.push({ code, severity, message, line, startColumn: start, endColumn: end });
  };
  if ((lines[0] ?? '').trim() !== '#EXTM3U') {
    add('HLS-PLAYLIST-HEADER', l10n.t('The first line of a playlist must be #EXTM3U.'), 0);
    // Not a playlist at all: other checks would only repeat it.
    if (!lines.some((l) => l.startsWith('#EXT'))) return problems;
  }

  const seen = new Map<string, number>();
  let masterLine: number | undefined;
  let mediaLine: number | undefined;
  let versionLine: number | undefined;
  let declaredVersion = 1;
  let target: number | undefined;
  let targetLine: number | undefined;
  let firstSegmentLine: number | undefined;
  let iFramesOnly = false;
  let pendingUri: { tag: string; line: number } | undefined;
  const needs: Array<{ version: number; why: string; line: number }> = [];
  const extinfs: Array<{ duration: number; line: number; valueEnd: number }> = [];

  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    if (!line.startsWith('#')) {
      if (pendingUri) pendingUri = undefined;
      else if (mediaLine !== undefined || masterLine !== undefined) {
        add(
          'HLS-URI-MISSING',
          l10n.t('This URI has no EXTINF (media playlist) or EXT-X-STREAM-INF (master playlist) before it.'),
          i,
        );
      }
      continue;
    }
    if (!line.startsWith('#EXT')) continue; // a comment
    const colon = line.indexOf(':');
    const name = (colon === -1 ? line : line.slice(0, colon)).slice(1);
    const value = colon === -1 ? '' : line.slice(colon + 1);
    const nameEnd = raw.indexOf(name) + name.length;

    if (ONCE.has(name)) {
      if (seen.has(name))
        add(
          'HLS-TAG-MISPLACED',
          l10n.t('#{0} appears more than once (first on line {1}).', name, seen.get(name)! + 1),
          i,
        );
    }
    if (!seen.has(name)) seen.set(name, i);

    if (pendingUri && (name === 'EXTINF' || name === 'EXT-X-STREAM-INF')) {
      add(
        'HLS-URI-MISSING',
        l10n.t('#{0} on line {1} is not followed by a URI.', pendingUri.tag, pendingUri.line + 1),
        pendingUri.line,
      );
      pendingUri = undefined;
    }

    if (MASTER_TAGS.has(name)) masterLine ??= i;
    else if (MEDIA_HEADER_TAGS.has(name) || SEGMENT_TAGS.has(name)) mediaLine ??= i;
    else if (!OTHER_TAGS.has(name))
      add('HLS-UNKNOWN-TAG', l10n.t('#{0} is not a tag of RFC 8216; players ignore it.', name), i, 1, nameEnd);

    switch (name) {
      case 'EXT-X-VERSION': {
        versionLine = i;
        const v = Number(value);
        if (!Number.isInteger(v) || v < 1)
          add('HLS-ATTRIBUTE-INVALID', l10n.t('EXT-X-VERSION must be a positive integer, not "{0}".', value), i);
        else declaredVersion = v;
        break;
      }
      case 'EXT-X-TARGETDURATION': {
        targetLine = i;
        const t = Number(value);
        if (!/^\d+$/.test(value)) {
          add(
            'HLS-ATTRIBUTE-INVALID',
            l10n.t('EXT-X-TARGETDURATION must be a whole number of seconds, not "{0}".', value),
            i,
          );
        } else target = t;
        if (firstSegmentLine !== undefined) {
          add('HLS-TAG-MISPLACED', l10n.t('#EXT-X-TARGETDURATION must come before the first segment.'), i);
        }
        break;
      }
      case 'EXT-X-MEDIA-SEQUENCE':
      case 'EXT-X-DISCONTINUITY-SEQUENCE':
      case 'EXT-X-PLAYLIST-TYPE':
        if (firstSegmentLine !== undefined)
          add('HLS-TAG-MISPLACED', l10n.t('#{0} must come before the first segment.', name), i);
        if (name !== 'EXT-X-PLAYLIST-TYPE' && !/^\d+$/.test(value)) {
          add('HLS-ATTRIBUTE-INVALID', l10n.t('#{0} must be a whole number, not "{1}".', name, value), i);
        }
        if (name === 'EXT-X-PLAYLIST-TYPE' && value !== 'VOD' && value !== 'EVENT') {
          add('HLS-ATTRIBUTE-INVALID', l10n.t('EXT-X-PLAYLIST-TYPE must be VOD or EVENT, not "{0}".', value), i);
        }
        break;
      case 'EXT-X-I-FRAMES-ONLY':
        iFramesOnly = true;
        needs.push({ version: 4, why: 'EXT-X-I-FRAMES-ONLY', line: i });
        break;
      case 'EXTINF': {
        firstSegmentLine ??= i;
        const durationText = value.split(',')[0] ?? '';
        const duration = Number(durationText);
        const valueStart = raw.indexOf(':') + 1;
        if (durationText === '' || !Number.isFinite(duration) || duration < 0) {
          add('HLS-ATTRIBUTE-INVALID', l10n.t('EXTINF needs a duration in seconds, not "{0}".', durationText), i);
        } else {
          extinfs.push({ duration, line: i, valueEnd: valueStart + durationText.length });
          if (!/^\d+$/.test(durationText))
            needs.push({ version: 3, why: l10n.t('a decimal EXTINF duration'), line: i });
        }
        pendingUri = { tag: 'EXTINF', line: i };
        break;
      }
      case 'EXT-X-STREAM-INF': {
        const attrs = parseAttributes(value);
        if (!/^\d+$/.test(attrs.get('BANDWIDTH') ?? '')) {
          add(
            'HLS-ATTRIBUTE-INVALID',
            l10n.t('EXT-X-STREAM-INF needs BANDWIDTH, a whole number of bits per second.'),
            i,
          );
        }
        const res = attrs.get('RESOLUTION');
        if (res !== undefined && !/^\d+x\d+$/.test(res)) {
          add('HLS-ATTRIBUTE-INVALID', l10n.t('RESOLUTION must be WIDTHxHEIGHT, not "{0}".', res), i);
        }
        pendingUri = { tag: 'EXT-X-STREAM-INF', line: i };
        break;
      }
      case 'EXT-X-KEY':
      case 'EXT-X-SESSION-KEY': {
        const attrs = parseAttributes(value);
        const method = attrs.get('METHOD');
        if (!method || !['NONE', 'AES-128', 'SAMPLE-AES', 'SAMPLE-AES-CTR'].includes(method)) {
          add(
            'HLS-ATTRIBUTE-INVALID',
            l10n.t('#{0} needs METHOD NONE, AES-128 or SAMPLE-AES, not "{1}".', name, method ?? ''),
            i,
          );
        } else if (method !== 'NONE' && !attrs.has('URI')) {
          add('HLS-ATTRIBUTE-INVALID', l10n.t('#{0} with METHOD={1} needs a URI for the key.', name, method), i);
        }
        const iv = attrs.get('IV');
        if (iv !== undefined) {
          if (!/^0[xX][0-9a-fA-F]{1,32}$/.test(iv))
            add('HLS-ATTRIBUTE-INVALID', l10n.t('IV must be a 128-bit hexadecimal number, not "{0}".', iv), i);
          needs.push({ version: 2, why: l10n.t('the IV attribute of EXT-X-KEY'), line: i });
        }
        if (attrs.has('KEYFORMAT') || attrs.has('KEYFORMATVERSIONS')) {
          needs.push({ version: 5, why: 'KEYFORMAT or KEYFORMATVERSIONS', line: i });
        }
        break;
      }
      case 'EXT-X-BYTERANGE':
        needs.push({ version: 4, why: 'EXT-X-BYTERANGE', line: i });
        break;
      case 'EXT-X-MAP':
        needs.push({ version: iFramesOnly ? 5 : 6, why: 'EXT-X-MAP', line: i });
        break;
      default:
        break;
    }
  }
  if (pendingUri)
    add(
      'HLS-URI-MISSING',
      l10n.t('#{0} on line {1} is not followed by a URI.', pendingUri.tag, pendingUri.line + 1),
      pendingUri.line,
    );

  if (masterLine !== undefined && mediaLine !== undefined) {
    add(
      'HLS-TAG-MISPLACED',
      l10n.t('A playlist is either a master playlist (line {0}) or a media playlist, not both.', masterLine + 1),
      Math.max(masterLine, mediaLine),
    );
  }
  const isMedia = mediaLine !== undefined && masterLine === undefined;
  if (masterLine !== undefined && mediaLine === undefined) masterTextProblems(lines, add);
  if (isMedia) {
    llhlsTextProblems(lines, add);
    dateRangeProblems(lines, add);
    const type = lines.find((l) => l.trim().startsWith('#EXT-X-PLAYLIST-TYPE:'));
    if (type?.trim().endsWith(':VOD') && !seen.has('EXT-X-ENDLIST')) {
      add(
        'HLS-ENDLIST-MISSING',
        l10n.t('A VOD playlist (EXT-X-PLAYLIST-TYPE:VOD) needs #EXT-X-ENDLIST; without it players treat it as live.'),
        lines.indexOf(type),
      );
    }
  }
  if (isMedia && target === undefined && targetLine === undefined) {
    add('HLS-TARGETDURATION-MISSING', l10n.t('A media playlist needs #EXT-X-TARGETDURATION.'), 0);
  }
  if (isMedia && target !== undefined) {
    for (const e of extinfs) {
      if (Math.round(e.duration) > target) {
        add(
          'HLS-SEGMENT-LONGER-THAN-TARGET',
          l10n.t(
            'This segment lasts {0} s, longer than the target duration of {1} s (EXT-X-TARGETDURATION, line {2}).',
            e.duration,
            target,
            targetLine! + 1,
          ),
          e.line,
          (lines[e.line] ?? '').indexOf(':') + 1,
          e.valueEnd,
        );
      }
    }
  }
  const strictest = needs.reduce<(typeof needs)[number] | undefined>(
    (m, n) => (!m || n.version > m.version ? n : m),
    undefined,
  );
  if (strictest && strictest.version > declaredVersion) {
    const where = versionLine ?? 0;
    add(
      'HLS-VERSION-TOO-LOW',
      versionLine === undefined
        ? l10n.t(
            'The playlist uses {0} (line {1}), which needs #EXT-X-VERSION:{2} or higher, but declares no version (so version 1).',
            strictest.why,
            strictest.line + 1,
            strictest.version,
          )
        : l10n.t(
            'The playlist uses {0} (line {1}), which needs version {2} or higher, not {3}.',
            strictest.why,
            strictest.line + 1,
            strictest.version,
            declaredVersion,
          ),
      where,
    );
  }
  return problems.sort((a, b) => a.line - b.line);
}
