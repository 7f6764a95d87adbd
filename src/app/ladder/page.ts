/**
 * The ladder lab's panel: the rate-quality chart (inline SVG from chart.ts), a table per group, the findings, and
 * the buttons (Compare with another group, Export JSON, Export CSV) whose clicks the page posts to the extension.
 * A nonce-only Content-Security-Policy: nothing loads from anywhere.
 */
import { l10n } from '../../l10n/l10n';
import { chartMetric, escapeXml as escapeHtml, rateQualitySvg } from './chart';
import type { LadderEvaluation } from './model';

export type LadderPageMessage = { type: 'compare' } | { type: 'exportJson' } | { type: 'exportCsv' };

export function isLadderPageMessage(message: unknown): message is LadderPageMessage {
  const type = (message as { type?: unknown } | null)?.type;
  return type === 'compare' || type === 'exportJson' || type === 'exportCsv';
}

const kbps = (bps: number): string => String(Math.round(bps / 1000));
const fixed = (value: number | undefined, digits: number): string =>
  value === undefined || Number.isNaN(value) ? '—' : value === Infinity ? '∞' : value.toFixed(digits);

function table(e: LadderEvaluation): string {
  const head = [
    l10n.t('Rendition'),
    l10n.t('Size'),
    l10n.t('Target (kbps)'),
    l10n.t('Average (kbps)'),
    l10n.t('Peak 2 s (kbps)'),
    'PSNR Y (dB)',
    'SSIM',
    l10n.t('PSNR Y at reference size (dB)'),
    l10n.t('SSIM at reference size'),
    'VMAF',
    l10n.t('Encode (s)'),
    l10n.t('Speed'),
  ];
  const rows = [...e.results]
    .sort((a, b) => a.rung.videoKbps - b.rung.videoKbps)
    .map((r) =>
      [
        r.rung.name,
        `${r.width}x${r.height}`,
        String(r.rung.videoKbps),
        kbps(r.averageBitrate),
        kbps(r.peakBitrate),
        fixed(r.psnr, 2),
        fixed(r.ssim, 4),
        fixed(r.psnrAtReference, 2),
        fixed(r.ssimAtReference, 4),
        fixed(r.vmaf, 1),
        fixed(r.encodeSeconds, 1),
        r.speed === undefined ? '—' : `${fixed(r.speed, 1)}×`,
      ]
        .map((cell) => `<td>${escapeHtml(cell)}</td>`)
        .join(''),
    );
  return `<table><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row}</tr>`)
    .join('')}</tbody></table>`;
}

function findings(e: LadderEvaluation): string {
  if (e.findings.length === 0) return `<p class="none">${escapeHtml(l10n.t('No findings.'))}</p>`;
  return `<ul class="findings">${e.findings
    .map(
      (f) =>
        `<li class="${escapeHtml(f.severity)}"><code>${escapeHtml(f.code)}</code> ${escapeHtml(f.message)} <span class="clause">${escapeHtml(f.clause)}</span></li>`,
    )
    .join('')}</ul>`;
}

/** Which way the rungs were encoded, in one sentence (the panel and the command line say it). */
export function encodedByText(e: LadderEvaluation): string {
  const by = e.encodedBy;
  if (by.way === 'platform') {
    return l10n.t(
      'Encoded through the platform: the reference was uploaded as video {0} ("{1}", it stays in the account) and transcoded with template group {2}; encode time and speed are not measured through the platform.',
      by.videoId,
      by.title,
      by.groupId,
    );
  }
  return by.why
    ? l10n.t('Encoded with ffmpeg on this machine (the local platform’s encode command): {0}.', by.why)
    : l10n.t('Encoded with ffmpeg on this machine (the local platform’s encode command).');
}

function section(e: LadderEvaluation): string {
  const ref = e.reference;
  const about = l10n.t(
    'Reference: {0} ({1}x{2}, {3} s encoded). ffmpeg {4}, x264 preset {5}.',
    ref.label,
    ref.width,
    ref.height,
    ref.seconds.toFixed(1),
    e.ffmpegVersion,
    e.preset,
  );
  const vmaf = e.vmafUnavailable
    ? `<p class="note">${escapeHtml(l10n.t('VMAF not measured: {0}', e.vmafUnavailable))}</p>`
    : '';
  const way = `<p class="way">${escapeHtml(encodedByText(e))}</p>`;
  return `<section><h2>${escapeHtml(e.ladder.name)}</h2><p>${escapeHtml(about)}</p>${way}${vmaf}${table(e)}<h3>${escapeHtml(l10n.t('Findings'))}</h3>${findings(e)}</section>`;
}

export function ladderPageHtml(options: {
  cspSource: string;
  nonce: string;
  evaluations: readonly LadderEvaluation[];
}): string {
  const nonce = escapeHtml(options.nonce);
  const csp = ["default-src 'none'", `style-src 'nonce-${options.nonce}'`, `script-src 'nonce-${options.nonce}'`].join(
    '; ',
  );
  const metric = chartMetric(options.evaluations);
  const title = options.evaluations.map((e) => e.ladder.name).join(' · ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<title>${escapeHtml(l10n.t('Ladder: {0}', title))}</title>
<style nonce="${nonce}">
body { font-family: var(--vscode-font-family, sans-serif); color: var(--vscode-foreground, #ccc); padding: 8px 16px; }
svg { max-width: 100%; height: auto; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { padding: 3px 8px; border-bottom: 1px solid rgba(128,128,128,0.3); text-align: right; }
th:first-child, td:first-child { text-align: left; }
.findings li.warning code { color: var(--vscode-editorWarning-foreground, #cca700); }
.findings li.error code { color: var(--vscode-editorError-foreground, #f14c4c); }
.clause, .note { opacity: 0.75; }
button { margin-right: 8px; }
</style>
</head>
<body>
<h1>${escapeHtml(l10n.t('Rate-quality of {0}', title))}</h1>
<div class="actions">
<button id="compare">${escapeHtml(l10n.t('Compare with another group…'))}</button>
<button id="exportJson">${escapeHtml(l10n.t('Export JSON'))}</button>
<button id="exportCsv">${escapeHtml(l10n.t('Export CSV'))}</button>
</div>
<figure>${rateQualitySvg(options.evaluations, metric)}</figure>
${options.evaluations.map(section).join('\n')}
<script nonce="${nonce}">
(function () {
  var vscode = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : undefined;
  ['compare', 'exportJson', 'exportCsv'].forEach(function (type) {
    document.getElementById(type).addEventListener('click', function () { if (vscode) vscode.postMessage({ type: type }); });
  });
})();
</script>
</body>
</html>
`;
}
