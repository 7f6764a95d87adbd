/**
 * Live playlists over the reloads read while watching: advancing in time, media sequence numbers kept, tags that
 * may not change staying the same, program date-time present, steady and near the clock.
 */
import type * as HLS from 'hls-parser';
import { l10n } from '../../l10n/l10n';
import { APPLE, finding, RFC, type Finding } from '../findings';
import { isLive, type MediaPlaylistModel, type StreamModel } from '../model';
import { registerFamily } from '../registry';

export const liveFamily = {
  name: 'live',
  title: 'Live',
  codes: {
    'HLS-LIVE-PLAYLIST-STALE': {
      severity: 'error',
      meaning: 'a live playlist was not updated within 1.5 target durations while watched',
      clause: `${RFC} 6.2.1, 6.3.4`,
    },
    'HLS-MEDIA-SEQUENCE-REGRESSED': {
      severity: 'error',
      meaning: 'EXT-X-MEDIA-SEQUENCE went down, or a segment changed its media sequence number, between reloads',
      clause: `${RFC} 6.2.1, 6.2.2`,
    },
    'HLS-LIVE-TAG-CHANGED': {
      severity: 'error',
      meaning: 'EXT-X-TARGETDURATION, EXT-X-VERSION or EXT-X-PLAYLIST-TYPE changed between reloads of a live playlist',
      clause: `${RFC} 6.2.1`,
    },
    'HLS-PROGRAM-DATE-TIME-DRIFT': {
      severity: 'warning',
      meaning: 'EXT-X-PROGRAM-DATE-TIME drifts more than half a second from the sum of the EXTINF durations',
      clause: `${RFC} 4.3.2.6`,
    },
    'HLS-PROGRAM-DATE-TIME-MISSING': {
      severity: 'info',
      meaning: 'a live playlist has no EXT-X-PROGRAM-DATE-TIME (no live edge, no wall-clock sync between players)',
      clause: `${RFC} 4.3.2.6; ${APPLE}, playlists (EXT-X-PROGRAM-DATE-TIME in live playlists)`,
    },
    'HLS-LIVE-EDGE-BEHIND': {
      severity: 'warning',
      meaning: 'the newest segment ends (by its program date-time) more than 3 target durations before the clock',
      clause: `${RFC} 6.2.2, 6.3.3`,
    },
    'HLS-LIVE-NOT-WATCHED': {
      severity: 'info',
      meaning:
        'a live playlist was read once (--live-seconds 0), or watched no longer than 1.5 target durations: staleness not checked',
      clause: `${RFC} 6.3.4`,
    },
    'HLS-ENDLIST-MISSING': {
      severity: 'error',
      meaning:
        'a VOD playlist (EXT-X-PLAYLIST-TYPE:VOD, or one that never changed while watched from media sequence 0) has no EXT-X-ENDLIST: players treat it as live',
      clause: `${RFC} 4.3.3.4, 4.3.3.5`,
    },
  },
  check: (model: StreamModel): Finding[] =>
    model.playlists.flatMap((p) => [
      ...(p.playlist ? programDateTimeDrift(p.playlist, p.name) : []),
      ...(p.playlist && isLive(p) ? live(p, model.checkedAt) : []),
    ]),
} as const;

registerFamily(liveFamily);

/** Each EXT-X-PROGRAM-DATE-TIME against the previous one plus the EXTINF durations between them. */
function programDateTimeDrift(playlist: HLS.types.MediaPlaylist, variant: string): Finding[] {
  let anchor: { time: number; at: number } | undefined;
  let elapsed = 0;
  let worst: { drift: number; uri: string } | undefined;
  for (const seg of playlist.segments) {
    if (seg.discontinuity) anchor = undefined;
    if (seg.programDateTime) {
      const time = seg.programDateTime.getTime() / 1000;
      if (anchor) {
        const drift = time - anchor.time - (elapsed - anchor.at);
        if (Math.abs(drift) > 0.5 && (!worst || Math.abs(drift) > Math.abs(worst.drift)))
          worst = { drift, uri: seg.uri };
      }
      anchor = { time, at: elapsed };
    }
    elapsed += seg.duration;
  }
  return worst
    ? [
        finding(
          'HLS-PROGRAM-DATE-TIME-DRIFT',
          l10n.t(
            'EXT-X-PROGRAM-DATE-TIME of segment {0} is {1} s off the sum of the EXTINF durations before it.',
            worst.uri,
            worst.drift.toFixed(2),
          ),
          { variant, segment: worst.uri },
        ),
      ]
    : [];
}

/** The distance (s) from the newest segment's end (by its program date-time) to `now` (ms). */
export function liveEdgeSeconds(playlist: HLS.types.MediaPlaylist, now: number): number | undefined {
  let at: number | undefined;
  for (const seg of playlist.segments) {
    if (seg.programDateTime) at = seg.programDateTime.getTime() / 1000;
    if (at !== undefined) at += seg.duration;
  }
  return at === undefined ? undefined : now / 1000 - at;
}

