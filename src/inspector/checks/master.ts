/**
 * Master playlist and rendition groups: the family's codes and what a master playlist declares by its text
 * (EXT-X-MEDIA groups, EXT-X-STREAM-INF attributes, session data and keys). Each variant's declaration against
 * what was measured is in masterMeasured.ts.
 */
import { l10n } from '../../l10n/l10n';
import { APPLE, BIS, RFC } from '../findings';
import { registerFamily } from '../registry';
import { parseAttributes, tagLines, type AddProblem } from './tags';

export const masterFamily = {
  name: 'master',
  get title(): string {
    return l10n.t('Master playlist and rendition groups');
  },
  codes: {
    'HLS-RENDITION-GROUP-MISSING': {
      severity: 'error',
      meaning:
        'a variant names an AUDIO, VIDEO, SUBTITLES or CLOSED-CAPTIONS group that no EXT-X-MEDIA of that type has',
      clause: `${RFC} 4.3.4.2`,
    },
    'HLS-RENDITION-DEFAULT': {
      severity: 'error',
      meaning: 'a rendition group has more than one member with DEFAULT=YES',
      clause: `${RFC} 4.3.4.1.1`,
    },
    'HLS-RENDITION-NAME-DUPLICATE': {
      severity: 'error',
      meaning: 'two members of a rendition group have the same NAME',
      clause: `${RFC} 4.3.4.1.1`,
    },
    'HLS-RENDITION-INVALID': {
      severity: 'error',
      meaning:
        'an EXT-X-MEDIA breaks a rule of its attributes (TYPE, GROUP-ID, NAME, URI by type, INSTREAM-ID, AUTOSELECT with DEFAULT, FORCED, LANGUAGE)',
      clause: `${RFC} 4.3.4.1`,
    },
    'HLS-RENDITION-CHANNELS-MISSING': {
      severity: 'warning',
      meaning: 'an AUDIO rendition declares no CHANNELS',
      clause: `${BIS} 4.4.6.1; ${APPLE}, audio (CHANNELS on every audio rendition)`,
    },
    'HLS-CODECS-MISSING': {
      severity: 'warning',
      meaning: 'a variant declares no CODECS',
      clause: `${RFC} 4.3.4.2`,
    },
    'HLS-FRAME-RATE-MISSING': {
      severity: 'warning',
      meaning: 'a video variant declares no FRAME-RATE',
      clause: `${RFC} 4.3.4.2; ${APPLE}, playlists (FRAME-RATE on every video variant)`,
    },
    'HLS-AVERAGE-BANDWIDTH-MISSING': {
      severity: 'info',
      meaning: 'a variant declares no AVERAGE-BANDWIDTH',
      clause: `${RFC} 4.3.4.2; ${APPLE}, playlists (AVERAGE-BANDWIDTH on every variant)`,
    },
    'HLS-INDEPENDENT-SEGMENTS-MISSING': {
      severity: 'info',
      meaning: 'the master playlist has no EXT-X-INDEPENDENT-SEGMENTS although every segment starts with a keyframe',
      clause: `${RFC} 4.3.5.1; ${APPLE}, playlists (EXT-X-INDEPENDENT-SEGMENTS)`,
    },
    'HLS-IFRAME-PLAYLIST-MISSING': {
      severity: 'info',
      meaning: 'a master playlist with video has no EXT-X-I-FRAME-STREAM-INF (no trick play or scrubbing thumbnails)',
      clause: `${RFC} 4.3.4.3; ${APPLE}, trick play (I-frame playlists)`,
    },
    'HLS-SESSION-DATA-INVALID': {
      severity: 'error',
      meaning:
        'an EXT-X-SESSION-DATA without DATA-ID, with both or neither of VALUE and URI, or repeating a DATA-ID and LANGUAGE',
      clause: `${RFC} 4.3.4.4`,
    },
    'HLS-SESSION-KEY-INVALID': {
      severity: 'error',
      meaning: 'an EXT-X-SESSION-KEY with METHOD=NONE, or two alike',
      clause: `${RFC} 4.3.4.5`,
    },
    'HLS-TARGETDURATION-DIFFERS': {
      severity: 'warning',
      meaning: 'the variants of one master playlist have different EXT-X-TARGETDURATION',
      clause: `${RFC} 6.2.4; ${APPLE}, media segmentation (same segmentation across variants)`,
    },
    'HLS-BANDWIDTH-MISMATCH': {
      severity: 'error',
      meaning: 'the measured peak segment bit rate is more than 10 % above BANDWIDTH',
      clause: `${RFC} 4.3.4.2; ${APPLE}, bit rates (peak within 10 % of BANDWIDTH)`,
    },
    'HLS-BANDWIDTH-OVERSTATED': {
      severity: 'warning',
      meaning:
        'BANDWIDTH is more than 10 % above the measured peak segment bit rate (players pick a lower variant than they could)',
      clause: `${APPLE}, bit rates (peak within 10 % of BANDWIDTH)`,
    },
    'HLS-AVERAGE-BANDWIDTH-MISMATCH': {
      severity: 'warning',
      meaning: 'the measured average segment bit rate is not within 10 % of AVERAGE-BANDWIDTH',
      clause: `${RFC} 4.3.4.2; ${APPLE}, bit rates (average within 10 % of AVERAGE-BANDWIDTH)`,
    },
    'HLS-RESOLUTION-MISMATCH': {
      severity: 'error',
      meaning: 'the video of the variant does not have the declared RESOLUTION',
      clause: `${RFC} 4.3.4.2`,
    },
    'HLS-FRAME-RATE-MISMATCH': {
      severity: 'warning',
      meaning: 'the video of the variant does not have the declared FRAME-RATE (more than 1 % off)',
      clause: `${RFC} 4.3.4.2`,
    },
    'HLS-IFRAME-BANDWIDTH-MISMATCH': {
      severity: 'warning',
      meaning:
        "an I-frame playlist's BANDWIDTH is more than 10 % under the peak rate of its I-frames (byte range × 8 / EXTINF)",
      clause: `${RFC} 4.3.4.3, 4.3.4.2`,
    },
    'HLS-CODECS-MISMATCH': {
      severity: 'error',
      meaning:
        'the media does not match CODECS (a codec declared but absent, present but undeclared, or another profile)',
      clause: `${RFC} 4.3.4.2`,
    },
  },
  // The check (declared against measured) is in masterMeasured.ts: this module is light, for an open .m3u8.
} as const;

