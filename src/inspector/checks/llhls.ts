/**
 * Low-latency HLS (draft-pantos-hls-rfc8216bis): the partial segments and their target, the hold-back minimums,
 * preload hints, rendition reports and delta updates, by a media playlist's text; and what a live low-latency
 * server answered (lowLatency.ts): a blocking reload held and answered in time, a delta update that agrees with
 * the full playlist, INDEPENDENT parts that start with a sync frame.
 */
import type * as HLS from 'hls-parser';
import { l10n } from '../../l10n/l10n';
import { BIS, finding, type Finding } from '../findings';
import type { LowLatencyProbe, MediaPlaylistModel, StreamModel } from '../model';
import { registerFamily } from '../registry';
import { parseAttributes, tagLines, type AddProblem } from './tags';

/**
 * A blocking reload for the next part answered later than this many PART-TARGETs is late: the server must add a
 * part within one PART-TARGET of the last (rfc8216bis 6.2.1) and answer as soon as it does (6.2.5.2); a player
 * holding back PART-HOLD-BACK (at least 2, better 3 PART-TARGETs, 4.4.3.8) has run dry by then.
 */
const LATE_PART_TARGETS = 3;

export const llhlsFamily = {
  name: 'llhls',
  title: 'Low-latency HLS',
  codes: {
    'HLS-LL-PART-INF-MISSING': {
      severity: 'error',
      meaning: 'a playlist has EXT-X-PART but no EXT-X-PART-INF with PART-TARGET',
      clause: `${BIS} 4.4.3.7`,
    },
    'HLS-LL-PART-TOO-LONG': {
      severity: 'error',
      meaning: 'a partial segment (EXT-X-PART DURATION) is longer than PART-TARGET',
      clause: `${BIS} 4.4.3.7, 4.4.4.9`,
    },
    'HLS-LL-HOLD-BACK': {
      severity: 'error',
      meaning:
        'EXT-X-SERVER-CONTROL: PART-HOLD-BACK missing with parts or under 2 × PART-TARGET, HOLD-BACK under 3 × target duration, or CAN-SKIP-UNTIL under 6 × target duration',
      clause: `${BIS} 4.4.3.8`,
    },
    'HLS-LL-PRELOAD-HINT-INVALID': {
      severity: 'error',
      meaning: 'an EXT-X-PRELOAD-HINT without URI, with a TYPE other than PART or MAP, or two of one TYPE',
      clause: `${BIS} 4.4.5.3`,
    },
    'HLS-LL-RENDITION-REPORT-INVALID': {
      severity: 'error',
      meaning: 'an EXT-X-RENDITION-REPORT without URI, or with LAST-PART but no LAST-MSN',
      clause: `${BIS} 4.4.5.4`,
    },
    'HLS-LL-SKIP-INVALID': {
      severity: 'error',
      meaning: 'EXT-X-SKIP in a playlist whose server does not offer CAN-SKIP-UNTIL, or without SKIPPED-SEGMENTS',
      clause: `${BIS} 4.4.5.2`,
    },
    'HLS-LL-BLOCKING-RELOAD-NOT-HELD': {
      severity: 'error',
      meaning:
        'a server offering CAN-BLOCK-RELOAD=YES answered a request for the next part (_HLS_msn, _HLS_part) without that part, or with an error',
      clause: `${BIS} 6.2.5.2`,
    },
    'HLS-LL-BLOCKING-RELOAD-LATE': {
      severity: 'warning',
      meaning:
        'a blocking reload for the next part was answered more than 3 × PART-TARGET after it was asked, or not at all',
      clause: `${BIS} 6.2.5.2, 6.2.1`,
    },
    'HLS-LL-DELTA-UPDATE-INVALID': {
      severity: 'error',
      meaning:
        'a delta update (_HLS_skip) that is no delta update where segments lie beyond CAN-SKIP-UNTIL, whose SKIPPED-SEGMENTS disagrees with the full playlist, or that skips segments within CAN-SKIP-UNTIL of the end',
      clause: `${BIS} 6.2.5.1, 4.4.5.2`,
    },
    'HLS-LL-INDEPENDENT-PART-NO-SYNC': {
      severity: 'error',
      meaning:
        'a part marked INDEPENDENT=YES does not start with a sync frame (an IDR for H.264), or could not be read',
      clause: `${BIS} 4.4.4.9`,
    },
  },
  check: (model: StreamModel): Finding[] =>
    model.playlists.flatMap((p) =>
      p.lowLatency
        ? [...blockingReload(p, p.lowLatency), ...deltaUpdate(p, p.lowLatency), ...independentParts(p, p.lowLatency)]
        : [],
    ),
} as const;

