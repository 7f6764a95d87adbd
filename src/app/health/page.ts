/**
 * The Channel Health panel: the latest figures (source, renditions) and small line charts of the last minutes
 * (inline SVG drawn here: the page's nonce-only CSP loads nothing from anywhere, as the other panels).
 */
import { l10n } from '../../l10n/l10n';
import type { ChannelHealth } from './client';
import type { HealthSample } from './history';
import { ageText, keyframeText, renditionName, sizeText } from './text';

function escapeHtml(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const W = 560;
const H = 150;
const PAD = { left: 52, right: 12, top: 12, bottom: 24 };

/** One figure over time: the samples' span across, 0 to the largest value (rounded up) upward. */
export function timeChartSvg(
  samples: readonly HealthSample[],
  pick: (sample: HealthSample) => number | undefined,
  label: string,
  colour: string,
): string {
  const points = samples.flatMap((s) => {
    const v = pick(s);
    return v === undefined || !Number.isFinite(v) ? [] : [{ at: s.at, v }];
  });
  const title = `<text x="${PAD.left}" y="10" font-size="11" fill="currentColor">${escapeHtml(label)}</text>`;
  if (points.length === 0) {
    return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escapeHtml(label)}">${title}<text x="${W / 2}" y="${H / 2}" text-anchor="middle" font-size="12" fill="currentColor">${escapeHtml(l10n.t('No figures yet'))}</text></svg>`;
  }
  const first = points[0]!.at;
  const span = Math.max(points.at(-1)!.at - first, 1);
  const top = niceMax(Math.max(...points.map((p) => p.v)));
  const x = (at: number): number => PAD.left + ((at - first) / span) * (W - PAD.left - PAD.right);
  const y = (v: number): number => H - PAD.bottom - (v / top) * (H - PAD.top - PAD.bottom);
  const path = points.map((p, i) => `${i ? 'L' : 'M'}${x(p.at).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ');
  const grid = [0, top / 2, top]
    .map(
      (v) =>
        `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v)}" y2="${y(v)}" stroke="currentColor" stroke-opacity="0.2"/><text x="${PAD.left - 4}" y="${y(v) + 4}" text-anchor="end" font-size="10" fill="currentColor">${escapeHtml(formatTick(v))}</text>`,
    )
    .join('');
  const seconds = Math.round(span / 1000);
  const axis = `<text x="${PAD.left}" y="${H - 6}" font-size="10" fill="currentColor">${escapeHtml(l10n.t('{0} s ago', seconds))}</text><text x="${W - PAD.right}" y="${H - 6}" text-anchor="end" font-size="10" fill="currentColor">${escapeHtml(l10n.t('now'))}</text>`;
  const dots = points.length === 1 ? `<circle cx="${x(first)}" cy="${y(points[0]!.v)}" r="3" fill="${colour}"/>` : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escapeHtml(label)}">${title}${grid}${axis}<path d="${path}" fill="none" stroke="${colour}" stroke-width="2"/>${dots}</svg>`;
}

function niceMax(value: number): number {
  if (value <= 0) return 1;
  const step = Math.pow(10, Math.floor(Math.log10(value)));
  return ([1, 2, 5, 10].map((m) => m * step).find((m) => m >= value) ?? value) * 1;
}

function formatTick(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}

function figuresTable(health: ChannelHealth): string {
  const s = health.source;
  const rows: [string, string][] = s
    ? [
        [l10n.t('Source bitrate'), l10n.t('{0} kbps', s.bitrateKbps)],
        [l10n.t('Frame rate'), s.frameRate === undefined ? '—' : `${s.frameRate.toFixed(2)} fps`],
        [l10n.t('Keyframe interval'), keyframeText(s)],
        [l10n.t('Resolution'), sizeText(s)],
        [l10n.t('Last packet'), l10n.t('{0} s ago', s.sinceLastPacketSeconds.toFixed(1))],
      ]
    : [[l10n.t('Source'), l10n.t('No source is connected (or the channel plays the looped test pattern).')]];
  return `<table class="figures">${rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>`;
}

function renditionsTable(health: ChannelHealth): string {
  if (health.renditions.length === 0) return `<p>${escapeHtml(l10n.t('The channel has no HLS rendition.'))}</p>`;
  const head = [l10n.t('Rendition'), l10n.t('Size'), l10n.t('Newest segment'), l10n.t('Age')];
  const rows = health.renditions.map((r) =>
    [renditionName(r), sizeText(r), r.newestSegment ?? '—', ageText(r)]
      .map((cell) => `<td>${escapeHtml(cell)}</td>`)
      .join(''),
  );
  return `<table class="renditions"><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r}</tr>`).join('')}</tbody></table>`;
}

export interface HealthPageInput {
  readonly nonce: string;
  readonly channelName: string;
  readonly samples: readonly HealthSample[];
  readonly latest?: ChannelHealth;
  /** Why the last read failed (not started, platform gone): shown above the last figures. */
  readonly problem?: string;
}

export function healthPageHtml(input: HealthPageInput): string {
  const nonce = escapeHtml(input.nonce);
  const csp = `default-src 'none'; style-src 'nonce-${input.nonce}'`;
  const title = l10n.t('Channel Health: {0}', input.channelName);
  const problem = input.problem ? `<p class="problem">${escapeHtml(input.problem)}</p>` : '';
  const when = input.latest
    ? `<p class="note">${escapeHtml(l10n.t('Measured at {0}; read every few seconds while this panel is open.', new Date(input.latest.measuredAt).toLocaleTimeString()))}</p>`
    : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">
body { font-family: var(--vscode-font-family, sans-serif); color: var(--vscode-foreground, #ccc); padding: 8px 16px; }
svg { max-width: 100%; height: auto; display: block; margin: 8px 0; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { padding: 3px 8px; border-bottom: 1px solid rgba(128,128,128,0.3); text-align: left; }
.problem { color: var(--vscode-editorWarning-foreground, #cca700); }
.note { opacity: 0.75; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${problem}${when}
${input.latest ? figuresTable(input.latest) : ''}
${timeChartSvg(input.samples, (s) => s.bitrateKbps, l10n.t('Source bitrate (kbps)'), '#3794ff')}
${timeChartSvg(input.samples, (s) => s.frameRate, l10n.t('Frame rate (fps)'), '#4ec9b0')}
${timeChartSvg(input.samples, (s) => s.segmentAgeSeconds, l10n.t('Newest segment age, slowest rendition (s)'), '#f0a030')}
${input.latest ? `<h2>${escapeHtml(l10n.t('HLS renditions'))}</h2>${renditionsTable(input.latest)}` : ''}
</body>
</html>
`;
}