function live(p: MediaPlaylistModel, now: number): Finding[] {
  const first = p.playlist!;
  const target = first.targetDuration || 1;
  const at = { variant: p.name };
  const out: Finding[] = [];
  const edge = liveEdgeSeconds(first, p.readAt ?? now);
  if (edge !== undefined && edge > 4 * target) {
    out.push(
      finding(
        'HLS-LIVE-EDGE-BEHIND',
        l10n.t(
          'The newest segment ends {0} s before the clock (by EXT-X-PROGRAM-DATE-TIME); expected within about {1} s.',
          edge.toFixed(1),
          3 * target,
        ),
        at,
      ),
    );
  }
  if (first.segments.length > 0 && !first.segments.some((s) => s.programDateTime)) {
    out.push(
      finding(
        'HLS-PROGRAM-DATE-TIME-MISSING',
        l10n.t('The live playlist has no EXT-X-PROGRAM-DATE-TIME: its live edge cannot be measured.'),
        at,
      ),
    );
  }
  const watched = p.watchedSeconds ?? 0;
  if (watched <= 0) {
    out.push(
      finding(
        'HLS-LIVE-NOT-WATCHED',
        l10n.t('A live playlist read once: run with --live-seconds N to check that it advances.'),
        at,
      ),
    );
    return out;
  }
  out.push(...reloads(p, target));
  if (watched <= 1.5 * target) {
    out.push(
      finding(
        'HLS-LIVE-NOT-WATCHED',
        l10n.t(
          'Watched for {0} s, not longer than 1.5 target durations ({1} s): too short to call the playlist stale.',
          watched,
          1.5 * target,
        ),
        at,
      ),
    );
  }
  return out;
}

/** The reloads one after the other: they advance, keep their sequence numbers and their fixed tags. */
function reloads(p: MediaPlaylistModel, target: number): Finding[] {
  const out: Finding[] = [];
  const at = { variant: p.name };
  let last = p.playlist!;
  let lastText = p.text ?? '';
  let lastChange = p.readAt ?? 0;
  let stale = false;
  let changedTag = false;
  let everChanged = false;
  const bySequence = new Map(last.segments.map((s) => [s.mediaSequenceNumber, s.uri]));
  for (const reload of p.reloads) {
    const playlist = reload.playlist;
    if (reload.text !== lastText) {
      lastChange = reload.at;
      everChanged = true;
    }
    lastText = reload.text;
    const before = last.mediaSequenceBase ?? 0;
    const after = playlist.mediaSequenceBase ?? 0;
    if (after < before) {
      out.push(
        finding(
          'HLS-MEDIA-SEQUENCE-REGRESSED',
          l10n.t('EXT-X-MEDIA-SEQUENCE went from {0} back to {1} between two reloads.', before, after),
          at,
        ),
      );
    }
    for (const seg of playlist.segments) {
      const known = bySequence.get(seg.mediaSequenceNumber);
      if (known !== undefined && known !== seg.uri) {
        out.push(
          finding(
            'HLS-MEDIA-SEQUENCE-REGRESSED',
            l10n.t('Media sequence number {0} named {1} and now names {2}.', seg.mediaSequenceNumber, known, seg.uri),
            { ...at, segment: seg.uri },
          ),
        );
        break;
      }
      bySequence.set(seg.mediaSequenceNumber, seg.uri);
    }
    const changes = fixedTagChanges(last, playlist);
    if (!changedTag && changes.length > 0) {
      changedTag = true;
      out.push(finding('HLS-LIVE-TAG-CHANGED', l10n.t('Between two reloads: {0}.', changes.join('; ')), at));
    }
    if (playlist.endlist) return out;
    const staleFor = (reload.at - lastChange) / 1000;
    if (!stale && staleFor > 1.5 * target) {
      stale = true;
      out.push(
        finding(
          'HLS-LIVE-PLAYLIST-STALE',
          l10n.t(
            'The live playlist did not change for {0} s (more than 1.5 × the target duration of {1} s); its last segment is media sequence {2}.',
            staleFor.toFixed(1),
            target,
            after + playlist.segments.length - 1,
          ),
          at,
        ),
      );
    }
    last = playlist;
  }
  const first = p.playlist!;
  if (stale && !everChanged && (first.mediaSequenceBase ?? 0) === 0 && first.playlistType !== 'EVENT') {
    out.push(
      finding(
        'HLS-ENDLIST-MISSING',
        l10n.t(
          'The playlist starts at media sequence 0 and never changed while watched: if it is video on demand, it lacks EXT-X-ENDLIST, and players play it as live.',
        ),
        { ...at, severity: 'warning' },
      ),
    );
  }
  return out;
}

function fixedTagChanges(a: HLS.types.MediaPlaylist, b: HLS.types.MediaPlaylist): string[] {
  const out: string[] = [];
  if (a.targetDuration !== b.targetDuration) {
    out.push(l10n.t('EXT-X-TARGETDURATION {0} then {1}', a.targetDuration, b.targetDuration));
  }
  if ((a.version ?? 1) !== (b.version ?? 1))
    out.push(l10n.t('EXT-X-VERSION {0} then {1}', a.version ?? 1, b.version ?? 1));
  if (a.playlistType !== b.playlistType) {
    out.push(l10n.t('EXT-X-PLAYLIST-TYPE {0} then {1}', a.playlistType ?? '–', b.playlistType ?? '–'));
  }
  return out;
}
