/**
 * Channel rules a schema cannot say well: what depends on another field (pull address, time shift
 * and encryption on HLS only, the time shift duration), one default output per group, repeated
 * templates, and what liveUpdate will do to groups without an id.
 */
import {
  has,
  isObject,
  isOn,
  objectItems,
  offLike,
  onLike,
  reportSeveralDefaults,
  type JsonObject,
  type ProblemSink,
} from './ruleKit';
import { l10n } from '../../l10n/l10n';

export function channelRules(sink: ProblemSink, value: unknown): void {
  if (!isObject(value)) return;
  const pull = value.signalType === '2' || value.signalType === 2;
  const push = value.signalType === '1' || value.signalType === 1;
  if (pull && !has(value, 'pullStream')) {
    sink.add(
      'error',
      'channel.pullStreamMissing',
      ['signalType'],
      l10n.t('A pull channel (signalType "2") needs "pullStream": the address the platform pulls the source from.'),
    );
  }
  if (push && has(value, 'pullStream')) {
    sink.add(
      'warning',
      'channel.pullStreamUnused',
      ['pullStream'],
      l10n.t('pullStream is ignored for a push channel (signalType "1"); the source is pushed to the channel instead.'),
      sink.doc.fix(l10n.t('Remove pullStream'), (d) => d.remove(['pullStream'])),
    );
  }
  const updating = typeof value.id === 'string';
  for (const [index, group] of objectItems(value.outputGroupList)) {
    groupRules(sink, ['outputGroupList', index], group, updating);
  }
}

function groupRules(sink: ProblemSink, at: Array<string | number>, group: JsonObject, updating: boolean): void {
  const rtmp = group.protocolType === 2;
  const hls = group.protocolType === 1;
  const timeShift = isOn(group.isTimeShift);

  if (rtmp && timeShift) {
    sink.add(
      'error',
      'channel.timeShiftOnRtmp',
      [...at, 'isTimeShift'],
      l10n.t(
        '{0}: time shift works on HLS groups only (protocolType 1); this is an RTMP group.',
        sink.label([...at, 'isTimeShift']),
      ),
      sink.doc.fix(l10n.t('Remove time shift from this RTMP group'), (d) => {
        d.remove([...at, 'isTimeShift']);
        if (has(group, 'timeShiftDuration')) d.remove([...at, 'timeShiftDuration']);
      }),
    );
  }
  if (rtmp && isOn(group.isLiveEncrypt)) {
    sink.add(
      'error',
      'channel.encryptionOnRtmp',
      [...at, 'isLiveEncrypt'],
      l10n.t(
        '{0}: live encryption works on HLS groups only (protocolType 1); this is an RTMP group.',
        sink.label([...at, 'isLiveEncrypt']),
      ),
      sink.doc.fix(l10n.t('Remove encryption from this RTMP group'), (d) => d.remove([...at, 'isLiveEncrypt'])),
    );
  }
  if (hls && has(group, 'rtmpThirdPartyOutputUrl')) {
    sink.add(
      'error',
      'channel.thirdPartyUrlOnHls',
      [...at, 'rtmpThirdPartyOutputUrl'],
      l10n.t(
        '{0}: a third-party RTMP ingest address applies to RTMP groups (protocolType 2) only; this is an HLS group.',
        sink.label([...at, 'rtmpThirdPartyOutputUrl']),
      ),
      sink.doc.fix(l10n.t('Remove rtmpThirdPartyOutputUrl from this HLS group'), (d) =>
        d.remove([...at, 'rtmpThirdPartyOutputUrl']),
      ),
    );
  }
  if (timeShift && !rtmp && !has(group, 'timeShiftDuration')) {
    sink.add(
      'error',
      'channel.timeShiftDurationMissing',
      [...at, 'isTimeShift'],
      l10n.t(
        '{0}: time shift is on, so "timeShiftDuration" (how many hours viewers can go back) is required in this group.',
        sink.label([...at, 'isTimeShift']),
      ),
      // The hours selected: the user types the number they want over the suggested 2.
      sink.doc.fix(l10n.t('Add "timeShiftDuration": "2" (hours)'), (d) => d.set([...at, 'timeShiftDuration'], '2'), [
        ...at,
        'timeShiftDuration',
      ]),
    );
  }
  if (!timeShift && has(group, 'timeShiftDuration')) {
    sink.add(
      'warning',
      'channel.timeShiftDurationUnused',
      [...at, 'timeShiftDuration'],
      l10n.t(
        '{0} has no effect while time shift is off (isTimeShift is not "1").',
        sink.label([...at, 'timeShiftDuration']),
      ),
      sink.doc.fix(l10n.t('Remove timeShiftDuration'), (d) => d.remove([...at, 'timeShiftDuration'])),
    );
  }
  if (isOn(group.needToMp4) && !isOn(group.isRecord)) {
    sink.add(
      'warning',
      'channel.mp4WithoutRecording',
      [...at, 'needToMp4'],
      l10n.t(
        '{0}: converting the recording to MP4 needs recording on, but isRecord is not "1".',
        sink.label([...at, 'needToMp4']),
      ),
      sink.doc.fix(l10n.t('Turn recording on (isRecord "1")'), (d) =>
        d.set([...at, 'isRecord'], onLike(group.needToMp4)),
      ),
    );
  }
  if (updating && !has(group, 'id')) {
    sink.add(
      'info',
      'channel.groupReplaced',
      at,
      l10n.t(
        '{0} has no id, so liveUpdate replaces it with a new group: its play addresses change. Keep the group\'s "id" to keep them.',
        sink.label(at),
      ),
      undefined,
      true,
    );
  }
  templateRules(sink, [...at, 'outputTemplateList'], group.outputTemplateList);
}

function templateRules(sink: ProblemSink, at: Array<string | number>, list: unknown): void {
  const items = objectItems(list);
  const seen = new Map<string, number>();
  for (const [index, item] of items) {
    if (typeof item.templateId !== 'string') continue;
    const first = seen.get(item.templateId);
    if (first === undefined) {
      seen.set(item.templateId, index);
      continue;
    }
    const path = [...at, index, 'templateId'];
    sink.add(
      'error',
      'channel.duplicateTemplate',
      path,
      l10n.t(
        '{0} repeats the template of {1}; a group can use each live template once.',
        sink.label(path),
        sink.label([...at, first]),
      ),
      sink.doc.fix(l10n.t('Remove {0}', sink.label([...at, index])), (d) => d.remove([...at, index])),
    );
  }
  reportSeveralDefaults(
    sink,
    'channel.severalDefaults',
    at,
    items,
    'isDefault',
    isOn,
    offLike,
    l10n.t('output template of a group'),
  );
  if (items.length > 0 && !items.some(([, item]) => isOn(item.isDefault))) {
    const [firstIndex, first] = items[0];
    sink.add(
      'warning',
      'channel.noDefault',
      at,
      l10n.t(
        '{0}: no template is marked as the default (isDefault "1"), so players get no preferred output.',
        sink.label(at),
      ),
      sink.doc.fix(l10n.t('Make {0} the default', sink.label([...at, firstIndex])), (d) =>
        d.set([...at, firstIndex, 'isDefault'], onLike(first.isDefault)),
      ),
      true,
    );
  }
}