registerFamily(llhlsFamily);

const num = (text: string | undefined): number | undefined => {
  const n = Number(text);
  return text === undefined || text === '' || !Number.isFinite(n) ? undefined : n;
};

export function llhlsTextProblems(lines: readonly string[], add: AddProblem): void {
  const tags = tagLines(lines);
  const partInf = tags.find((t) => t.name === 'EXT-X-PART-INF');
  const partTarget = num(partInf && parseAttributes(partInf.value).get('PART-TARGET'));
  const parts = tags.filter((t) => t.name === 'EXT-X-PART');
  const target = num(tags.find((t) => t.name === 'EXT-X-TARGETDURATION')?.value);
  if (parts.length > 0 && partTarget === undefined) {
    add(
      'HLS-LL-PART-INF-MISSING',
      l10n.t('The playlist has EXT-X-PART tags but no EXT-X-PART-INF:PART-TARGET=...'),
      partInf?.line ?? parts[0]!.line,
    );
  }
  if (partTarget !== undefined) {
    for (const part of parts) {
      const duration = num(parseAttributes(part.value).get('DURATION'));
      if (duration !== undefined && duration > partTarget) {
        add(
          'HLS-LL-PART-TOO-LONG',
          l10n.t('This part lasts {0} s, longer than PART-TARGET {1} s.', duration, partTarget),
          part.line,
        );
      }
    }
  }
  const control = tags.find((t) => t.name === 'EXT-X-SERVER-CONTROL');
  const attrs = control ? parseAttributes(control.value) : new Map<string, string>();
  const where = control?.line ?? partInf?.line ?? 0;
  const partHoldBack = num(attrs.get('PART-HOLD-BACK'));
  if (partTarget !== undefined && partHoldBack === undefined) {
    add('HLS-LL-HOLD-BACK', l10n.t('A playlist with EXT-X-PART-INF needs EXT-X-SERVER-CONTROL:PART-HOLD-BACK.'), where);
  } else if (partTarget !== undefined && partHoldBack! < 2 * partTarget) {
    add(
      'HLS-LL-HOLD-BACK',
      l10n.t('PART-HOLD-BACK is {0} s, under twice PART-TARGET ({1} s).', partHoldBack!, 2 * partTarget),
      where,
    );
  }
  const holdBack = num(attrs.get('HOLD-BACK'));
  if (holdBack !== undefined && target !== undefined && holdBack < 3 * target) {
    add(
      'HLS-LL-HOLD-BACK',
      l10n.t('HOLD-BACK is {0} s, under three target durations ({1} s).', holdBack, 3 * target),
      where,
    );
  }
  const skipUntil = num(attrs.get('CAN-SKIP-UNTIL'));
  if (skipUntil !== undefined && target !== undefined && skipUntil < 6 * target) {
    add(
      'HLS-LL-HOLD-BACK',
      l10n.t('CAN-SKIP-UNTIL is {0} s, under six target durations ({1} s).', skipUntil, 6 * target),
      where,
    );
  }
  const hintTypes = new Set<string>();
  for (const hint of tags.filter((t) => t.name === 'EXT-X-PRELOAD-HINT')) {
    const a = parseAttributes(hint.value);
    const type = a.get('TYPE') ?? '';
    if (!a.get('URI')) add('HLS-LL-PRELOAD-HINT-INVALID', l10n.t('EXT-X-PRELOAD-HINT needs a URI.'), hint.line);
    if (type !== 'PART' && type !== 'MAP') {
      add(
        'HLS-LL-PRELOAD-HINT-INVALID',
        l10n.t('EXT-X-PRELOAD-HINT TYPE must be PART or MAP, not "{0}".', type),
        hint.line,
      );
    } else if (hintTypes.has(type)) {
      add('HLS-LL-PRELOAD-HINT-INVALID', l10n.t('A second EXT-X-PRELOAD-HINT of TYPE {0}.', type), hint.line);
    }
    hintTypes.add(type);
  }
  for (const report of tags.filter((t) => t.name === 'EXT-X-RENDITION-REPORT')) {
    const a = parseAttributes(report.value);
    if (!a.get('URI'))
      add('HLS-LL-RENDITION-REPORT-INVALID', l10n.t('EXT-X-RENDITION-REPORT needs a URI.'), report.line);
    if (a.has('LAST-PART') && !a.has('LAST-MSN')) {
      add(
        'HLS-LL-RENDITION-REPORT-INVALID',
        l10n.t('EXT-X-RENDITION-REPORT has LAST-PART but no LAST-MSN.'),
        report.line,
      );
    }
  }
  for (const skip of tags.filter((t) => t.name === 'EXT-X-SKIP')) {
    if (skipUntil === undefined) {
      add('HLS-LL-SKIP-INVALID', l10n.t('EXT-X-SKIP, but EXT-X-SERVER-CONTROL offers no CAN-SKIP-UNTIL.'), skip.line);
    }
    if (num(parseAttributes(skip.value).get('SKIPPED-SEGMENTS')) === undefined) {
      add('HLS-LL-SKIP-INVALID', l10n.t('EXT-X-SKIP needs SKIPPED-SEGMENTS.'), skip.line);
    }
  }
}

