/** Live template and live logo rules beyond the schema. */
import { checkAdvancedArguments } from './advancedArguments';
import { checkAudioKbps, checkVideoKbps, has, isObject, type ProblemSink } from './ruleKit';
import { l10n } from '../../l10n/l10n';

/** What liveTemplateCreate cannot do without (an update may change any subset). */
const CREATE_REQUIRED = ['displayName', 'videoWidth', 'videoHeight', 'videoBitrate'] as const;

export function liveTemplateRules(sink: ProblemSink, value: unknown): void {
  if (!isObject(value)) return;
  checkAudioKbps(sink, [], 'audioBitrate', value.audioBitrate);
  checkVideoKbps(sink, [], 'videoBitrate', value.videoBitrate);
  checkAdvancedArguments(sink, [], 'advancedArguments', value.advancedArguments);
  if (!has(value, 'id')) {
    const missing = CREATE_REQUIRED.filter((field) => !has(value, field));
    if (missing.length > 0) {
      sink.add(
        'error',
        'livetemplate.createIncomplete',
        [],
        l10n.t(
          'A new live template (no "id") needs {0}: liveTemplateCreate requires {1}.',
          missing.map((f) => `"${f}"`).join(', '),
          CREATE_REQUIRED.join(', '),
        ),
        undefined,
        true,
      );
    }
  }
  const changes = Object.keys(value).filter((key) => key !== 'id' && key !== '$schema');
  if (typeof value.id === 'string' && changes.length === 0) {
    sink.add(
      'warning',
      'livetemplate.nothingToUpdate',
      ['id'],
      l10n.t('Only "id" is given, so liveTemplateUpdate would change nothing; add the fields to change.'),
    );
  }
}

export function liveLogoRules(sink: ProblemSink, value: unknown): void {
  if (!isObject(value) || !has(value, 'id')) return;
  sink.add(
    'info',
    'livelogo.cannotUpdate',
    ['id'],
    l10n.t(
      'This logo already exists on the platform, and live logos cannot be modified: Create or Update refuses this file. Remove "id" to create another logo from it.',
    ),
    sink.doc.fix(l10n.t('Remove id (to create another logo)'), (d) => d.remove(['id'])),
  );
}
