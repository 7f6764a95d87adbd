/**
 * Low-latency HLS (draft-pantos-hls-rfc8216bis): the partial segments and their target, the hold-back minimums,
 * preload hints, rendition reports and delta updates, by a media playlist's text.
 */
import { l10n } from '../../l10n/l10n';
import { BIS } from '../findings';
import { registerFamily } from '../registry';
import { parseAttributes, tagLines, type AddProblem } from './tags';

export const llhlsFamily = {
  name: 'llhls',
  title: 'Low-latency HLS',
  codes: {
    'HLS-LL-PART-INF-MISSING': {
      severity: 'error',
      meaning: 'a playlist has EXT-X-PART but no EXT-X-PART-INF with PART-TARGET',
      clause: `${BIS} 4.4.3.7`,
    },
    'HLS-LL-PART-TOO-LONG': {
      severity: 'error',
      meaning: 'a partial segment (EXT-X-PART DURATION) is longer than PART-TARGET',
      clause: `${BIS} 4.4.3.7, 4.4.4.9`,
    },
    'HLS-LL-HOLD-BACK': {
      severity: 'error',
      meaning:
        'EXT-X-SERVER-CONTROL: PART-HOLD-BACK missing with parts or under 2 × PART-TARGET, HOLD-BACK under 3 × target duration, or CAN-SKIP-UNTIL under 6 × target duration',
      clause: `${BIS} 4.4.3.8`,
    },
    'HLS-LL-PRELOAD-HINT-INVALID': {
      severity: 'error',
      meaning: 'an EXT-X-PRELOAD-HINT without URI, with a TYPE other than PART or MAP, or two of one TYPE',
      clause: `${BIS} 4.4.5.3`,
    },
    'HLS-LL-RENDITION-REPORT-INVALID': {
      severity: 'error',
      meaning: 'an EXT-X-RENDITION-REPORT without URI, or with LAST-PART but no LAST-MSN',
      clause: `${BIS} 4.4.5.4`,
    },
    'HLS-LL-SKIP-INVALID': {
      severity: 'error',
      meaning: 'EXT-X-SKIP in a playlist whose server does not offer CAN-SKIP-UNTIL, or without SKIPPED-SEGMENTS',
      clause: `${BIS} 4.4.5.2`,
    },
  },
} as const;

registerFamily(llhlsFamily);

const num = (text: string | undefined): number | undefined => {
  const n = Number(text);
  return text === undefined || text === '' || !Number.isFinite(n) ? undefined : n;
};

export function llhlsTextProblems(lines: readonly string[], add: AddProblem): void {
  const tags = tagLines(lines);
  const partInf = tags.find((t) => t.name === 'EXT-X-PART-INF');
  const partTarget = num(partInf && parseAttributes(partInf.value).get('PART-TARGET'));
  const parts = tags.filter((t) => t.name === 'EXT-X-PART');
  const target = num(tags.find((t) => t.name === 'EXT-X-TARGETDURATION')?.value);
  if (parts.length > 0 && partTarget === undefined) {
    add(
      'HLS-LL-PART-INF-MISSING',
      l10n.t('The playlist has EXT-X-PART tags but no EXT-X-PART-INF:PART-TARGET=...'),
      partInf?.line ?? parts[0]!.line,
    );
  }
  if (partTarget !== undefined) {
    for (const part of parts) {
      const duration = num(parseAttributes(part.value).get('DURATION'));
      if (duration !== undefined && duration > partTarget) {
        add(
          'HLS-LL-PART-TOO-LONG',
          l10n.t('This part lasts {0} s, longer than PART-TARGET {1} s.', duration, partTarget),
          part.line,
        );
      }
    }
  }
  const control = tags.find((t) => t.name === 'EXT-X-SERVER-CONTROL');
  const attrs = control ? parseAttributes(control.value) : new Map<string, string>();
  const where = control?.line ?? partInf?.line ?? 0;
  const partHoldBack = num(attrs.get('PART-HOLD-BACK'));
  if (partTarget !== undefined && partHoldBack === undefined) {
    add('HLS-LL-HOLD-BACK', l10n.t('A playlist with EXT-X-PART-INF needs EXT-X-SERVER-CONTROL:PART-HOLD-BACK.'), where);
  } else if (partTarget !== undefined && partHoldBack! < 2 * partTarget) {
    add(
      'HLS-LL-HOLD-BACK',
      l10n.t('PART-HOLD-BACK is {0} s, under twice PART-TARGET ({1} s).', partHoldBack!, 2 * partTarget),
      where,
    );
  }
  const holdBack = num(attrs.get('HOLD-BACK'));
  if (holdBack !== undefined && target !== undefined && holdBack < 3 * target) {
    add(
      'HLS-LL-HOLD-BACK',
      l10n.t('HOLD-BACK is {0} s, under three target durations ({1} s).', holdBack, 3 * target),
      where,
    );
  }
  const skipUntil = num(attrs.get('CAN-SKIP-UNTIL'));
  if (skipUntil !== undefined && target !== undefined && skipUntil < 6 * target) {
    add(
      'HLS-LL-HOLD-BACK',
      l10n.t('CAN-SKIP-UNTIL is {0} s, under six target durations ({1} s).', skipUntil, 6 * target),
      where,
    );
  }
  const hintTypes = new Set<string>();
  for (const hint of tags.filter((t) => t.name === 'EXT-X-PRELOAD-HINT')) {
    const a = parseAttributes(hint.value);
    const type = a.get('TYPE') ?? '';
    if (!a.get('URI')) add('HLS-LL-PRELOAD-HINT-INVALID', l10n.t('EXT-X-PRELOAD-HINT needs a URI.'), hint.line);
    if (type !== 'PART' && type !== 'MAP') {
      add(
        'HLS-LL-PRELOAD-HINT-INVALID',
        l10n.t('EXT-X-PRELOAD-HINT TYPE must be PART or MAP, not "{0}".', type),
        hint.line,
      );
    } else if (hintTypes.has(type)) {
      add('HLS-LL-PRELOAD-HINT-INVALID', l10n.t('A second EXT-X-PRELOAD-HINT of TYPE {0}.', type), hint.line);
    }
    hintTypes.add(type);
  }
  for (const report of tags.filter((t) => t.name === 'EXT-X-RENDITION-REPORT')) {
    const a = parseAttributes(report.value);
    if (!a.get('URI'))
      add('HLS-LL-RENDITION-REPORT-INVALID', l10n.t('EXT-X-RENDITION-REPORT needs a URI.'), report.line);
    if (a.has('LAST-PART') && !a.has('LAST-MSN')) {
      add(
        'HLS-LL-RENDITION-REPORT-INVALID',
        l10n.t('EXT-X-RENDITION-REPORT has LAST-PART but no LAST-MSN.'),
        report.line,
      );
    }
  }
  for (const skip of tags.filter((t) => t.name === 'EXT-X-SKIP')) {
    if (skipUntil === undefined) {
      add('HLS-LL-SKIP-INVALID', l10n.t('EXT-X-SKIP, but EXT-X-SERVER-CONTROL offers no CAN-SKIP-UNTIL.'), skip.line);
    }
    if (num(parseAttributes(skip.value).get('SKIPPED-SEGMENTS')) === undefined) {
      add('HLS-LL-SKIP-INVALID', l10n.t('EXT-X-SKIP needs SKIPPED-SEGMENTS.'), skip.line);
    }
  }
}
