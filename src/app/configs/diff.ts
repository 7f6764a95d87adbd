/** A structural diff of two documents: field paths with the old and the new value, never a text diff. */

export interface FieldChange {
  /** `outputGroupList[0].outputTemplateList[1].templateId`; "" for the whole document. */
  readonly path: string;
  /** Absent when the field is new. */
  readonly old?: unknown;
  /** Absent when the field is gone. */
  readonly new?: unknown;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
}

/** The changes that turn `before` into `after`: objects by key, arrays by position, other values whole. */
export function structuralDiff(before: unknown, after: unknown, path = ''): FieldChange[] {
  if (isObject(before) && isObject(after)) {
    const changes: FieldChange[] = [];
    const keys = [...Object.keys(before), ...Object.keys(after).filter((key) => !(key in before))];
    for (const key of keys) {
      if (!(key in after)) changes.push({ path: join(path, key), old: before[key] });
      else if (!(key in before)) changes.push({ path: join(path, key), new: after[key] });
      else changes.push(...structuralDiff(before[key], after[key], join(path, key)));
    }
    return changes;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const changes: FieldChange[] = [];
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      if (i >= after.length) changes.push({ path: join(path, i), old: before[i] });
      else if (i >= before.length) changes.push({ path: join(path, i), new: after[i] });
      else changes.push(...structuralDiff(before[i], after[i], join(path, i)));
    }
    return changes;
  }
  return Object.is(before, after) ? [] : [{ path, old: before, new: after }];
}

/** `trailorDuration: 30 → 45` for a plan's lines. */
export function describeChange(change: FieldChange): string {
  const show = (value: unknown): string => (value === undefined ? '∅' : JSON.stringify(value));
  return `${change.path || '(document)'}: ${show(change.old)} → ${show(change.new)}`;
}
