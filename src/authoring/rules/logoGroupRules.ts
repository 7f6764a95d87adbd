/** Logo group rules beyond the schema: a logo must not disappear before it appears. */
import { isObject, objectItems, type ProblemSink } from './ruleKit';

export function logoGroupRules(sink: ProblemSink, value: unknown): void {
  if (!isObject(value)) return;
  for (const [index, logo] of objectItems(value.logos)) {
    if (typeof logo.start !== 'number' || typeof logo.end !== 'number') continue;
    const path = ['logos', index, 'end'];
    if (logo.end < logo.start) {
      sink.add('error', 'logogroup.endBeforeStart', path, `${sink.label(path)} (${logo.end}%) must not be before start (${logo.start}%).`);
    } else if (logo.end === logo.start) {
      sink.add('warning', 'logogroup.emptyWindow', path, `${sink.label(path)} equals start (${logo.start}%), so the logo shows for no time at all.`);
    }
  }
}
