/**
 * Date ranges and ad markers: EXT-X-DATERANGE's rules (RFC 8216 4.3.2.7) and the pairing of the common
 * SCTE-35 markers (EXT-X-CUE-OUT / EXT-X-CUE-IN), by a media playlist's text.
 */
import { l10n } from '../../l10n/l10n';
import { RFC } from '../findings';
import { registerFamily } from '../registry';
import { parseAttributes, tagLines, type AddProblem } from './tags';

export const dateRangesFamily = {
  name: 'dateranges',
  get title(): string {
    return l10n.t('Date ranges and SCTE-35');
  },
  codes: {
    'HLS-DATERANGE-INVALID': {
      severity: 'error',
      meaning:
        'an EXT-X-DATERANGE without ID or START-DATE, with END-DATE before START-DATE or not matching DURATION, END-ON-NEXT without CLASS or with an end, a negative duration, or an ID reused with other attributes',
      clause: `${RFC} 4.3.2.7`,
    },
    'HLS-SCTE35-UNPAIRED': {
      severity: 'warning',
      meaning: 'an EXT-X-CUE-IN without an EXT-X-CUE-OUT (or EXT-X-CUE-OUT-CONT) before it',
      clause: `${RFC} 4.3.2.7.1 (SCTE-35 as in SCTE 67); common CUE-OUT/CUE-IN practice`,
    },
  },
} as const;

registerFamily(dateRangesFamily);

export function dateRangeProblems(lines: readonly string[], add: AddProblem): void {
  const tags = tagLines(lines);
  const seen = new Map<string, { value: string; line: number }>();
  for (const tag of tags.filter((t) => t.name === 'EXT-X-DATERANGE')) {
    const bad = (why: string): void => add('HLS-DATERANGE-INVALID', why, tag.line);
    const a = parseAttributes(tag.value);
    const id = a.get('ID');
    if (!id) bad(l10n.t('EXT-X-DATERANGE needs an ID.'));
    const start = Date.parse(a.get('START-DATE') ?? '');
    if (!a.has('START-DATE') || Number.isNaN(start)) {
      bad(l10n.t('EXT-X-DATERANGE needs a START-DATE as an ISO 8601 date, not "{0}".', a.get('START-DATE') ?? ''));
    }
    const end = a.has('END-DATE') ? Date.parse(a.get('END-DATE')!) : undefined;
    if (end !== undefined && Number.isNaN(end)) bad(l10n.t('END-DATE "{0}" is not a date.', a.get('END-DATE')!));
    if (end !== undefined && !Number.isNaN(start) && end < start) bad(l10n.t('END-DATE comes before START-DATE.'));
    for (const name of ['DURATION', 'PLANNED-DURATION']) {
      const value = a.get(name);
      if (value !== undefined && !(Number(value) >= 0))
        bad(l10n.t('{0} must be a duration of 0 s or more, not "{1}".', name, value));
    }
    const duration = Number(a.get('DURATION'));
    if (end !== undefined && a.has('DURATION') && !Number.isNaN(start) && Math.abs(start + duration * 1000 - end) > 1) {
      bad(l10n.t('END-DATE is not START-DATE plus DURATION.'));
    }
    if (a.get('END-ON-NEXT') === 'YES') {
      if (!a.has('CLASS')) bad(l10n.t('END-ON-NEXT=YES needs a CLASS.'));
      if (a.has('END-DATE') || a.has('DURATION')) bad(l10n.t('END-ON-NEXT=YES may have no END-DATE or DURATION.'));
    }
    if (id) {
      const before = seen.get(id);
      // A range may be given again with more attributes; the ones given before may not change.
      if (before && [...parseAttributes(before.value)].some(([k, v]) => a.has(k) && a.get(k) !== v)) {
        bad(l10n.t('ID "{0}" was given on line {1} with other attribute values.', id, before.line + 1));
      }
      if (!before) seen.set(id, { value: tag.value, line: tag.line });
    }
  }
  let out: number | undefined;
  for (const tag of tags) {
    if (tag.name === 'EXT-X-CUE-OUT' || tag.name === 'EXT-X-CUE-OUT-CONT') out = tag.line;
    else if (tag.name === 'EXT-X-CUE-IN') {
      if (out === undefined) {
        add(
          'HLS-SCTE35-UNPAIRED',
          l10n.t('EXT-X-CUE-IN without an EXT-X-CUE-OUT or EXT-X-CUE-OUT-CONT before it.'),
          tag.line,
        );
      }
      out = undefined;
    }
  }
}
