/**
 * HTML for the extension's report view and for the local platform's player page. Everything that comes from
 * a stream (names, codecs, messages) is escaped; pages carry a strict Content-Security-Policy.
 */
import { randomBytes } from 'node:crypto';
import { l10n } from '../l10n/l10n';
import type { Finding } from './findings';
import type { Report, VariantRow } from './report';

export function escapeHtml(text: unknown): string {
  return String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** Only data: images and the webview's own resources may be shown. */
function safeImageUri(uri: string, cspSource: string): string | undefined {
  if (/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/=]+$/.test(uri)) return uri;
  const allowed = cspSource.split(/\s+/).filter((s) => /^https?:\/\//.test(s));
  return allowed.some((origin) => uri.startsWith(origin.replace(/\*/g, ''))) ? uri : undefined;
}

export interface ReportHtmlOptions {
  /** The webview's `cspSource` (origins its resources come from). */
  readonly cspSource: string;
  /** A fresh random value per render for the page's own style and script. */
  readonly nonce: string;
  /** Pictures per variant name (data: URIs or webview resource URIs). */
  readonly thumbnails?: Readonly<Record<string, string>>;
  /** A contact sheet for the whole report (e.g. of a rendition). */
  readonly contactSheet?: string;
}

const kbps = (bps: number | undefined): string =>
  bps === undefined ? '–' : l10n.t('{0} kb/s', Math.round(bps / 1000));

/** `none, AES-128`: the methods as the playlist names them, "none" in the user's language. */
function encryptionWords(encryption: string | undefined): string {
  if (encryption === undefined) return '–';
  return encryption
    .split(', ')
    .map((method) => (method === 'none' ? l10n.t('none') : method))
    .join(', ');
}

function variantRow(v: VariantRow, picture: string | undefined): string {
  const d = v.declared;
  const m = v.measured;
  const cell = (declared: string | undefined, measured: string | undefined): string => {
    const differs = declared !== undefined && measured !== undefined && declared !== measured;
    return `<td${differs ? ' class="differs"' : ''}>${escapeHtml(declared ?? '–')}<br><span class="measured">${escapeHtml(measured ?? '–')}</span></td>`;
  };
  return [
    '<tr>',
    `<td>${picture ? `<img class="thumb" alt="" src="${escapeHtml(picture)}">` : ''}${escapeHtml(v.name)}</td>`,
    cell(kbps(d.bandwidth), kbps(m.peakBandwidth)),
    cell(kbps(d.averageBandwidth), kbps(m.averageBandwidth)),
    cell(d.resolution, m.resolution),
    cell(d.codecs, m.codecs),
    `<td>${escapeHtml(l10n.t('{0} × ≤ {1} s (target {2} s)', v.segments ?? '–', v.longestSegment ?? '–', v.targetDuration ?? '–'))}</td>`,
    `<td>${m.keyframeInterval ? `${escapeHtml(m.keyframeInterval.mean.toFixed(2))} s ± ${escapeHtml(m.keyframeInterval.spread.toFixed(2))}` : '–'}</td>`,
    `<td>${escapeHtml(encryptionWords(v.encryption))}</td>`,
    '</tr>',
  ].join('');
}

function severityWord(severity: Finding['severity']): string {
  switch (severity) {
    case 'error':
      return l10n.t('error');
    case 'warning':
      return l10n.t('warning');
    case 'info':
      return l10n.t('info');
  }
}

/** `HLS master, live: 2 error(s), 5 finding(s).` */
function summary(report: Report, errors: number): string {
  const kind = report.live ? l10n.t('{0}, live', report.kind) : report.kind;
  return errors === 0
    ? l10n.t('{0}: no errors, {1} finding(s).', kind, report.findings.length)
    : l10n.t('{0}: {1} error(s), {2} finding(s).', kind, errors, report.findings.length);
}

/** The variants table's column headings, each with what its two lines compare. */
function tableHead(): string {
  return [
    l10n.t('Variant'),
    `${escapeHtml(l10n.t('Bandwidth'))}<br>${escapeHtml(l10n.t('declared / peak'))}`,
    `${escapeHtml(l10n.t('Average'))}<br>${escapeHtml(l10n.t('declared / measured'))}`,
    `${escapeHtml(l10n.t('Resolution'))}<br>${escapeHtml(l10n.t('declared / real'))}`,
    `${escapeHtml(l10n.t('Codecs'))}<br>${escapeHtml(l10n.t('declared / real'))}`,
    l10n.t('Segments'),
    l10n.t('Keyframes'),
    l10n.t('Encryption'),
  ]
    .map((cell, i) => `<th>${i === 0 || i >= 5 ? escapeHtml(cell) : cell}</th>`)
    .join('');
}

export function renderReportHtml(report: Report, options: ReportHtmlOptions): string {
  const nonce = escapeHtml(options.nonce);
  const csp = [
    "default-src 'none'",
    `img-src ${options.cspSource} data:`,
    `style-src 'nonce-${options.nonce}'`,
    `script-src 'nonce-${options.nonce}'`,
  ].join('; ');
  const pictures = options.thumbnails ?? {};
  const rows = report.variants
    .map((v) =>
      variantRow(v, pictures[v.name] !== undefined ? safeImageUri(pictures[v.name]!, options.cspSource) : undefined),
    )
    .join('\n');
  const findings =
    report.findings.length === 0
      ? `<p class="none">${escapeHtml(l10n.t('No findings.'))}</p>`
      : `<ul class="findings">${report.findings
          .map(
            (f) =>
              `<li class="${escapeHtml(f.severity)}"><span class="severity">${escapeHtml(severityWord(f.severity))}</span> <code>${escapeHtml(f.code)}</code>` +
              `${f.variant !== undefined ? ` <span class="where">${escapeHtml(f.segment !== undefined ? l10n.t('{0}, segment {1}', f.variant, f.segment) : f.variant)}</span>` : ''}` +
              `<div>${escapeHtml(f.message)}</div><div class="clause">${escapeHtml(f.clause)}</div></li>`,
          )
          .join('')}</ul>`;
  const sheet = options.contactSheet ? safeImageUri(options.contactSheet, options.cspSource) : undefined;
  const errors = report.findings.filter((f) => f.severity === 'error').length;
  const s = report.sampled;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(l10n.t('Inspect: {0}', report.input))}</title>
<style nonce="${nonce}">
body { font-family: var(--vscode-font-family, sans-serif); color: var(--vscode-foreground, #222); padding: 0 1em; }
table { border-collapse: collapse; }
th, td { border-bottom: 1px solid var(--vscode-panel-border, #ccc); padding: 4px 8px; text-align: left; vertical-align: top; }
.measured { opacity: 0.8; }
.differs .measured { color: var(--vscode-errorForeground, #c00); }
.thumb { display: block; max-width: 160px; }
.findings li { margin: 0.5em 0; }
.error .severity { color: var(--vscode-errorForeground, #c00); }
.warning .severity { color: var(--vscode-editorWarning-foreground, #b80); }
.clause, .sampled { opacity: 0.7; font-size: 90%; }
.sheet { max-width: 100%; }
</style>
</head>
<body>
<h1>${escapeHtml(report.input)}</h1>
<p>${escapeHtml(summary(report, errors))} <button id="rerun">${escapeHtml(l10n.t('Re-run'))}</button></p>
<h2>${escapeHtml(l10n.t('Variants'))}</h2>
<table>
<thead><tr>${tableHead()}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
<h2>${escapeHtml(l10n.t('Findings'))}</h2>
${findings}
${sheet ? `<h2>${escapeHtml(l10n.t('Contact sheet'))}</h2>\n<img class="sheet" alt="${escapeHtml(l10n.t('contact sheet'))}" src="${escapeHtml(sheet)}">` : ''}
<p class="sampled">${escapeHtml(l10n.t('Read {0} GET and {1} HEAD requests, {2} segment(s) probed in {3} s. Sampling: {4}.', s.requests.get, s.requests.head, s.segmentsProbed, (s.elapsedMs / 1000).toFixed(1), s.rule))}</p>
<script nonce="${nonce}">
(function () {
  const vscode = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : undefined;
  document.getElementById('rerun').addEventListener('click', function () { if (vscode) vscode.postMessage({ type: 'rerun' }); });
})();
</script>
</body>
</html>
`;
}

/** Where hls.js's browser build is in node_modules, for the local platform to serve at `scriptPath`. */
export function hlsJsFile(): string {
  return require.resolve('hls.js/dist/hls.min.js');
}

/**
 * A page that plays any HLS address (live included) with hls.js, loaded from `scriptPath` on the same server
 * (never a CDN); Safari plays HLS natively. The address is passed as JSON, never as markup.
 */
export function playerPageHtml(address: string, options: { scriptPath?: string; nonce?: string } = {}): string {
  const parsed = new URL(address);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`address: the player plays http:// and https:// addresses only, not ${parsed.protocol}`);
  }
  const scriptPath = options.scriptPath ?? '/player/hls.min.js';
  if (!scriptPath.startsWith('/') || scriptPath.startsWith('//'))
    throw new Error('scriptPath: must be a path on the same server, starting with one /');
  const nonce = options.nonce ?? randomBytes(16).toString('base64');
  // JSON inside a script: `<` escaped so that no `</script>` can end it early.
  const json = JSON.stringify(parsed.href).replace(/</g, '\\u003c');
  const csp = [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    'connect-src *',
    'media-src * blob:',
    'worker-src blob:',
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<title>Player: ${escapeHtml(parsed.href)}</title>
<style nonce="${escapeHtml(nonce)}">body { margin: 0; background: #000; color: #ddd; font-family: sans-serif; } video { width: 100vw; max-height: 90vh; } #status { padding: 4px 8px; }</style>
</head>
<body>
<video id="video" controls autoplay muted playsinline></video>
<div id="status"></div>
<script src="${escapeHtml(scriptPath)}"></script>
<script nonce="${escapeHtml(nonce)}">
(function () {
  var address = ${json};
  var video = document.getElementById('video');
  var status = document.getElementById('status');
  function say(text) { status.textContent = text; }
  say(address);
  if (window.Hls && window.Hls.isSupported()) {
    var hls = new window.Hls({ liveDurationInfinity: true });
    hls.on(window.Hls.Events.ERROR, function (_event, data) {
      if (data.fatal) say('Playback error: ' + data.type + ' ' + data.details);
    });
    hls.loadSource(address);
    hls.attachMedia(video);
  } else if (video.canPlayType('application/vnd.apple.mpegurl')) {
    video.src = address;
  } else {
    say('This browser cannot play HLS (no MediaSource).');
  }
})();
</script>
</body>
</html>
`;
}