const partName = (msn: number, part: number): string => `${msn}.${part}`;

function blockingReload(p: MediaPlaylistModel, probe: LowLatencyProbe): Finding[] {
  const b = probe.blocking;
  if (!b) return [];
  const asked = partName(b.msn, b.part);
  const seconds = (b.waitedMs / 1000).toFixed(2);
  const limit = LATE_PART_TARGETS * probe.partTarget;
  const at = { variant: p.name };
  if (b.failure !== undefined) {
    // An error status is the server's answer; no answer at all (a timeout) is lateness.
    const answered = /^HTTP \d+$/.test(b.failure);
    return [
      finding(
        answered ? 'HLS-LL-BLOCKING-RELOAD-NOT-HELD' : 'HLS-LL-BLOCKING-RELOAD-LATE',
        l10n.t(
          'The blocking reload for part {0} (_HLS_msn={1}&_HLS_part={2}) got no playlist after {3} s: {4}.',
          asked,
          b.msn,
          b.part,
          seconds,
          b.failure,
        ),
        at,
      ),
    ];
  }
  if (b.holdsAsked === false) {
    const upTo = b.answeredUpTo ? partName(b.answeredUpTo.msn, b.answeredUpTo.parts - 1) : '–';
    return [
      finding(
        'HLS-LL-BLOCKING-RELOAD-NOT-HELD',
        l10n.t(
          'The blocking reload for part {0} was answered after {1} s with a playlist that ends at part {2}: the server did not hold the request until the part existed.',
          asked,
          seconds,
          upTo,
        ),
        at,
      ),
    ];
  }
  if (b.waitedMs / 1000 > limit) {
    return [
      finding(
        'HLS-LL-BLOCKING-RELOAD-LATE',
        l10n.t(
          'The blocking reload for part {0} was answered after {1} s, more than 3 × PART-TARGET ({2} s): parts are due every PART-TARGET.',
          asked,
          seconds,
          limit,
        ),
        at,
      ),
    ];
  }
  return [];
}

/** A media playlist's segments by media sequence number, with their start's distance from the playlist's end. */
function bySequence(playlist: HLS.types.MediaPlaylist): Map<number, { uri: string; fromEnd: number }> {
  const complete = playlist.segments.filter((s) => s.uri.trim() !== '');
  let fromEnd = 0;
  const out = new Map<number, { uri: string; fromEnd: number }>();
  for (const s of [...complete].reverse()) {
    fromEnd += s.duration;
    out.set(s.mediaSequenceNumber, { uri: s.uri, fromEnd });
  }
  return out;
}

