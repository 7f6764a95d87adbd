/**
 * Segments and timing: every read segment's media against its EXTINF and the target duration, the keyframes
 * (an IDR at each start, the interval, the same times in every variant), timestamps running on without a jump
 * and media staying the same unless EXT-X-DISCONTINUITY says otherwise, audio starting with the video, and
 * renditions of one presentation lasting alike.
 */
import { l10n } from '../../l10n/l10n';
import { APPLE, finding, RFC, type Finding } from '../findings';
import { measure } from '../measures';
import { mediaSpan, readSegments, variants, type MediaPlaylistModel, type StreamModel } from '../model';
import { registerFamily } from '../registry';

const seconds = (s: number): string => `${Math.round(s * 1000) / 1000} s`;

/** A jump between two segments' timestamps larger than this (s) is not jitter. */
const JUMP_TOLERANCE = 0.5;
/** Audio starting this much (s) before or after the video is heard out of sync at the start. */
const AV_START_TOLERANCE = 0.25;
/**
 * A gap between one segment's last audio frame and the next segment's first, in audio frames, that is a dropout.
 * Media Source Extensions let a gap under one frame pass as silence (its coded frame processing; hls.js realigns
 * drift up to one frame, maxAudioFramesDrift), and half a frame more covers the 90 kHz rounding of MPEG-TS
 * timestamps and the reader's estimate of where the last frame ends. ffmpeg's own segments measure 0 ms (fMP4)
 * and -0.03 ms (TS) here; a missing frame or more (over 21-23 ms of AAC) is heard as a click or a hole.
 */
const AUDIO_GAP_FRAMES = 1.5;

export const timingFamily = {
  name: 'timing',
  title: 'Segments and timing',
  codes: {
    'HLS-EXTINF-MISMATCH': {
      severity: 'warning',
      meaning: 'a read segment lasts more than half a second longer or shorter than its EXTINF',
      clause: `${RFC} 4.3.2.1`,
    },
    'HLS-SEGMENT-NOT-IDR-START': {
      severity: 'error',
      meaning: 'a read video segment does not start with an IDR frame (switching and seeking to it stall)',
      clause: `${RFC} 3; ${APPLE}, media segmentation (segments start with an IDR)`,
    },
    'HLS-KEYFRAME-INTERVAL': {
      severity: 'warning',
      meaning: 'keyframes are further apart than 2 seconds on average',
      clause: `${APPLE}, video (keyframes every 2 s)`,
    },
    'HLS-KEYFRAMES-NOT-ALIGNED': {
      severity: 'warning',
      meaning: 'the same segment starts, or has its keyframes, at different times in different variants',
      clause: `${APPLE}, media segmentation (aligned across variants); ${RFC} 6.2.4`,
    },
    'HLS-TIMESTAMP-JUMP': {
      severity: 'error',
      meaning:
        'a segment starts more than half a second away from where the previous one ended, without EXT-X-DISCONTINUITY',
      clause: `${RFC} 4.3.2.3`,
    },
    'HLS-MEDIA-CHANGED-WITHOUT-DISCONTINUITY': {
      severity: 'error',
      meaning: 'the codecs, picture size or frame rate change between segments without EXT-X-DISCONTINUITY',
      clause: `${RFC} 4.3.2.3`,
    },
    'HLS-AUDIO-GAP': {
      severity: 'warning',
      meaning:
        "a segment's first audio frame starts more than 1.5 audio frames after the previous segment's last one ends, or a segment between others carries no audio, without EXT-X-DISCONTINUITY",
      clause: `${RFC} 3 (each segment continues the bitstream of the one before it)`,
    },
    'HLS-AUDIO-VIDEO-START-OFFSET': {
      severity: 'warning',
      meaning:
        'audio starts more than 0.25 s before or after the video: in the first segment, or an audio rendition against the first variant',
      clause: `${RFC} 6.2.4 (matching content has matching timestamps)`,
    },
    'HLS-RENDITION-DURATION-DIFFERS': {
      severity: 'warning',
      meaning:
        'the variants or renditions of one VOD presentation last differently (more than one target duration) or have different segment counts',
      clause: `${RFC} 6.2.4; ${APPLE}, media segmentation (same duration across variants)`,
    },
  },
  check: (model: StreamModel): Finding[] => [
    ...model.playlists.flatMap((p) => [
      ...durations(p),
      ...continuity(p),
      ...audioGaps(p),
      ...keyframes(p),
      ...audioVideoStart(p),
    ]),
    ...alignment(variants(model)),
    ...renditionStart(model),
    ...unequalRenditions(model),
  ],
} as const;

