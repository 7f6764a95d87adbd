/**
 * What validation reports: problems located by character offsets in the document text, with an
 * optional quick fix expressed as plain text edits, so the logic needs no editor to be tested.
 */
export type Severity = 'error' | 'warning' | 'info';

export interface TextRange {
  offset: number;
  length: number;
}

export interface TextEdit extends TextRange {
  newText: string;
}

export interface Fix {
  /** Shown as the quick fix's title. */
  title: string;
  edits: TextEdit[];
}

export interface Problem {
  message: string;
  severity: Severity;
  range: TextRange;
  /** Stable identifier of the rule, e.g. `schema.enum` or `channel.timeShiftOnRtmp`. */
  code?: string;
  fix?: Fix;
}

/** Applies edits (offsets in the original text, non-overlapping) and returns the new text. */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.offset - a.offset || b.length - a.length);
  let result = text;
  let limit = Number.POSITIVE_INFINITY;
  for (const edit of sorted) {
    if (edit.offset + edit.length > limit) throw new Error('overlapping edits');
    result = result.slice(0, edit.offset) + edit.newText + result.slice(edit.offset + edit.length);
    limit = edit.offset;
  }
  return result;
}

export function hasErrors(problems: readonly Problem[]): boolean {
  return problems.some((p) => p.severity === 'error');
}