function deltaUpdate(p: MediaPlaylistModel, probe: LowLatencyProbe): Finding[] {
  const d = probe.delta;
  if (!d) return [];
  const at = { variant: p.name };
  const invalid = (message: string): Finding[] => [finding('HLS-LL-DELTA-UPDATE-INVALID', message, at)];
  if (d.failure !== undefined) {
    return invalid(l10n.t('The delta update (_HLS_skip={0}) could not be read: {1}.', d.skip, d.failure));
  }
  const { full, delta } = d;
  if (!full) return [];
  if (!delta || d.deltaText === undefined) {
    return invalid(l10n.t('The delta update (_HLS_skip={0}) is not a media playlist.', d.skip));
  }
  const boundary = Number(serverControlOf(d.fullText).get('CAN-SKIP-UNTIL'));
  const segments = bySequence(full);
  const skippable = [...segments.values()].some((s) => s.fromEnd > boundary);
  const skipLine = d.deltaText.split(/\r?\n/).some((l) => l.startsWith('#EXT-X-SKIP:'));
  if (!skipLine) {
    return skippable
      ? invalid(
          l10n.t(
            'Asked for a delta update (_HLS_skip={0}), the server sent the full playlist without EXT-X-SKIP, though segments lie more than CAN-SKIP-UNTIL ({1} s) from its end.',
            d.skip,
            boundary,
          ),
        )
      : [];
  }
  // hls-parser numbers the segments after EXT-X-SKIP from EXT-X-MEDIA-SEQUENCE plus SKIPPED-SEGMENTS.
  const listed = delta.segments.filter((s) => s.uri.trim() !== '');
  const mismatch = listed.find((s) => {
    const same = segments.get(s.mediaSequenceNumber);
    return same !== undefined && same.uri !== s.uri;
  });
  const first = listed[0];
  if (mismatch || (first && !segments.has(first.mediaSequenceNumber) && segments.size > 0)) {
    const s = mismatch ?? first!;
    return invalid(
      l10n.t(
        'The delta update skips {0} segment(s) from media sequence {1}, so it names {2} as segment {3}; the full playlist has {4} there.',
        delta.skip,
        delta.mediaSequenceBase ?? 0,
        s.uri,
        s.mediaSequenceNumber,
        segments.get(s.mediaSequenceNumber)?.uri ?? '–',
      ),
    );
  }
  if (first) {
    const lastSkipped = segments.get(first.mediaSequenceNumber - 1);
    if (lastSkipped && lastSkipped.fromEnd <= boundary) {
      return invalid(
        l10n.t(
          'The delta update skips {0}, which starts {1} s from the end of the playlist, within CAN-SKIP-UNTIL ({2} s): only older segments may be skipped.',
          lastSkipped.uri,
          Math.round(lastSkipped.fromEnd * 1000) / 1000,
          boundary,
        ),
      );
    }
  }
  return [];
}

function serverControlOf(text: string): Map<string, string> {
  const control = tagLines(text.split(/\r?\n/)).find((t) => t.name === 'EXT-X-SERVER-CONTROL');
  return control ? parseAttributes(control.value) : new Map();
}

function independentParts(p: MediaPlaylistModel, probe: LowLatencyProbe): Finding[] {
  return probe.parts.flatMap((part) => {
    const at = { variant: p.name, segment: part.uri };
    const name = partName(part.msn, part.index);
    if (part.failure !== undefined) {
      return [
        finding(
          'HLS-LL-INDEPENDENT-PART-NO-SYNC',
          l10n.t('Part {0} ({1}) is marked INDEPENDENT=YES but could not be read: {2}.', name, part.uri, part.failure),
          at,
        ),
      ];
    }
    if (!part.media?.hasVideo || part.media.startsWithKeyframe) return [];
    return [
      finding(
        'HLS-LL-INDEPENDENT-PART-NO-SYNC',
        l10n.t(
          'Part {0} ({1}) is marked INDEPENDENT=YES but its video does not start with a sync frame: a player joining there cannot decode it.',
          name,
          part.uri,
        ),
        at,
      ),
    ];
  });
}
