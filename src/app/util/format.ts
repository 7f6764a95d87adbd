import { l10n } from '../../l10n/l10n';

const pad = (value: number): string => String(value).padStart(2, '0');

/**
 * The one date format of the extension: local time, `2026-11-23 16:05:09`, the same in every display
 * language. Takes what the platform gives: milliseconds since 1970, a date string, or a Date. Anything that
 * is not a date is shown as given (the platform's own text beats "Invalid Date").
 */
export function formatDateTime(value: number | string | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** A duration in seconds, as `12 s` or `2.5 s` (one decimal at most; two under a second: `0.15 s`). */
export function formatSeconds(seconds: number): string {
  return l10n.t('{0} s', Number(seconds.toFixed(Math.abs(seconds) < 1 ? 2 : 1)));
}

/** A duration given in milliseconds, in seconds (`formatSeconds`). */
export function formatMilliseconds(milliseconds: number): string {
  return formatSeconds(milliseconds / 1000);
}

/**
 * The one category format (channel or video categories): `News (3)` with its id, the name alone when the id
 * is not known, the id alone when the name is not, and "No category" for none (id 0 or nothing).
 */
export function formatCategory(
  category: { readonly name?: string; readonly id?: string | number } | undefined,
): string {
  const name = category?.name?.trim();
  const id = category?.id === undefined || category.id === '' || category.id === 0 ? undefined : String(category.id);
  if (name && id) return l10n.t('{0} ({1})', name, id);
  if (name) return name;
  if (id) return l10n.t('Category {0}', id);
  return l10n.t('No category');
}