registerFamily(timingFamily);

function durations(p: MediaPlaylistModel): Finding[] {
  const target = p.playlist?.targetDuration;
  const out: Finding[] = [];
  for (const { seg, media } of readSegments(p)) {
    const span = mediaSpan(media);
    const measured = span.end - span.start;
    const at = { variant: p.name, segment: seg.uri };
    if (target !== undefined && Math.round(measured) > target && Math.round(seg.duration) <= target) {
      out.push(
        finding(
          'HLS-SEGMENT-LONGER-THAN-TARGET',
          l10n.t(
            'Segment {0} holds {1} of media, longer than the target duration of {2} s (its EXTINF says {3} s).',
            seg.uri,
            seconds(measured),
            target,
            seg.duration,
          ),
          at,
        ),
      );
    }
    if (Math.abs(measured - seg.duration) > 0.5) {
      out.push(
        finding(
          'HLS-EXTINF-MISMATCH',
          l10n.t('Segment {0} holds {1} of media, its EXTINF says {2} s.', seg.uri, seconds(measured), seg.duration),
          at,
        ),
      );
    }
  }
  return out;
}

type ReadSegment = ReturnType<typeof readSegments>[number];

/** Pairs of read segments that follow each other in the playlist without EXT-X-DISCONTINUITY between them. */
function continuousPairs(p: MediaPlaylistModel): Array<[ReadSegment, ReadSegment]> {
  const read = readSegments(p);
  const out: Array<[ReadSegment, ReadSegment]> = [];
  for (let i = 1; i < read.length; i++) {
    const before = read[i - 1]!;
    const after = read[i]!;
    if (after.index === before.index + 1 && !after.seg.discontinuity) out.push([before, after]);
  }
  return out;
}

/** How far (s) a segment starts from where the one before it started plus its EXTINF; 0 within the tolerance. */
function timestampJump(before: ReadSegment, after: ReadSegment): number {
  const jump = mediaSpan(after.media).start - (mediaSpan(before.media).start + before.seg.duration);
  return Math.abs(jump) > JUMP_TOLERANCE ? jump : 0;
}

/** Consecutive read segments: timestamps continue and media stays alike unless a discontinuity is marked. */
function continuity(p: MediaPlaylistModel): Finding[] {
  const out: Finding[] = [];
  for (const [before, after] of continuousPairs(p)) {
    const at = { variant: p.name, segment: after.seg.uri };
    const start = mediaSpan(after.media).start;
    const jump = timestampJump(before, after);
    if (jump !== 0) {
      out.push(
        finding(
          'HLS-TIMESTAMP-JUMP',
          l10n.t(
            'Segment {0} starts at {1}, but the segment before it ({2}) starts at {3} and lasts {4} s: a jump of {5} without EXT-X-DISCONTINUITY.',
            after.seg.uri,
            seconds(start),
            before.seg.uri,
            seconds(mediaSpan(before.media).start),
            before.seg.duration,
            seconds(jump),
          ),
          at,
        ),
      );
    }
    const changes = mediaChanges(before.media, after.media);
    if (changes.length > 0) {
      out.push(
        finding(
          'HLS-MEDIA-CHANGED-WITHOUT-DISCONTINUITY',
          l10n.t(
            'Segment {0} differs from {1} without EXT-X-DISCONTINUITY: {2}.',
            after.seg.uri,
            before.seg.uri,
            changes.join('; '),
          ),
          at,
        ),
      );
    }
  }
  return out;
}

/**
 * The audio of consecutive segments: each segment's first audio frame starts where the previous segment's last
 * one ended. Gaps well under the half second of a timestamp jump are dropouts too. When the whole segment jumps
 * (HLS-TIMESTAMP-JUMP), that finding says it and the audio's gap is not reported again; overlaps are not gaps.
 */
