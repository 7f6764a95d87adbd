/**
 * Small helpers shared by the extra rules. Rules read the parsed value defensively (the document may
 * break the schema at the same time) and report through a sink that knows the text positions.
 */
import { JsonDocument, labelOf, type JsonPath } from '../jsonDocument';
import type { Fix, Problem, Severity } from '../problems';
import { l10n } from '../../l10n/l10n';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function has(object: JsonObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** A `"0"`/`"1"` flag that is on, in either of the forms the platform accepts. */
export function isOn(flag: unknown): boolean {
  return flag === '1' || flag === 1;
}

/** The "on" value in the same form (text or number) as an example flag of the document. */
export function onLike(example: unknown): '1' | 1 {
  return typeof example === 'number' ? 1 : '1';
}

export function offLike(example: unknown): '0' | 0 {
  return typeof example === 'number' ? 0 : '0';
}

/** The items of an array value with their index; nothing for a non-array. */
export function objectItems(value: unknown): Array<[number, JsonObject]> {
  if (!Array.isArray(value)) return [];
  const items: Array<[number, JsonObject]> = [];
  value.forEach((item, index) => {
    if (isObject(item)) items.push([index, item]);
  });
  return items;
}

export class ProblemSink {
  readonly problems: Problem[] = [];

  constructor(readonly doc: JsonDocument) {}

  /** A problem on the value at `path` (or on its block marker when `marker` is set). */
  add(severity: Severity, code: string, path: JsonPath, message: string, fix?: Fix, marker = false): void {
    const range = marker ? this.doc.markerRange(path) : this.doc.valueRange(path);
    this.problems.push({ severity, code, range, message, fix });
  }

  label(path: JsonPath): string {
    return labelOf(path);
  }
}

/** Several templates marked as default: one problem per default, each fixing to "only this one". */
export function reportSeveralDefaults(
  sink: ProblemSink,
  code: string,
  listPath: JsonPath,
  items: Array<[number, JsonObject]>,
  field: string,
  isDefault: (value: unknown) => boolean,
  off: (example: unknown) => unknown,
  what: string,
): void {
  const defaults = items.filter(([, item]) => isDefault(item[field]));
  if (defaults.length <= 1) return;
  const indexes = defaults.map(([i]) => i);
  for (const [index, item] of defaults) {
    const path = [...listPath, index, field];
    const others = indexes.filter((i) => i !== index);
    sink.add(
      'error',
      code,
      path,
      l10n.t(
        '{0}: only one {1} may be the default, but {2} are ({3}).',
        sink.label(path),
        what,
        defaults.length,
        indexes.map((i) => `[${i}]`).join(', '),
      ),
      sink.doc.fix(l10n.t('Make {0} the only default', sink.label([...listPath, index])), (d) => {
        for (const i of others) d.set([...listPath, i, field], off(item[field]));
      }),
    );
  }
}

/*
 * The checks below take the object's path and the field apart: the field's path is made only for a
 * problem reported (a group may list hundreds of templates, each checked on every keystroke).
 */

/** Audio bitrate that looks like kbps where bits per second are expected (64 instead of 64000). */
export function checkAudioBitsPerSecond(sink: ProblemSink, at: JsonPath, field: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value >= 1000) return;
  const path = [...at, field];
  sink.add(
    'warning',
    'bitrate.audioUnit',
    path,
    l10n.t(
      '{0} is in bits per second, so {1} means {1} bit/s. Did you mean {2} ({1} kbps)?',
      sink.label(path),
      value,
      value * 1000,
    ),
    sink.doc.fix(l10n.t('Use {0} ({1} kbps)', value * 1000, value), (d) => d.set(path, value * 1000)),
  );
}

/** Audio bitrate that looks like bits per second where kbps are expected (128000 instead of 128). */
export function checkAudioKbps(sink: ProblemSink, at: JsonPath, field: string, value: unknown): void {
  // Up to 1024 kbps (the schema's maximum) in bits per second; beyond, it is no unit slip.
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 8000 || value > 1_024_000 || value % 1000 !== 0)
    return;
  const kbps = value / 1000;
  const path = [...at, field];
  sink.add(
    'warning',
    'bitrate.audioUnit',
    path,
    l10n.t(
      '{0} is in kilobits per second here, so {1} means {2} Mbit/s. Did you mean {2} ({2} kbps)?',
      sink.label(path),
      value,
      kbps,
    ),
    sink.doc.fix(l10n.t('Use {0} (kbps)', kbps), (d) => d.set(path, kbps)),
  );
}

/** Video bitrate that looks like bits per second where kbps are expected (2500000 instead of 2500). */
export function checkVideoKbps(sink: ProblemSink, at: JsonPath, field: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 100000 || value % 1000 !== 0) return;
  const kbps = value / 1000;
  const path = [...at, field];
  sink.add(
    'warning',
    'bitrate.videoUnit',
    path,
    l10n.t(
      '{0} is in kilobits per second, so {1} means {2} Mbit/s. Did you mean {3} ({3} kbps)?',
      sink.label(path),
      value,
      value / 1000,
      kbps,
    ),
    sink.doc.fix(l10n.t('Use {0} (kbps)', kbps), (d) => d.set(path, kbps)),
  );
}

/** Template names repeated in one list (renditions must be told apart). */
export function checkDuplicateNames(
  sink: ProblemSink,
  code: string,
  listPath: JsonPath,
  items: Array<[number, JsonObject]>,
): void {
  const seen = new Map<string, number>();
  for (const [index, item] of items) {
    if (typeof item.name !== 'string') continue;
    const first = seen.get(item.name);
    const path = [...listPath, index, 'name'];
    if (first === undefined) seen.set(item.name, index);
    else
      sink.add(
        'error',
        code,
        path,
        l10n.t(
          '{0} repeats the name {1} of {2}; each template needs its own name.',
          sink.label(path),
          JSON.stringify(item.name),
          sink.label([...listPath, first]),
        ),
      );
  }
}
