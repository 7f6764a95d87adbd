import type { AdHocTemplates } from '../../../api/types';
import { validateDocument } from '../../../authoring/validate';
import { l10n } from '../../../l10n/l10n';
import type { EditorDocument } from '../../context';

/** The ad-hoc part of an open `*.transcode.json` job file. */
export interface AdHocSource {
  readonly fileName: string;
  readonly transcodeTemplates: AdHocTemplates;
  readonly videoType?: 0 | 1;
  readonly trailor?: boolean;
  readonly trailorDuration?: number;
  readonly replace?: boolean;
}

export function baseName(fileName: string): string {
  return fileName.split(/[\\/]/).pop() ?? fileName;
}

function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

/**
 * Reads the templates of a transcode job file (`validateDocument('transcode', ...)` first). Throws an Error naming the file, the place and
 * the rule when the file cannot be used (nothing is sent then).
 */
export function readAdHocSource(document: EditorDocument): AdHocSource {
  const name = baseName(document.fileName);
  // The authoring rules (schema and extra rules) decide whether the file is usable.
  const text = document.text();
  const { value, problems } = validateDocument('transcode', text);
  const errors = problems.filter((problem) => problem.severity === 'error');
  if (errors.length > 0 || value === undefined) {
    const first = errors[0];
    const more =
      errors.length === 2
        ? l10n.t(' (and 1 more problem)')
        : errors.length > 2
          ? l10n.t(' (and {0} more problems)', errors.length - 1)
          : '';
    throw new Error(
      first
        ? l10n.t('{0}, line {1}: {2}', name, lineOf(text, first.range.offset), first.message) + more
        : l10n.t('{0} is not a transcode job', name),
    );
  }
  const job = value as Record<string, unknown>;
  const templates = job.transcodeTemplates;
  if (templates === undefined)
    throw new Error(l10n.t('{0} has no transcodeTemplates (ad-hoc templates) to transcode with', name));
  const source: { -readonly [K in keyof AdHocSource]: AdHocSource[K] } = {
    fileName: document.fileName,
    transcodeTemplates: templates as AdHocTemplates,
  };
  if (job.videoType === 0 || job.videoType === 1) source.videoType = job.videoType;
  if (typeof job.trailor === 'boolean') source.trailor = job.trailor;
  if (typeof job.trailorDuration === 'number') source.trailorDuration = job.trailorDuration;
  if (typeof job.replace === 'boolean') source.replace = job.replace;
  return source;
}
