/**
 * The findings that matter for a ladder, from the measured rungs: pure. Codes, severities and clauses in the shape
 * of the inspector's findings (src/inspector/findings.ts), with the rung they concern.
 */
import { l10n } from '../../l10n/l10n';
import type { LadderFinding, ReferenceInfo, RungResult } from './model';

/**
 * Above this luma PSNR a difference is not visible (the usual rule of thumb: around 45 dB an encode is transparent),
 * so quality past it does not count as a gain.
 */
export const VISIBLE_PSNR_CEILING = 45;
/** A rung adds quality when it is at least this much better (dB of capped PSNR)... */
export const MIN_PSNR_GAIN = 0.5;
/** ...for a bitrate at least this much higher (ratio); adjacent rungs closer than this are "too close". */
export const MIN_STEP = 1.5;

/** Citations stay in English, as the inspector's clauses do. */
const APPLE = 'Apple HLS Authoring Spec, video: adjacent bit rates a factor of 1.5 to 2 apart';

const capped = (psnr: number): number => Math.min(psnr, VISIBLE_PSNR_CEILING);
const kbps = (bps: number): number => Math.round(bps / 1000);

/** Rungs above the reference's picture: upscaling adds bits, not detail. */
function aboveSource(results: readonly RungResult[], reference: ReferenceInfo): LadderFinding[] {
  return results
    .filter((r) => r.width > reference.width || r.height > reference.height)
    .map((r) => ({
      code: 'LADDER-RUNG-ABOVE-SOURCE',
      severity: 'warning',
      message: l10n.t(
        '"{0}" ({1}) is larger than the reference ({2}): it upscales, adding bits but no detail.',
        r.rung.name,
        `${r.width}x${r.height}`,
        `${reference.width}x${reference.height}`,
      ),
      clause: 'Encoding ladder practice: no rendition above the source resolution',
      rung: r.rung.name,
    }));
}

/** Adjacent rungs (by the group's video bitrate) closer than a factor of 1.5. */
function tooClose(sorted: readonly RungResult[]): LadderFinding[] {
  const found: LadderFinding[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const lower = sorted[i - 1]!;
    const upper = sorted[i]!;
    const ratio = upper.rung.videoKbps / lower.rung.videoKbps;
    if (ratio < MIN_STEP) {
      found.push({
        code: 'LADDER-RUNGS-TOO-CLOSE',
        severity: 'warning',
        message: l10n.t(
          '"{0}" ({1} kbps) is only {2}× "{3}" ({4} kbps).',
          upper.rung.name,
          upper.rung.videoKbps,
          ratio.toFixed(2),
          lower.rung.name,
          lower.rung.videoKbps,
        ),
        clause: APPLE,
        rung: upper.rung.name,
      });
    }
  }
  return found;
}

/**
 * A rung of the same picture size as a cheaper one that is not visibly better: more bitrate, under 0.5 dB gain in
 * luma PSNR counted up to the 45 dB ceiling. Rungs of different sizes are not compared: each is measured against
 * the reference at its own size, and a larger picture adds resolution that such a figure does not show.
 */
function noGain(sorted: readonly RungResult[]): LadderFinding[] {
  const found: LadderFinding[] = [];
  sorted.forEach((upper, i) => {
    const lower = sorted
      .slice(0, i)
      .reverse()
      .find((r) => r.width === upper.width && r.height === upper.height);
    if (!lower || upper.averageBitrate <= lower.averageBitrate) return;
    const gain = capped(upper.psnr) - capped(lower.psnr);
    if (gain >= MIN_PSNR_GAIN) return;
    found.push({
      code: 'LADDER-RUNG-NO-GAIN',
      severity: 'warning',
      message: l10n.t(
        '"{0}" takes {1} kbps against {2} kbps for "{3}" at the same size, for {4} dB of visible quality (PSNR {5} against {6} dB, SSIM {7} against {8}).',
        upper.rung.name,
        kbps(upper.averageBitrate),
        kbps(lower.averageBitrate),
        lower.rung.name,
        gain.toFixed(2),
        upper.psnr.toFixed(1),
        lower.psnr.toFixed(1),
        upper.ssim.toFixed(4),
        lower.ssim.toFixed(4),
      ),
      clause: `Rate-quality: a rung adds visible quality (${MIN_PSNR_GAIN} dB of luma PSNR below ${VISIBLE_PSNR_CEILING} dB) for its bitrate`,
      rung: upper.rung.name,
    });
  });
  return found;
}

/** Every ladder finding, rungs ordered by the group's video bitrate. */
export function ladderFindings(results: readonly RungResult[], reference: ReferenceInfo): LadderFinding[] {
  const sorted = [...results].sort((a, b) => a.rung.videoKbps - b.rung.videoKbps);
  return [...aboveSource(sorted, reference), ...tooClose(sorted), ...noGain(sorted)];
}
