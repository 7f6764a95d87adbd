/**
 * Master playlist and rendition groups, measured: each variant's declaration (BANDWIDTH, AVERAGE-BANDWIDTH,
 * RESOLUTION, FRAME-RATE, CODECS) against its segments, I-frame playlists against their byte ranges, target
 * durations across variants, and EXT-X-INDEPENDENT-SEGMENTS when every segment read starts with a keyframe.
 */
import { l10n } from '../../l10n/l10n';
import { finding, type Finding } from '../findings';
import { measure } from '../measures';
import { codecDifferences } from '../mediaFacts';
import { variants, type StreamModel } from '../model';
import { registerCheck } from '../registry';
import { masterFamily } from './master';

const kbps = (bps: number): string => `${Math.round(bps / 1000)} kb/s`;

/** Cross-variant and declared-against-measured checks. */
function checkMaster(model: StreamModel): Finding[] {
  const out: Finding[] = [];
  const vs = variants(model).filter((v) => v.playlist);
  const targets = new Set(vs.map((v) => v.playlist!.targetDuration));
  if (targets.size > 1) {
    out.push(
      finding(
        'HLS-TARGETDURATION-DIFFERS',
        l10n.t(
          'The variants have different target durations: {0}.',
          vs.map((v) => `${v.name} ${v.playlist!.targetDuration} s`).join(', '),
        ),
      ),
    );
  }
  for (const v of vs) out.push(...declaredAgainstMeasured(v));
  for (const p of model.playlists.filter((x) => x.role === 'iframe' && x.allSized)) {
    const peak = measure(p).peak;
    const declared = p.declared.bandwidth;
    if (peak && declared !== undefined && peak.bps > declared * 1.1) {
      out.push(
        finding(
          'HLS-IFRAME-BANDWIDTH-MISMATCH',
          l10n.t(
            'The I-frame playlist declares BANDWIDTH {0}, but its I-frame {1} peaks at {2}.',
            kbps(declared),
            peak.uri,
            kbps(peak.bps),
          ),
          { variant: p.name, segment: peak.uri },
        ),
      );
    }
  }
  if (
    model.master &&
    !model.master.playlist.independentSegments &&
    vs.length > 0 &&
    vs.every((v) => v.playlist!.independentSegments || everyReadStartsWithKeyframe(v))
  ) {
    if (!vs.every((v) => v.playlist!.independentSegments)) {
      out.push(
        finding(
          'HLS-INDEPENDENT-SEGMENTS-MISSING',
          l10n.t(
            'Every segment read starts with a keyframe, but the master playlist does not say so with EXT-X-INDEPENDENT-SEGMENTS: players may download more than needed when switching.',
          ),
        ),
      );
    }
  }
  return out;
}

function everyReadStartsWithKeyframe(v: StreamModel['playlists'][number]): boolean {
  const read = v.segments.filter((s) => s.media?.video);
  return read.length > 0 && read.every((s) => s.media!.startsWithKeyframe);
}

function declaredAgainstMeasured(v: StreamModel['playlists'][number]): Finding[] {
  const out: Finding[] = [];
  const declared = v.declared;
  const m = measure(v);
  const at = { variant: v.name };
  if (m.peak && declared.bandwidth !== undefined) {
    if (m.peak.bps > declared.bandwidth * 1.1) {
      out.push(
        finding(
          'HLS-BANDWIDTH-MISMATCH',
          l10n.t(
            'BANDWIDTH declares {0}, but segment {1} peaks at {2} ({3} % more; Apple allows 10 %).',
            kbps(declared.bandwidth),
            m.peak.uri,
            kbps(m.peak.bps),
            Math.round((m.peak.bps / declared.bandwidth - 1) * 100),
          ),
          { ...at, segment: m.peak.uri },
        ),
      );
    } else if (m.bandwidthFrom === 'all-segments' && declared.bandwidth > m.peak.bps * 1.1) {
      out.push(
        finding(
          'HLS-BANDWIDTH-OVERSTATED',
          l10n.t(
            'BANDWIDTH declares {0}, but the highest segment bit rate is {1}: players will choose this variant less often than they could.',
            kbps(declared.bandwidth),
            kbps(m.peak.bps),
          ),
          at,
        ),
      );
    }
  }
  if (
    declared.averageBandwidth !== undefined &&
    m.averageBandwidth !== undefined &&
    m.bandwidthFrom === 'all-segments' &&
    Math.abs(m.averageBandwidth - declared.averageBandwidth) > declared.averageBandwidth * 0.1
  ) {
    out.push(
      finding(
        'HLS-AVERAGE-BANDWIDTH-MISMATCH',
        l10n.t(
          'AVERAGE-BANDWIDTH declares {0}, the segments average {1}.',
          kbps(declared.averageBandwidth),
          kbps(m.averageBandwidth),
        ),
        at,
      ),
    );
  }
  if (declared.resolution && m.resolution && declared.resolution !== m.resolution) {
    out.push(
      finding(
        'HLS-RESOLUTION-MISMATCH',
        l10n.t('RESOLUTION declares {0}, the video is {1}.', declared.resolution, m.resolution),
        at,
      ),
    );
  }
  if (declared.frameRate && m.frameRate && Math.abs(declared.frameRate - m.frameRate) > declared.frameRate * 0.01) {
    out.push(
      finding(
        'HLS-FRAME-RATE-MISMATCH',
        l10n.t('FRAME-RATE declares {0}, the video has {1} frames per second.', declared.frameRate, m.frameRate),
        at,
      ),
    );
  }
  if (declared.codecs && m.describing) {
    const differences = codecDifferences(declared.codecs, m.describing, {
      externalAudio: declared.externalAudio ?? false,
    });
    if (differences.length > 0) {
      out.push(
        finding('HLS-CODECS-MISMATCH', l10n.t('CODECS="{0}": {1}.', declared.codecs, differences.join('; ')), at),
      );
    }
  }
  return out;
}

registerCheck(masterFamily.name, checkMaster);