registerFamily(masterFamily);

const MEDIA_TYPES = ['AUDIO', 'VIDEO', 'SUBTITLES', 'CLOSED-CAPTIONS'];
const GROUP_ATTRIBUTE: Record<string, string> = {
  AUDIO: 'AUDIO',
  VIDEO: 'VIDEO',
  SUBTITLES: 'SUBTITLES',
  'CLOSED-CAPTIONS': 'CLOSED-CAPTIONS',
};
/** RFC 5646 in the shape players read: a primary tag of 2-8 letters, then subtags of 1-8 letters or digits. */
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;

/** The text rules of a master playlist: rendition groups, variant attributes, session data and keys. */
export function masterTextProblems(lines: readonly string[], add: AddProblem): void {
  const tags = tagLines(lines);
  const groups = new Map<string, Array<{ attrs: Map<string, string>; line: number }>>();
  for (const tag of tags.filter((t) => t.name === 'EXT-X-MEDIA')) {
    const attrs = parseAttributes(tag.value);
    renditionRules(attrs, tag.line, add);
    const key = `${attrs.get('TYPE') ?? ''} ${attrs.get('GROUP-ID') ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), { attrs, line: tag.line }]);
  }
  for (const [key, members] of groups) {
    const [type, group] = key.split(' ');
    const defaults = members.filter((m) => m.attrs.get('DEFAULT') === 'YES');
    if (defaults.length > 1) {
      add(
        'HLS-RENDITION-DEFAULT',
        l10n.t(
          '{0} group "{1}" has {2} members with DEFAULT=YES (lines {3}); at most one may be.',
          type!,
          group!,
          defaults.length,
          defaults.map((d) => d.line + 1).join(', '),
        ),
        defaults[1]!.line,
      );
    }
    const names = new Map<string, number>();
    for (const m of members) {
      const name = m.attrs.get('NAME');
      if (name === undefined) continue;
      const first = names.get(name);
      if (first !== undefined) {
        add(
          'HLS-RENDITION-NAME-DUPLICATE',
          l10n.t(
            '{0} group "{1}" has two members named "{2}" (lines {3} and {4}).',
            type!,
            group!,
            name,
            first + 1,
            m.line + 1,
          ),
          m.line,
        );
      } else names.set(name, m.line);
    }
  }
  const streamInfs = tags.filter((t) => t.name === 'EXT-X-STREAM-INF');
  let video = false;
  for (const tag of streamInfs) {
    const attrs = parseAttributes(tag.value);
    for (const type of MEDIA_TYPES) {
      const group = attrs.get(GROUP_ATTRIBUTE[type]!);
      if (group === undefined || (type === 'CLOSED-CAPTIONS' && group === 'NONE')) continue;
      if (!groups.has(`${type} ${group}`)) {
        add(
          'HLS-RENDITION-GROUP-MISSING',
          l10n.t('{0}="{1}" names no EXT-X-MEDIA with TYPE={0} and GROUP-ID="{1}".', type, group),
          tag.line,
        );
      }
    }
    const codecs = attrs.get('CODECS');
    const hasVideo = attrs.has('RESOLUTION') || /\b(avc|hvc|hev|av01|vp09|dvh)/i.test(codecs ?? '');
    video ||= hasVideo;
    if (codecs === undefined) {
      add(
        'HLS-CODECS-MISSING',
        l10n.t('This variant declares no CODECS, so players must download it to know if they can play it.'),
        tag.line,
      );
    }
    if (hasVideo && !attrs.has('FRAME-RATE')) {
      add('HLS-FRAME-RATE-MISSING', l10n.t('This video variant declares no FRAME-RATE.'), tag.line);
    }
    if (!attrs.has('AVERAGE-BANDWIDTH')) {
      add('HLS-AVERAGE-BANDWIDTH-MISSING', l10n.t('This variant declares no AVERAGE-BANDWIDTH.'), tag.line);
    }
  }
  if (video && streamInfs.length > 0 && !tags.some((t) => t.name === 'EXT-X-I-FRAME-STREAM-INF')) {
    add(
      'HLS-IFRAME-PLAYLIST-MISSING',
      l10n.t('The master playlist lists no I-frame playlist (EXT-X-I-FRAME-STREAM-INF): no trick play.'),
      streamInfs[0]!.line,
    );
  }
  sessionRules(tags, add);
}

function renditionRules(attrs: Map<string, string>, line: number, add: AddProblem): void {
  const bad = (why: string): void => add('HLS-RENDITION-INVALID', why, line);
  const type = attrs.get('TYPE');
  if (type === undefined || !MEDIA_TYPES.includes(type)) {
    bad(l10n.t('EXT-X-MEDIA needs TYPE AUDIO, VIDEO, SUBTITLES or CLOSED-CAPTIONS, not "{0}".', type ?? ''));
  }
  if (!attrs.get('GROUP-ID')) bad(l10n.t('EXT-X-MEDIA needs a GROUP-ID.'));
  if (!attrs.get('NAME')) bad(l10n.t('EXT-X-MEDIA needs a NAME.'));
  if (type === 'SUBTITLES' && !attrs.has('URI')) bad(l10n.t('A SUBTITLES rendition needs a URI.'));
  if (type === 'CLOSED-CAPTIONS') {
    if (attrs.has('URI')) bad(l10n.t('A CLOSED-CAPTIONS rendition may have no URI (its captions are in the video).'));
    const id = attrs.get('INSTREAM-ID');
    if (id === undefined || !/^(CC[1-4]|SERVICE([1-9]|[1-5][0-9]|6[0-3]))$/.test(id)) {
      bad(
        l10n.t(
          'A CLOSED-CAPTIONS rendition needs INSTREAM-ID CC1 to CC4 or SERVICE1 to SERVICE63, not "{0}".',
          id ?? '',
        ),
      );
    }
  } else if (attrs.has('INSTREAM-ID')) bad(l10n.t('INSTREAM-ID is for CLOSED-CAPTIONS renditions only.'));
  if (attrs.get('DEFAULT') === 'YES' && attrs.get('AUTOSELECT') === 'NO') {
    bad(l10n.t('A rendition with DEFAULT=YES must have AUTOSELECT=YES (or none).'));
  }
  if (attrs.has('FORCED') && type !== 'SUBTITLES') bad(l10n.t('FORCED is for SUBTITLES renditions only.'));
  for (const name of ['DEFAULT', 'AUTOSELECT', 'FORCED']) {
    const value = attrs.get(name);
    if (value !== undefined && value !== 'YES' && value !== 'NO')
      bad(l10n.t('{0} must be YES or NO, not "{1}".', name, value));
  }
  for (const name of ['LANGUAGE', 'ASSOC-LANGUAGE']) {
    const value = attrs.get(name);
    if (value !== undefined && !LANGUAGE_TAG.test(value)) {
      bad(l10n.t('{0} must be a language tag of RFC 5646 (like "en" or "pt-BR"), not "{1}".', name, value));
    }
  }
  if (type === 'AUDIO' && !attrs.has('CHANNELS')) {
    add('HLS-RENDITION-CHANNELS-MISSING', l10n.t('This AUDIO rendition declares no CHANNELS.'), line);
  }
}

function sessionRules(tags: ReturnType<typeof tagLines>, add: AddProblem): void {
  const data = new Map<string, number>();
  for (const tag of tags.filter((t) => t.name === 'EXT-X-SESSION-DATA')) {
    const attrs = parseAttributes(tag.value);
    const id = attrs.get('DATA-ID');
    if (!id) add('HLS-SESSION-DATA-INVALID', l10n.t('EXT-X-SESSION-DATA needs a DATA-ID.'), tag.line);
    if (attrs.has('VALUE') === attrs.has('URI')) {
      add(
        'HLS-SESSION-DATA-INVALID',
        l10n.t('EXT-X-SESSION-DATA needs either VALUE or URI, not both or neither.'),
        tag.line,
      );
    }
    const key = `${id ?? ''}\u0000${attrs.get('LANGUAGE') ?? ''}`;
    const first = data.get(key);
    if (id && first !== undefined) {
      add(
        'HLS-SESSION-DATA-INVALID',
        l10n.t('DATA-ID "{0}" with this LANGUAGE is given twice (first on line {1}).', id, first + 1),
        tag.line,
      );
    } else data.set(key, tag.line);
  }
  const keys = new Map<string, number>();
  for (const tag of tags.filter((t) => t.name === 'EXT-X-SESSION-KEY')) {
    const attrs = parseAttributes(tag.value);
    if (attrs.get('METHOD') === 'NONE') {
      add('HLS-SESSION-KEY-INVALID', l10n.t('EXT-X-SESSION-KEY may not have METHOD=NONE.'), tag.line);
    }
    const same = keys.get(tag.value);
    if (same !== undefined) {
      add('HLS-SESSION-KEY-INVALID', l10n.t('This EXT-X-SESSION-KEY repeats line {0}.', same + 1), tag.line);
    } else keys.set(tag.value, tag.line);
  }
}