function audioGaps(p: MediaPlaylistModel): Finding[] {
  const out: Finding[] = [];
  for (const [before, after] of continuousPairs(p)) {
    const a = before.media;
    const b = after.media;
    if (a.audioEnd === undefined || timestampJump(before, after) !== 0) continue;
    const at = { variant: p.name, segment: after.seg.uri };
    if (b.audioStart === undefined) {
      // A segment of video without its audio: the whole segment is a dropout.
      if (b.video && a.audioStart !== undefined) {
        out.push(
          finding(
            'HLS-AUDIO-GAP',
            l10n.t(
              'Segment {0} carries no audio, but segment {1} before it does: {2} of silence.',
              after.seg.uri,
              before.seg.uri,
              seconds(after.seg.duration),
            ),
            at,
          ),
        );
      }
      continue;
    }
    const frame = a.audioFrame ?? b.audioFrame ?? 1024 / (a.audio?.sampleRate ?? 48_000);
    const gap = b.audioStart - a.audioEnd;
    if (gap <= AUDIO_GAP_FRAMES * frame) continue;
    out.push(
      finding(
        'HLS-AUDIO-GAP',
        l10n.t(
          'The audio of segment {0} starts {1} ms after the audio of segment {2} ends ({3} audio frames of {4} ms): players play silence or skip there.',
          after.seg.uri,
          Math.round(gap * 1000),
          before.seg.uri,
          (gap / frame).toFixed(1),
          (frame * 1000).toFixed(1),
        ),
        at,
      ),
    );
  }
  return out;
}

function mediaChanges(a: NonNullable<MediaPlaylistModel['segments'][number]['media']>, b: typeof a): string[] {
  const out: string[] = [];
  const codec = (f: typeof a): string =>
    [f.video?.codecString ?? f.video?.codec, f.audio?.codecString ?? f.audio?.codec].filter(Boolean).join(', ');
  if (codec(a) !== codec(b)) out.push(l10n.t('codecs {0} then {1}', codec(a) || '–', codec(b) || '–'));
  if (a.video && b.video) {
    if (a.video.width !== b.video.width || a.video.height !== b.video.height) {
      out.push(
        l10n.t('picture {0} then {1}', `${a.video.width}x${a.video.height}`, `${b.video.width}x${b.video.height}`),
      );
    }
    const fa = a.video.frameRate;
    const fb = b.video.frameRate;
    // Frame rates are estimated from a few seconds of timestamps: only a real change (over 5 %) counts.
    if (fa > 0 && fb > 0 && Math.abs(fa - fb) > 0.05 * Math.max(fa, fb)) {
      out.push(l10n.t('frame rate {0} then {1}', fa.toFixed(2), fb.toFixed(2)));
    }
  }
  return out;
}

function keyframes(p: MediaPlaylistModel): Finding[] {
  const out: Finding[] = [];
  for (const { seg, media } of readSegments(p)) {
    if (!media.video || media.startsWithKeyframe) continue;
    out.push(
      finding(
        'HLS-SEGMENT-NOT-IDR-START',
        media.keyframes.length > 0
          ? l10n.t(
              'Segment {0} does not start with an IDR frame (its first keyframe is {1} in).',
              seg.uri,
              seconds(media.keyframes[0]! - media.start),
            )
          : l10n.t('Segment {0} does not start with an IDR frame (it has no keyframe at all).', seg.uri),
        { variant: p.name, segment: seg.uri },
      ),
    );
  }
  const interval = measure(p).keyframeInterval;
  if (interval && interval.mean > 2.1) {
    out.push(
      finding(
        'HLS-KEYFRAME-INTERVAL',
        l10n.t(
          'Keyframes come every {0} s on average (measured in {1}); Apple asks for every 2 s.',
          interval.mean.toFixed(2),
          interval.from,
        ),
        { variant: p.name },
      ),
    );
  }
  return out;
}

/** The first segment of a presentation: audio and video start together (both muxed in it). */
function audioVideoStart(p: MediaPlaylistModel): Finding[] {
  const first = p.segments[0]?.media;
  if (!first || first.videoStart === undefined || first.audioStart === undefined) return [];
  const offset = first.audioStart - first.videoStart;
  if (Math.abs(offset) <= AV_START_TOLERANCE) return [];
  return [
    finding(
      'HLS-AUDIO-VIDEO-START-OFFSET',
      offset > 0
        ? l10n.t('In segment {0} the audio starts {1} after the video.', p.segments[0]!.uri, seconds(offset))
        : l10n.t('In segment {0} the audio starts {1} before the video.', p.segments[0]!.uri, seconds(-offset)),
      { variant: p.name, segment: p.segments[0]!.uri },
    ),
  ];
}

