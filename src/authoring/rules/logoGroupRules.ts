/** Logo group rules beyond the schema: a logo must not disappear before it appears. */
import { isObject, objectItems, type ProblemSink } from './ruleKit';
import { l10n } from '../../l10n/l10n';

export function logoGroupRules(sink: ProblemSink, value: unknown): void {
  if (!isObject(value)) return;
  for (const [index, logo] of objectItems(value.logos)) {
    // Values the schema refuses (not whole numbers, outside 0-100) are its problem, said there.
    if (!isPercent(logo.start) || !isPercent(logo.end)) continue;
    const path = ['logos', index, 'end'];
    if (logo.end < logo.start) {
      sink.add(
        'error',
        'logogroup.endBeforeStart',
        path,
        l10n.t('{0} ({1}%) must not be before start ({2}%).', sink.label(path), logo.end, logo.start),
      );
    } else if (logo.end === logo.start) {
      sink.add(
        'warning',
        'logogroup.emptyWindow',
        path,
        l10n.t('{0} equals start ({1}%), so the logo shows for no time at all.', sink.label(path), logo.start),
      );
    }
  }
}

function isPercent(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 100;
}
