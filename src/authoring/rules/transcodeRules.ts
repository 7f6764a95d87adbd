/**
 * secondTranscodeV2 job rules beyond the schema: which of templates / group id applies, fields that
 * only work with ad-hoc templates, the trial clip, and each ad-hoc template's formats and encryption.
 */
import {
  checkAudioBitsPerSecond,
  checkDuplicateNames,
  checkVideoKbps,
  has,
  isObject,
  objectItems,
  reportSeveralDefaults,
  type JsonObject,
  type ProblemSink,
} from './ruleKit';
import { l10n } from '../../l10n/l10n';

const FORMATS = ['hls', 'mp4', 'flv', 'ts'] as const;

export function transcodeRules(sink: ProblemSink, value: unknown): void {
  if (!isObject(value)) return;
  const adHoc = has(value, 'transcodeTemplates');
  if (adHoc && has(value, 'transcodeTemplateGroupId')) {
    sink.add(
      'warning',
      'transcode.groupIgnored',
      ['transcodeTemplateGroupId'],
      l10n.t('transcodeTemplateGroupId is ignored: when both are given, the ad-hoc transcodeTemplates win.'),
      sink.doc.fix(l10n.t('Remove transcodeTemplateGroupId'), (d) => d.remove(['transcodeTemplateGroupId'])),
    );
  }
  if (!adHoc && !has(value, 'transcodeTemplateGroupId')) {
    sink.add(
      'info',
      'transcode.defaultGroup',
      [],
      l10n.t(
        "Neither transcodeTemplates nor transcodeTemplateGroupId is given, so the account's default template group is used.",
      ),
      undefined,
      true,
    );
  }
  const unusedWithoutTemplates: string[] = [];
  if (!adHoc) {
    for (const field of ['videoType', 'trailor', 'trailorDuration']) {
      if (!has(value, field)) continue;
      unusedWithoutTemplates.push(field);
      sink.add(
        'warning',
        'transcode.onlyWithTemplates',
        [field],
        l10n.t('{0} only takes effect with ad-hoc transcodeTemplates; with a template group it is ignored.', field),
        sink.doc.fix(l10n.t('Remove {0}', field), (d) => d.remove([field])),
      );
    }
  }
  if (value.trailor === true) {
    if (!has(value, 'trailorDuration')) {
      sink.add(
        'error',
        'transcode.trailorDurationMissing',
        ['trailor'],
        l10n.t('A trial clip is on (trailor true), so "trailorDuration" (seconds, at least 1) is required.'),
      );
    } else if (typeof value.trailorDuration === 'number' && value.trailorDuration < 1) {
      sink.add(
        'error',
        'transcode.trailorDurationMissing',
        ['trailorDuration'],
        l10n.t('A trial clip is on (trailor true), so trailorDuration must be at least 1 second.'),
      );
    }
  } else if (
    typeof value.trailorDuration === 'number' &&
    value.trailorDuration > 0 &&
    !unusedWithoutTemplates.includes('trailorDuration')
  ) {
    sink.add(
      'warning',
      'transcode.trailorDurationUnused',
      ['trailorDuration'],
      l10n.t('trailorDuration ({0} seconds) has no effect while trailor is not true.', value.trailorDuration),
      sink.doc.fix(l10n.t('Remove trailorDuration'), (d) => d.remove(['trailorDuration'])),
    );
  }

  const templates = value.transcodeTemplates;
  const at = Array.isArray(templates) ? ['transcodeTemplates'] : ['transcodeTemplates', 'templates'];
  const list = Array.isArray(templates) ? templates : isObject(templates) ? templates.templates : undefined;
  const items = objectItems(list);
  for (const [index, item] of items) templateRules(sink, [...at, index], item);
  reportSeveralDefaults(
    sink,
    'transcode.severalDefaults',
    at,
    items,
    'defaultVideo',
    (v) => v === 1,
    () => 0,
    l10n.t('template of the run'),
  );
  checkDuplicateNames(sink, 'transcode.duplicateName', at, items);
}

function templateRules(sink: ProblemSink, at: Array<string | number>, item: JsonObject): void {
  if (FORMATS.every((format) => item[format] !== true)) {
    sink.add(
      'error',
      'transcode.noFormat',
      at,
      l10n.t('{0} produces no format: set at least one of hls, mp4, flv or ts to true.', sink.label(at)),
      sink.doc.fix(l10n.t('Produce HLS (hls true)'), (d) => d.set([...at, 'hls'], true)),
      true,
    );
  }
  for (const format of FORMATS) {
    const field = `${format}EncryptType`;
    const encryption = item[field];
    // AES (6) on a format other than HLS is the schema's problem (not allowed at all), not "no effect".
    const allowed = format === 'hls' ? encryption === 6 || encryption === 7 : encryption === 7;
    if (allowed && item[format] !== true) {
      sink.add(
        'warning',
        'transcode.encryptionWithoutFormat',
        [...at, field],
        l10n.t(
          '{0} has no effect: this template does not produce {1} ({2} is not true).',
          sink.label([...at, field]),
          format.toUpperCase(),
          format,
        ),
        sink.doc.fix(l10n.t('Remove {0}', field), (d) => d.remove([...at, field])),
      );
    }
  }
  checkAudioBitsPerSecond(sink, at, 'audioBitrate', item.audioBitrate);
  checkVideoKbps(sink, at, 'videoBitrate', item.videoBitrate);
}
