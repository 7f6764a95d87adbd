/**
 * `advancedArguments` keys (interface 4.3; live template records spell B-frames `bframe`). Unknown
 * keys are only a warning: the platform passes the object on, but a misspelt key does nothing.
 */
import { closest } from '../schemaProblems';
import { has, isObject, type ProblemSink } from './ruleKit';
import type { JsonPath } from '../jsonDocument';

export const ADVANCED_ARGUMENT_KEYS = [
  'rc',
  'gopSize',
  'bFrame',
  'bframe',
  'refFrame',
  'qualityLevel',
  'interlace',
  'gopType',
  'smartBorder',
] as const;

export function checkAdvancedArguments(sink: ProblemSink, path: JsonPath, value: unknown): void {
  if (!isObject(value)) return;
  const known: readonly string[] = ADVANCED_ARGUMENT_KEYS;
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const guess = closest(key, known);
    const keyPath = [...path, key];
    sink.add(
      'warning',
      'advancedArguments.unknownKey',
      keyPath,
      `"${key}" is not an advanced argument the platform knows, so it has no effect.${guess ? ` Did you mean "${guess}"?` : ` Known keys: ${known.join(', ')}.`}`,
      guess && !has(value, guess)
        ? sink.doc.fix(`Rename to "${guess}"`, (d) => d.renameKey(keyPath, guess))
        : undefined,
      true,
    );
  }
  if (has(value, 'bFrame') && has(value, 'bframe')) {
    sink.add(
      'warning',
      'advancedArguments.bothBFrameSpellings',
      [...path, 'bframe'],
      'Both "bFrame" and "bframe" are given; keep one spelling so it is clear which B-frame count applies.',
      undefined,
      true,
    );
  }
}