/** Audio renditions of their own: their first segment starts with the first variant's video (one clock). */
function renditionStart(model: StreamModel): Finding[] {
  const video = variants(model).find((p) => p.segments[0]?.media?.videoStart !== undefined);
  const videoStart = video?.segments[0]?.media?.videoStart;
  if (!video || videoStart === undefined) return [];
  const out: Finding[] = [];
  for (const audio of model.playlists.filter((p) => p.role === 'audio')) {
    const first = audio.segments[0];
    const start = first?.media?.audioStart ?? first?.media?.start;
    if (first === undefined || start === undefined) continue;
    const offset = start - videoStart;
    if (Math.abs(offset) <= AV_START_TOLERANCE) continue;
    out.push(
      finding(
        'HLS-AUDIO-VIDEO-START-OFFSET',
        l10n.t(
          'The audio rendition {0} starts at {1}, the video of {2} at {3}: {4} apart.',
          audio.name,
          seconds(start),
          video.name,
          seconds(videoStart),
          seconds(Math.abs(offset)),
        ),
        { variant: audio.name, segment: first.uri },
      ),
    );
  }
  return out;
}

/** Keyframes (and so segment starts) at the same times in every video variant, for each read segment. */
function alignment(list: MediaPlaylistModel[]): Finding[] {
  const video = list.filter((p) => readSegments(p).some((r) => r.media.keyframes.length > 0));
  if (video.length < 2) return [];
  const [first, ...others] = video;
  const out: Finding[] = [];
  const bySequence = (p: MediaPlaylistModel): Map<number, NonNullable<(typeof p.segments)[number]['media']>> =>
    new Map(
      readSegments(p)
        .filter((r) => r.media.video)
        .map((r) => [r.seg.sequence, r.media]),
    );
  const reference = bySequence(first!);
  for (const other of others) {
    const theirs = bySequence(other);
    for (const [sequence, ours] of reference) {
      const sample = theirs.get(sequence);
      if (!sample) continue;
      // A frame's duration is the tolerance: encoders of one ladder share timestamps.
      const tolerance = 1 / Math.max(ours.video!.frameRate || 25, sample.video!.frameRate || 25) + 0.001;
      const a = mediaSpan(ours).start;
      const b = mediaSpan(sample).start;
      const keyframesDiffer =
        ours.keyframes.length !== sample.keyframes.length ||
        ours.keyframes.some((k, i) => Math.abs(k - sample.keyframes[i]!) > tolerance);
      if (Math.abs(a - b) > tolerance || keyframesDiffer) {
        out.push(
          finding(
            'HLS-KEYFRAMES-NOT-ALIGNED',
            l10n.t(
              'Segment {0} starts at {1} with keyframes at {2} in {3}, but at {4} with keyframes at {5} in {6}: players cannot switch between them cleanly.',
              sequence,
              seconds(a),
              list3(ours.keyframes),
              first!.name,
              seconds(b),
              list3(sample.keyframes),
              other.name,
            ),
            { variant: other.name, segment: String(sequence) },
          ),
        );
      }
    }
  }
  return out;
}

function list3(times: readonly number[]): string {
  const shown = times.slice(0, 6).map((t) => t.toFixed(2));
  return `[${shown.join(', ')}${times.length > 6 ? ', …' : ''}]`;
}

/** VOD variants and renditions: the same length, and the variants the same number of segments. */
function unequalRenditions(model: StreamModel): Finding[] {
  const vod = model.playlists.filter(
    (p) =>
      p.playlist &&
      p.role !== 'iframe' &&
      p.role !== 'subtitles' &&
      (p.playlist.endlist || p.playlist.playlistType === 'VOD'),
  );
  if (vod.length < 2) return [];
  const length = (p: MediaPlaylistModel): number => p.playlist!.segments.reduce((t, s) => t + s.duration, 0);
  const target = Math.max(...vod.map((p) => p.playlist!.targetDuration || 1));
  const longest = vod.reduce((a, b) => (length(b) > length(a) ? b : a));
  const out: Finding[] = [];
  for (const p of vod) {
    const gap = length(longest) - length(p);
    const countsDiffer =
      p.role === 'variant' &&
      longest.role === 'variant' &&
      p.playlist!.segments.length !== longest.playlist!.segments.length;
    if (gap > target || countsDiffer) {
      out.push(
        finding(
          'HLS-RENDITION-DURATION-DIFFERS',
          l10n.t(
            '{0} lasts {1} in {2} segment(s), {3} lasts {4} in {5}: players switching to it run out early or skip.',
            p.name,
            seconds(length(p)),
            p.playlist!.segments.length,
            longest.name,
            seconds(length(longest)),
            longest.playlist!.segments.length,
          ),
          { variant: p.name },
        ),
      );
    }
  }
  return out;
}
