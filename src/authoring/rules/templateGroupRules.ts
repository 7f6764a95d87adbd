/**
 * Template group rules beyond the schema: exactly one default rendition, names that tell the
 * renditions apart, AES with HLS only, the trial clip duration against `trailor`, and bitrate units.
 */
import { checkAdvancedArguments } from './advancedArguments';
import {
  checkAudioBitsPerSecond,
  checkVideoKbps,
  isObject,
  objectItems,
  reportSeveralDefaults,
  type JsonObject,
  type ProblemSink,
} from './ruleKit';
import type { JsonPath } from '../jsonDocument';
import { l10n } from '../../l10n/l10n';

const AES = 6;
const HLS = 0;

export function templateGroupRules(sink: ProblemSink, value: unknown): void {
  if (!isObject(value)) return;
  const at = ['transcodeTemplates'];
  const items = objectItems(value.transcodeTemplates);

  reportSeveralDefaults(
    sink,
    'templategroup.severalDefaults',
    at,
    items,
    'defaultVideo',
    (v) => v === 1,
    () => 0,
    l10n.t('template of the group'),
  );
  if (items.length > 0 && !items.some(([, item]) => item.defaultVideo === 1)) {
    const [firstIndex] = items[0];
    sink.add(
      'error',
      'templategroup.noDefault',
      at,
      l10n.t(
        'transcodeTemplates: exactly one template must have defaultVideo 1 (the rendition players start with); none has.',
      ),
      sink.doc.fix(l10n.t('Make {0} the default', sink.label([...at, firstIndex])), (d) =>
        d.set([...at, firstIndex, 'defaultVideo'], 1),
      ),
      true,
    );
  }
  checkRepeatedNames(sink, at, items);

  for (const [index, item] of items) {
    const path = ['transcodeTemplates', index];
    if (item.encryptType === AES && typeof item.format === 'number' && item.format !== HLS) {
      sink.add(
        'error',
        'templategroup.aesNotHls',
        [...path, 'encryptType'],
        l10n.t(
          "{0}: AES encryption (6) works with the HLS format (0) only, and this template's format is {1}.",
          sink.label([...path, 'encryptType']),
          item.format,
        ),
        sink.doc.fix(l10n.t('Use the HLS format (0) for this template'), (d) => d.set([...path, 'format'], HLS)),
      );
    }
    checkAudioBitsPerSecond(sink, path, 'audioBitrate', item.audioBitrate);
    checkVideoKbps(sink, path, 'videoBitrate', item.videoBitrate);
    checkAdvancedArguments(sink, path, 'advancedArguments', item.advancedArguments);
  }

  if (value.trailor === true && typeof value.trailorDuration === 'number' && value.trailorDuration < 1) {
    sink.add(
      'error',
      'templategroup.trailorDurationMissing',
      ['trailorDuration'],
      l10n.t('A trial clip is on (trailor true), so trailorDuration must be at least 1 second.'),
    );
  }
  if (value.trailor === false && typeof value.trailorDuration === 'number' && value.trailorDuration > 0) {
    sink.add(
      'warning',
      'templategroup.trailorDurationUnused',
      ['trailorDuration'],
      l10n.t('trailorDuration ({0} seconds) has no effect while trailor is false.', value.trailorDuration),
      sink.doc.fix(l10n.t('Set trailorDuration to 0'), (d) => d.set(['trailorDuration'], 0)),
    );
  }
}

const PROFILE = ['videoWidth', 'videoHeight', 'videoBitrate', 'audioBitrate'] as const;

/**
 * An item has one `format`, so one rendition in several formats is several items with the same
 * name and profile (the platform merges them into one output stream with an address per format).
 * A repeated name is a mistake when the format repeats too, or when the size or bitrates differ.
 */
function checkRepeatedNames(sink: ProblemSink, at: JsonPath, items: Array<[number, JsonObject]>): void {
  // Earlier items by name, in order (one pass, not a scan per item: groups may list hundreds). Most
  // groups repeat no name: their first item stands alone in the map, without a list of its own.
  const byName = new Map<string, [number, JsonObject] | Array<[number, JsonObject]>>();
  for (const entry of items) {
    const [index, item] = entry;
    if (typeof item.name !== 'string') continue;
    const seen = byName.get(item.name);
    if (seen === undefined) {
      byName.set(item.name, entry);
      continue;
    }
    const earlier = isEntry(seen) ? [seen] : seen;
    byName.set(item.name, [...earlier, entry]);
    const path = [...at, index, 'name'];
    const sameFormat = earlier.find(([, other]) => other.format === item.format);
    const otherProfile = earlier.find(([, other]) => PROFILE.some((field) => other[field] !== item[field]));
    if (sameFormat) {
      sink.add(
        'error',
        'templategroup.duplicateName',
        path,
        l10n.t(
          '{0} repeats the name {1} of {2} with the same format; each rendition needs its own name.',
          sink.label(path),
          JSON.stringify(item.name),
          sink.label([...at, sameFormat[0]]),
        ),
      );
    } else if (otherProfile) {
      const differs = PROFILE.filter((field) => otherProfile[1][field] !== item[field]);
      sink.add(
        'error',
        'templategroup.duplicateName',
        path,
        l10n.t(
          '{0} repeats the name {1} of {2} but not its {3}: templates sharing a name are one rendition in several formats, so give this one its own name or the same size and bitrates.',
          sink.label(path),
          JSON.stringify(item.name),
          sink.label([...at, otherProfile[0]]),
          differs.join(', '),
        ),
      );
    }
  }
}

function isEntry(seen: [number, JsonObject] | Array<[number, JsonObject]>): seen is [number, JsonObject] {
  return typeof seen[0] === 'number';
}
