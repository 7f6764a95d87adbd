/**
 * The Configuration Plan view's rows: the operations in the order apply runs them (each with its field changes and
 * whether it needs a running channel stopped), then drift and conflicts, then what would be refused. Plain rows:
 * the shell (src/vscode/configs.ts) turns them into tree items.
 */
import { join } from 'node:path';
import { l10n } from '../../l10n/l10n';
import { operationsToRun } from './apply';
import { describeChange, type FieldChange } from './diff';
import type { Plan, PlannedOperation } from './plan';
import { configKindLabel } from './references';
import { RESTART_NOTE } from './render';

export interface PlanRow {
  readonly label: string;
  readonly description?: string;
  readonly tooltip?: string;
  /** A codicon id (`diff-added`). */
  readonly icon?: string;
  /** The file a click opens. */
  readonly path?: string;
  readonly children: PlanRow[];
}

const ICONS: Readonly<Record<PlannedOperation['action'], string>> = {
  create: 'diff-added',
  update: 'diff-modified',
  delete: 'diff-removed',
  drift: 'cloud',
  conflict: 'warning',
  none: 'check',
};

function changeRow(change: FieldChange, onPlatform = false): PlanRow {
  const text = describeChange(change);
  const path = change.path || '(document)';
  return {
    label: onPlatform ? l10n.t('platform: {0}', path) : path,
    description: text.slice(text.indexOf(': ') + 2),
    tooltip: text,
    children: [],
  };
}

function operationRow(plan: Plan, op: PlannedOperation, index?: number): PlanRow {
  const changes = op.changes.map((change) => changeRow(change));
  if (op.needsStop)
    changes.unshift({
      label: l10n.t('Stopped, updated, started again'),
      tooltip: RESTART_NOTE(),
      icon: 'debug-restart',
      children: [],
    });
  const platform = (op.platformChanges ?? []).map((change) => changeRow(change, true));
  return {
    label: index === undefined ? op.name : `${index}. ${op.name}`,
    // The action alone beside the name: with the kind too it was cut off in a side bar of the usual width; the
    // kind is in the tooltip (and in the file's name).
    description: op.action,
    tooltip: l10n.t('{0} {1} "{2}" ({3})', op.action, configKindLabel(op.kind), op.name, op.file),
    icon: ICONS[op.action],
    path: join(plan.dir, op.file),
    children: op.action === 'conflict' ? [...platform, ...changes] : changes,
  };
}

export function planRows(plan: Plan | undefined): PlanRow[] {
  if (!plan) return [];
  const rows: PlanRow[] = [];
  operationsToRun(plan)
    .filter((op) => op.action !== 'none')
    .forEach((op, i) => rows.push(operationRow(plan, op, i + 1)));
  for (const op of plan.operations)
    if (op.action === 'drift' || op.action === 'conflict') rows.push(operationRow(plan, op));
  for (const problem of plan.problems)
    rows.push({
      label: problem.file || l10n.t('Folder'),
      description: problem.message,
      tooltip: problem.message,
      icon: 'error',
      ...(problem.file ? { path: join(plan.dir, problem.file) } : {}),
      children: [],
    });
  if (rows.length === 0)
    rows.push({
      label: l10n.t('No changes: the folder and the platform agree.'),
      // Cut off in a narrow side bar: whole in the tooltip.
      tooltip: l10n.t('No changes: the folder and the platform agree.'),
      icon: 'check',
      children: [],
    });
  return rows;
}
