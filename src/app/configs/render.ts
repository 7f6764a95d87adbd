/** The plan and its outcome in plain lines: the command line prints them, the extension logs them. */
import { l10n } from '../../l10n/l10n';
import { operationsToRun } from './apply';
import { describeChange } from './diff';
import type { Plan, PlanAction, PlannedOperation } from './plan';
import { configKindLabel } from './references';

export function planCounts(plan: Plan): Record<PlanAction, number> {
  const counts: Record<PlanAction, number> = { create: 0, update: 0, delete: 0, drift: 0, conflict: 0, none: 0 };
  for (const op of plan.operations) counts[op.action]++;
  return counts;
}

/** "2 to update, 1 to create, 0 to delete" */
export function countsText(plan: Plan): string {
  const c = planCounts(plan);
  return l10n.t(
    '{0} to create, {1} to update, {2} to delete, {3} drifted, {4} in conflict, {5} unchanged',
    c.create,
    c.update,
    c.delete,
    c.drift,
    c.conflict,
    c.none,
  );
}

/** What apply does with a running channel it updates. */
export const RESTART_NOTE = (): string =>
  l10n.t('The channel is running: apply stops it, updates it and starts it again (viewers lose it for a moment).');

/** A value in a one-line message: whole when short, else its start (a template list can be long). */
function shortValue(value: unknown): string {
  const text = value === undefined ? '∅' : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** A drifted or conflicting file's problem line: each field the platform changed, with its value in the file and now. */
export function driftMessage(op: PlannedOperation): string {
  const fields = (op.platformChanges ?? op.changes)
    .map((c) => `${c.path || '(document)'} ${shortValue(c.old)} → ${shortValue(c.new)}`)
    .join('; ');
  return op.action === 'conflict'
    ? l10n.t('Changed in this file and on the platform since the pull (platform: {0}).', fields)
    : l10n.t('Changed on the platform since the pull: {0}.', fields);
}

function operationLine(op: PlannedOperation): string {
  return l10n.t('{0} {1} "{2}" ({3})', op.action, configKindLabel(op.kind), op.name, op.file);
}

export function planLines(plan: Plan): string[] {
  const lines = [l10n.t('Plan for {0}: {1}.', plan.account, countsText(plan))];
  const toRun = operationsToRun(plan).filter((op) => op.action !== 'none');
  if (toRun.length > 0) lines.push(l10n.t('In this order:'));
  toRun.forEach((op, i) => {
    lines.push(`  ${i + 1}. ${operationLine(op)}`);
    if (op.needsStop) lines.push(`       ${RESTART_NOTE()}`);
    for (const change of op.changes) lines.push(`       ${describeChange(change)}`);
  });
  const others = plan.operations.filter((op) => op.action === 'drift' || op.action === 'conflict');
  if (others.length > 0) lines.push(l10n.t('Not applied (changed on the platform since the pull):'));
  for (const op of others) {
    lines.push(`  - ${operationLine(op)}`);
    for (const change of op.platformChanges ?? op.changes)
      lines.push(`       ${l10n.t('platform: {0}', describeChange(change))}`);
    if (op.action === 'conflict')
      for (const change of op.changes) lines.push(`       ${l10n.t('file: {0}', describeChange(change))}`);
  }
  if (plan.problems.length > 0) lines.push(l10n.t('Refused at plan time (nothing will be sent):'));
  for (const problem of plan.problems)
    lines.push(`  ! ${problem.file ? `${problem.file}: ${problem.message}` : problem.message}`);
  if (toRun.length === 0 && others.length === 0 && plan.problems.length === 0)
    lines.push(l10n.t('No changes: the folder and the platform agree.'));
  return lines;
}
