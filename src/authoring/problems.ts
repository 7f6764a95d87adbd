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
  /**
   * Where the cursor goes once applied (offsets in the text after the edits): the value a fix added, selected
   * (inside the quotes of an empty string), so that the user types it at once.
   */
  select?: TextRange;
}

export interface Problem {
  message: string;
  severity: Severity;
  range: TextRange;
  /** Stable identifier of the rule, e.g. `schema.enum` or `channel.timeShiftOnRtmp`. */
  code?: string;
  /** The fix offered first (the preferred one). */
  fix?: Fix;
  /** Other fixes to choose from (each allowed value of a field, ...). */
  alternatives?: Fix[];
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

/**
 * What VS Code's JSON language features report of every JSON file while their validation is on
 * (syntax errors, a comma before a closing bracket, a repeated key, with the same severities): the
 * editor shows those once, from VS Code; the commands still count them.
 */
export function reportedByJsonService(problem: Problem): boolean {
  return (
    problem.code === 'json.syntax' || problem.code === 'json.trailingComma' || problem.code === 'json.duplicateKey'
  );
}
