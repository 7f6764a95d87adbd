import { l10n } from '../../l10n/l10n';
import type { StepOptions, Ui } from '../ui';

/** A wizard's step counter and Back, passed on to the question. */
function stepOptions(options: StepOptions): StepOptions {
  return { step: options.step, totalSteps: options.totalSteps, back: options.back };
}

/** The rule an integer text breaks, naming the field, or undefined. */
function integerRule(field: string, text: string, min: number, max: number): string | undefined {
  if (!/^-?\d+$/.test(text.trim())) return l10n.t('{0} must be a whole number', field);
  const value = Number(text.trim());
  if (value < min || value > max) return l10n.t('{0} must be from {1} to {2}', field, min, max);
  return undefined;
}

export async function askInteger(
  ui: Ui,
  options: { title: string; field: string; prompt: string; value?: number; min: number; max: number } & StepOptions,
): Promise<number | undefined> {
  const text = await ui.input({
    ...stepOptions(options),
    title: options.title,
    prompt: l10n.t('{0} ({1} to {2})', options.prompt, options.min, options.max),
    value: options.value === undefined ? undefined : String(options.value),
    validate: (value) => integerRule(options.field, value, options.min, options.max),
  });
  if (text === undefined) return undefined;
  // The Ui validates as the user types; check again for scripted or pasted answers.
  const rule = integerRule(options.field, text, options.min, options.max);
  if (rule) throw new Error(rule);
  return Number(text.trim());
}

export async function askText(
  ui: Ui,
  options: {
    title: string;
    field: string;
    prompt: string;
    value?: string;
    placeHolder?: string;
    maxLength?: number;
    rule?: (value: string) => string | undefined;
  } & StepOptions,
): Promise<string | undefined> {
  const check = (value: string): string | undefined => {
    if (!value.trim()) return l10n.t('{0} must not be empty', options.field);
    if (options.maxLength && value.trim().length > options.maxLength)
      return l10n.t('{0} must be at most {1} characters', options.field, options.maxLength);
    return options.rule?.(value.trim());
  };
  const text = await ui.input({
    ...stepOptions(options),
    title: options.title,
    prompt: options.prompt,
    value: options.value,
    placeHolder: options.placeHolder,
    validate: check,
  });
  if (text === undefined) return undefined;
  const rule = check(text);
  if (rule) throw new Error(rule);
  return text.trim();
}

/** Thrown by a wizard step when the user backs out: the flow ends quietly. */
export class Dismissed extends Error {
  constructor() {
    super('dismissed');
    this.name = 'Dismissed';
  }
}

/** Unwraps a step's answer, ending the wizard when the user dismissed it. */
export function answered<T>(value: T | undefined): T {
  if (value === undefined) throw new Dismissed();
  return value;
}
