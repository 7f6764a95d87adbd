/**
 * The rate-quality chart as inline SVG text, drawn here (no chart library, no CDN: the panel's CSP allows nothing
 * from outside): measured average video bitrate across (log scale, as ladders double), quality up, one line per
 * group through its rungs, each rung labelled.
 */
import type { LadderEvaluation, RungResult } from './model';

export function escapeXml(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export type QualityMetric = 'psnr' | 'ssim' | 'vmaf' | 'psnrAtReference';

/**
 * VMAF when every rung of every group has it, else luma PSNR at the reference's size: both compare rungs of
 * different sizes as a viewer sees them (each rendition scaled up to the reference's picture).
 */
export function chartMetric(evaluations: readonly LadderEvaluation[]): QualityMetric {
  const all = evaluations.flatMap((e) => e.results);
  return all.length > 0 && all.every((r) => r.vmaf !== undefined) ? 'vmaf' : 'psnrAtReference';
}

const METRIC_LABEL: Record<QualityMetric, string> = {
  psnr: 'PSNR (Y, dB)',
  ssim: 'SSIM',
  vmaf: 'VMAF (at the reference size)',
  psnrAtReference: 'PSNR at the reference size (Y, dB)',
};
/** Two groups, or more: lines told apart by colour and by dash (for those who cannot tell the colours). */
const STYLES = [
  { colour: '#3794ff', dash: '' },
  { colour: '#f0a030', dash: '6 4' },
  { colour: '#4ec9b0', dash: '2 3' },
  { colour: '#d16d9e', dash: '10 3 2 3' },
];

const W = 640;
const H = 360;
const PAD = { left: 56, right: 16, top: 16, bottom: 44 };
/** Each group's legend line sits above the plot. */
const LEGEND_LINE = 16;

function value(r: RungResult, metric: QualityMetric): number {
  const v = metric === 'psnrAtReference' ? r.psnrAtReference : r[metric];
  // An identical picture has an infinite PSNR: drawn at the top of the scale.
  return v === undefined || Number.isNaN(v) ? NaN : Math.min(v, 100);
}

function niceTicks(min: number, max: number, count: number): number[] {
  const step = Math.pow(10, Math.floor(Math.log10((max - min) / count)));
  const unit = [1, 2, 5, 10].map((m) => m * step).find((s) => (max - min) / s <= count) ?? step * 10;
  const ticks: number[] = [];
  for (let t = Math.ceil(min / unit) * unit; t <= max + 1e-9; t += unit) ticks.push(Number(t.toFixed(6)));
  return ticks;
}

/** The chart's SVG element (no script, no outside reference). */
export function rateQualitySvg(evaluations: readonly LadderEvaluation[], metric = chartMetric(evaluations)): string {
  const points = evaluations.flatMap((e) =>
    e.results.map((r) => ({ kbps: r.averageBitrate / 1000, q: value(r, metric) })),
  );
  const top = PAD.top + LEGEND_LINE * evaluations.length;
  const valid = points.filter((p) => p.kbps > 0 && Number.isFinite(p.q));
  if (valid.length === 0)
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="60" role="img"><text x="8" y="30">No measurements</text></svg>`;
  const lx = valid.map((p) => Math.log10(p.kbps));
  const [xMin, xMax] = [Math.min(...lx) - 0.1, Math.max(...lx) + 0.1];
  const qs = valid.map((p) => p.q);
  const spread = Math.max(...qs) - Math.min(...qs);
  const [yMin, yMax] = [Math.min(...qs) - Math.max(spread * 0.1, 0.5), Math.max(...qs) + Math.max(spread * 0.1, 0.5)];
  const x = (kbps: number): number =>
    PAD.left + ((Math.log10(kbps) - xMin) / (xMax - xMin)) * (W - PAD.left - PAD.right);
  const y = (q: number): number => H - PAD.bottom - ((q - yMin) / (yMax - yMin)) * (H - top - PAD.bottom);
  const parts: string[] = [];
  // Axes and grid.
  parts.push(
    `<rect x="${PAD.left}" y="${top}" width="${W - PAD.left - PAD.right}" height="${H - top - PAD.bottom}" fill="none" stroke="currentColor" stroke-opacity="0.4"/>`,
  );
  for (const t of niceTicks(yMin, yMax, 6)) {
    parts.push(
      `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}" stroke="currentColor" stroke-opacity="0.12"/>`,
    );
    parts.push(
      `<text x="${PAD.left - 6}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end" font-size="11">${escapeXml(t)}</text>`,
    );
  }
  for (const kbps of [50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000]) {
    const lk = Math.log10(kbps);
    if (lk < xMin || lk > xMax) continue;
    parts.push(
      `<line y1="${top}" y2="${H - PAD.bottom}" x1="${x(kbps).toFixed(1)}" x2="${x(kbps).toFixed(1)}" stroke="currentColor" stroke-opacity="0.12"/>`,
    );
    parts.push(
      `<text x="${x(kbps).toFixed(1)}" y="${H - PAD.bottom + 16}" text-anchor="middle" font-size="11">${kbps}</text>`,
    );
  }
  parts.push(
    `<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 6}" text-anchor="middle" font-size="12">Average video bitrate (kbps, log scale)</text>`,
  );
  parts.push(
    `<text transform="translate(14 ${(top + H - PAD.bottom) / 2}) rotate(-90)" text-anchor="middle" font-size="12">${escapeXml(METRIC_LABEL[metric])}</text>`,
  );
  // One line per group, rungs in bitrate order.
  evaluations.forEach((e, i) => {
    const style = STYLES[i % STYLES.length]!;
    const rungs = e.results
      .filter((r) => r.averageBitrate > 0 && Number.isFinite(value(r, metric)))
      .sort((a, b) => a.averageBitrate - b.averageBitrate);
    const path = rungs
      .map((r, k) => `${k === 0 ? 'M' : 'L'}${x(r.averageBitrate / 1000).toFixed(1)},${y(value(r, metric)).toFixed(1)}`)
      .join(' ');
    parts.push(`<g class="group" data-group="${escapeXml(e.ladder.name)}">`);
    parts.push(
      `<path d="${path}" fill="none" stroke="${style.colour}" stroke-width="2"${style.dash ? ` stroke-dasharray="${style.dash}"` : ''}/>`,
    );
    for (const r of rungs) {
      const [cx, cy] = [x(r.averageBitrate / 1000), y(value(r, metric))];
      parts.push(
        `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="4" fill="${style.colour}"><title>${escapeXml(`${e.ladder.name} · ${r.rung.name}: ${Math.round(r.averageBitrate / 1000)} kbps, ${METRIC_LABEL[metric]} ${value(r, metric).toFixed(metric === 'ssim' ? 4 : 2)}`)}</title></circle>`,
      );
      parts.push(
        `<text x="${(cx + 6).toFixed(1)}" y="${(cy - 6).toFixed(1)}" font-size="11" fill="${style.colour}">${escapeXml(r.rung.name)}</text>`,
      );
    }
    // Legend.
    const ly = PAD.top + i * LEGEND_LINE;
    parts.push(
      `<line x1="${PAD.left}" x2="${PAD.left + 24}" y1="${ly - 4}" y2="${ly - 4}" stroke="${style.colour}" stroke-width="2"${style.dash ? ` stroke-dasharray="${style.dash}"` : ''}/>`,
    );
    parts.push(`<text x="${PAD.left + 30}" y="${ly}" font-size="11">${escapeXml(e.ladder.name)}</text>`);
    parts.push('</g>');
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="Rate-quality curve" fill="currentColor">${parts.join('')}</svg>`;
}
