/**
 * The figures of issue 15 ("Performance") against their goals, collected while the benchmarks run
 * and printed as one table at the end of `npm run bench`. A benchmark adds a row with `goalRow`;
 * a figure measured without a goal (an RSS reading) passes `met: undefined` and shows "reported".
 */
export interface GoalRow {
  /** What is measured, in the words. */
  figure: string;
  /** The goal, e.g. "at most 2x fewer". */
  goal: string;
  /** The measured value, e.g. "1.6x fewer". */
  measured: string;
  /** Whether the goal is met; undefined for a figure only reported. */
  met: boolean | undefined;
}

const rows: GoalRow[] = [];

export function goalRow(row: GoalRow): void {
  rows.push(row);
}

/** The table (plain text, one row per figure); empty when no benchmark added a row. */
export function goalTable(): string {
  if (rows.length === 0) return '';
  const header: GoalRow = { figure: 'figure', goal: 'goal', measured: 'measured', met: undefined };
  const verdict = (row: GoalRow): string =>
    row === header ? 'result' : row.met === undefined ? 'reported' : row.met ? 'met' : 'not met';
  const all = [header, ...rows];
  const width = (pick: (row: GoalRow) => string): number => Math.max(...all.map((row) => pick(row).length));
  const w = [width((r) => r.figure), width((r) => r.goal), width((r) => r.measured)];
  const line = (row: GoalRow): string =>
    `| ${row.figure.padEnd(w[0])} | ${row.goal.padEnd(w[1])} | ${row.measured.padEnd(w[2])} | ${verdict(row)}`;
  const rule = `|${'-'.repeat(w[0] + 2)}|${'-'.repeat(w[1] + 2)}|${'-'.repeat(w[2] + 2)}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}
