/**
 * `advancedArguments` keys (interface 4.3; live template records spell B-frames `bframe`). Unknown
 * keys are only a warning: the platform passes the object on, but a misspelt key does nothing.
 */
import { closest } from '../schemaProblems';
import { has, isObject, type ProblemSink } from './ruleKit';
import type { JsonPath } from '../jsonDocument';
import { l10n } from '../../l10n/l10n';

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

const KNOWN: ReadonlySet<string> = new Set(ADVANCED_ARGUMENT_KEYS);

/** `advancedArguments` at `at`; its path is made only for a problem reported. */
export function checkAdvancedArguments(sink: ProblemSink, at: JsonPath, field: string, value: unknown): void {
  if (!isObject(value)) return;
  const known: readonly string[] = ADVANCED_ARGUMENT_KEYS;
  for (const key in value) {
    if (KNOWN.has(key) || !has(value, key)) continue;
    const guess = closest(key, known);
    const keyPath = [...at, field, key];
    sink.add(
      'warning',
      'advancedArguments.unknownKey',
      keyPath,
      guess
        ? l10n.t(
            '"{0}" is not an advanced argument the platform knows, so it has no effect. Did you mean "{1}"?',
            key,
            guess,
          )
        : l10n.t(
            '"{0}" is not an advanced argument the platform knows, so it has no effect. Known keys: {1}.',
            key,
            known.join(', '),
          ),
      guess && !has(value, guess)
        ? sink.doc.fix(l10n.t('Rename to "{0}"', guess), (d) => d.renameKey(keyPath, guess))
        : undefined,
      true,
    );
  }
  if (has(value, 'bFrame') && has(value, 'bframe')) {
    sink.add(
      'warning',
      'advancedArguments.bothBFrameSpellings',
      [...at, field, 'bframe'],
      l10n.t('Both "bFrame" and "bframe" are given; keep one spelling so it is clear which B-frame count applies.'),
      undefined,
      true,
    );
  }
}
