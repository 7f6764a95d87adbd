/**
 * HTML for the extension's report view and for the local platform's player page. Everything that comes from
 * a stream (names, codecs, messages) is escaped; pages carry a strict Content-Security-Policy.
 */
import { randomBytes } from 'node:crypto';
import { l10n } from '../l10n/l10n';
import type { Finding } from './findings';
import { clauseUri, registeredFamilies } from './registry';
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

/** Which column of the variants table a finding is about, by its code; unlisted codes name no cell. */
const COLUMN_OF: Readonly<Record<string, Column>> = {
  'HLS-BANDWIDTH-MISMATCH': 'bandwidth',
  'HLS-BANDWIDTH-OVERSTATED': 'bandwidth',
  'HLS-AVERAGE-BANDWIDTH-MISMATCH': 'average',
  'HLS-AVERAGE-BANDWIDTH-MISSING': 'average',
  'HLS-RESOLUTION-MISMATCH': 'resolution',
  'HLS-FRAME-RATE-MISMATCH': 'resolution',
  'HLS-FRAME-RATE-MISSING': 'resolution',
  'HLS-CODECS-MISMATCH': 'codecs',
  'HLS-CODECS-MISSING': 'codecs',
  'HLS-SEGMENT-LONGER-THAN-TARGET': 'segments',
  'HLS-EXTINF-MISMATCH': 'segments',
  'HLS-TARGETDURATION-DIFFERS': 'segments',
  'HLS-RENDITION-DURATION-DIFFERS': 'segments',
  'HLS-TIMESTAMP-JUMP': 'segments',
  'HLS-KEYFRAME-INTERVAL': 'keyframes',
  'HLS-SEGMENT-NOT-IDR-START': 'keyframes',
  'HLS-KEYFRAMES-NOT-ALIGNED': 'keyframes',
  'HLS-KEY-UNAVAILABLE': 'encryption',
  'HLS-KEY-INVALID': 'encryption',
  'HLS-DECRYPT-FAILED': 'encryption',
  'HLS-ENCRYPTION-NOT-CHECKED': 'encryption',
};
type Column = 'bandwidth' | 'average' | 'resolution' | 'codecs' | 'segments' | 'keyframes' | 'encryption';

const RANK = { error: 0, warning: 1, info: 2 } as const;

/** The findings with their anchor ids (`f3`), in the report's order. */
interface Indexed {
  readonly f: Finding;
  readonly id: string;
}

/** `320x180 · 440 kb/s`: a variant by what it is, not by its file name (often a hash). */
export function variantLabel(v: VariantRow): string {
  const resolution = v.declared.resolution ?? v.measured.resolution;
  const bandwidth = v.declared.bandwidth ?? v.measured.peakBandwidth;
  const parts = [resolution, bandwidth !== undefined ? kbps(bandwidth) : undefined].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : v.name;
}

/** A cell: its two lines, and when a finding names it, its colour and a link to the worst such finding. */
function cell(content: string, named: Indexed[]): string {
  if (named.length === 0) return `<td>${content}</td>`;
  const worst = [...named].sort((a, b) => RANK[a.f.severity] - RANK[b.f.severity])[0]!;
  const codes = [...new Set(named.map((n) => n.f.code))].join(', ');
  return `<td class="flagged ${escapeHtml(worst.f.severity)}"><a class="cell-link" href="#${worst.id}" title="${escapeHtml(codes)}">${content}</a></td>`;
}

const pair = (declared: string | undefined, measured: string | undefined): string =>
  `${escapeHtml(declared ?? '–')}<br><span class="measured">${escapeHtml(measured ?? '–')}</span>`;

function variantRow(v: VariantRow, index: number, picture: string | undefined, findings: Indexed[]): string {
  const d = v.declared;
  const m = v.measured;
  const mine = findings.filter((x) => x.f.variant === v.name);
  const on = (column: Column): Indexed[] => mine.filter((x) => COLUMN_OF[x.f.code] === column);
  const keyframes = m.keyframeInterval
    ? `${escapeHtml(l10n.t('every {0} s ± {1}', m.keyframeInterval.mean.toFixed(2), m.keyframeInterval.spread.toFixed(2)))}` +
      (m.keyframeInterval.from
        ? `<br><span class="measured">${escapeHtml(l10n.t('measured in {0}', m.keyframeInterval.from))}</span>`
        : '')
    : '–';
  return [
    '<tr>',
    `<th scope="row">${picture ? `<img class="thumb" alt="" src="${escapeHtml(picture)}">` : ''}<a href="#timeline-${index}">${escapeHtml(variantLabel(v))}</a><br><span class="name">${escapeHtml(v.name)}</span></th>`,
    cell(pair(kbps(d.bandwidth), kbps(m.peakBandwidth)), on('bandwidth')),
    cell(pair(kbps(d.averageBandwidth), kbps(m.averageBandwidth)), on('average')),
    cell(pair(d.resolution, m.resolution), on('resolution')),
    cell(pair(d.codecs, m.codecs), on('codecs')),
    cell(
      escapeHtml(
        l10n.t('{0} × ≤ {1} s (target {2} s)', v.segments ?? '–', v.longestSegment ?? '–', v.targetDuration ?? '–'),
      ),
      on('segments'),
    ),
    cell(keyframes, on('keyframes')),
    cell(escapeHtml(encryptionWords(v.encryption)), on('encryption')),
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
    .map((head, i) => `<th scope="col">${i === 0 || i >= 5 ? escapeHtml(head) : head}</th>`)
    .join('');
}

/** The anchor of a segment's bar in a variant's timeline. */
function segmentAnchor(variantIndex: number, sequence: number): string {
  return `seg-${variantIndex}-${sequence}`;
}

/** Where a finding's segment is on the timelines: by URI as written, or by media sequence number. */
function segmentOf(report: Report, f: Finding): { variant: number; sequence: number } | undefined {
  if (f.segment === undefined) return undefined;
  const variant = report.variants.findIndex((v) => v.name === f.variant);
  const timeline = report.variants[variant]?.timeline;
  const hit = timeline?.find((s) => s.uri === f.segment) ?? timeline?.find((s) => String(s.sequence) === f.segment);
  return hit ? { variant, sequence: hit.sequence } : undefined;
}

/** Findings grouped by family (in the registry's order), each with links to its clause and its segment. */
function findingsHtml(report: Report, indexed: Indexed[]): string {
  if (indexed.length === 0) return `<p class="none">${escapeHtml(l10n.t('No findings.'))}</p>`;
  const labels = new Map(report.variants.map((v) => [v.name, variantLabel(v)]));
  const families = registeredFamilies();
  const order = new Map(families.map((f, i) => [f.name, i]));
  const groups = [...new Set(indexed.map((x) => x.f.family))].sort(
    (a, b) => (order.get(a) ?? 99) - (order.get(b) ?? 99),
  );
  return groups
    .map((family) => {
      const title = families.find((f) => f.name === family)?.title ?? family;
      const items = indexed
        .filter((x) => x.f.family === family)
        .sort((a, b) => (a.f.variant ?? '').localeCompare(b.f.variant ?? ''))
        .map(({ f, id }) => {
          const where = f.variant !== undefined ? (labels.get(f.variant) ?? f.variant) : undefined;
          const segment = segmentOf(report, f);
          const segmentText = f.segment !== undefined ? l10n.t('segment {0}', f.segment) : undefined;
          const uri = clauseUri(f.clause);
          return (
            `<li id="${id}" class="${escapeHtml(f.severity)}"><span class="severity">${escapeHtml(severityWord(f.severity))}</span> <code>${escapeHtml(f.code)}</code>` +
            (where !== undefined ? ` <span class="where">${escapeHtml(where)}</span>` : '') +
            (segmentText !== undefined
              ? segment
                ? ` <a class="where" href="#${segmentAnchor(segment.variant, segment.sequence)}">${escapeHtml(segmentText)}</a>`
                : ` <span class="where">${escapeHtml(segmentText)}</span>`
              : '') +
            (f.range
              ? ` <span class="where">${escapeHtml(l10n.t('{0}–{1} s', f.range.start.toFixed(2), f.range.end.toFixed(2)))}</span>`
              : '') +
            `<div>${escapeHtml(f.message)}</div>` +
            (f.still?.startsWith('data:image/jpeg;base64,')
              ? `<img class="still" alt="" width="240" src="${escapeHtml(f.still)}">`
              : '') +
            `<div class="clause">${uri ? `<a href="${escapeHtml(uri)}">${escapeHtml(f.clause)}</a>` : escapeHtml(f.clause)}</div></li>`
          );
        })
        .join('');
      return `<h3>${escapeHtml(title)}</h3><ul class="findings">${items}</ul>`;
    })
    .join('\n');
}

/** At most this many segments are drawn per timeline (the SVG stays small); the rest are said in words. */
const TIMELINE_SEGMENTS = 1000;

/**
 * A variant's segments as inline SVG (no script, no CDN, only presentation attributes and the page's classes):
 * one bar per segment, as wide as its EXTINF and as high as its bit rate; a line where the media read ends when it
 * differs from EXTINF; a tick per keyframe; the bars a finding names coloured and linked to the finding.
 */
function timelineSvg(report: Report, v: VariantRow, index: number, indexed: Indexed[]): string {
  const all = v.timeline ?? [];
  if (all.length === 0) return '';
  const segments = all.slice(0, TIMELINE_SEGMENTS);
  const total = segments.reduce((t, s) => t + Math.max(s.duration, 0), 0) || 1;
  const width = 1000;
  const barTop = 8;
  const barHeight = 60;
  const rates = segments.map((s) => (s.bytes !== undefined && s.duration > 0 ? (s.bytes * 8) / s.duration : undefined));
  const maxRate = Math.max(1, ...rates.filter((r): r is number => r !== undefined));
  const named = new Map<number, Indexed>();
  for (const x of indexed) {
    const at = segmentOf(report, x.f);
    if (!at || at.variant !== index) continue;
    const before = named.get(at.sequence);
    if (!before || RANK[x.f.severity] < RANK[before.f.severity]) named.set(at.sequence, x);
  }
  let x = 0;
  const scale = width / total;
  const parts: string[] = [];
  segments.forEach((s, i) => {
    const w = Math.max(s.duration * scale, 0.5);
    const rate = rates[i];
    const h = rate !== undefined ? Math.max(2, (rate / maxRate) * barHeight) : barHeight;
    const flagged = named.get(s.sequence);
    const cls = flagged ? `bar flagged-bar ${flagged.f.severity}` : rate === undefined ? 'bar unsized' : 'bar';
    const words = [
      l10n.t('segment {0}', s.uri),
      l10n.t('EXTINF {0} s', s.duration),
      ...(s.measured !== undefined ? [l10n.t('media {0} s', s.measured)] : []),
      ...(rate !== undefined ? [kbps(rate)] : []),
      ...(s.keyframes ? [l10n.t('keyframes at {0} s', s.keyframes.join(', ') || '–')] : []),
      ...(flagged ? [flagged.f.code] : []),
    ].join(' · ');
    const rect = `<rect id="${segmentAnchor(index, s.sequence)}" class="${cls}" x="${r2(x)}" y="${r2(barTop + barHeight - h)}" width="${r2(w)}" height="${r2(h)}"><title>${escapeHtml(words)}</title></rect>`;
    parts.push(flagged ? `<a href="#${flagged.id}">${rect}</a>` : rect);
    if (s.measured !== undefined && Math.abs(s.measured - s.duration) > 0.5) {
      const end = x + s.measured * scale;
      parts.push(
        `<line class="measured-end" x1="${r2(end)}" y1="${barTop}" x2="${r2(end)}" y2="${barTop + barHeight}"></line>`,
      );
    }
    for (const k of s.keyframes ?? []) {
      const kx = x + k * scale;
      parts.push(
        `<line class="keyframe" x1="${r2(kx)}" y1="${barTop + barHeight + 2}" x2="${r2(kx)}" y2="${barTop + barHeight + 10}"></line>`,
      );
    }
    x += s.duration * scale;
  });
  const more =
    all.length > segments.length
      ? `<p class="sampled">${escapeHtml(l10n.t('The first {0} of {1} segments are drawn.', segments.length, all.length))}</p>`
      : '';
  const caption = l10n.t(
    'Each bar is a segment: width its EXTINF, height its bit rate (highest {0}); a line marks where the media read ends when that differs; ticks below are keyframes; a coloured bar has a finding (select it).',
    kbps(maxRate),
  );
  return `<figure id="timeline-${index}"><figcaption>${escapeHtml(variantLabel(v))} <span class="name">${escapeHtml(v.name)}</span></figcaption><svg class="timeline" viewBox="0 0 ${width} ${barTop + barHeight + 12}" preserveAspectRatio="none" role="img" aria-label="${escapeHtml(caption)}">${parts.join('')}</svg><p class="sampled">${escapeHtml(caption)}</p>${more}</figure>`;
}

const r2 = (n: number): string => String(Math.round(n * 100) / 100);

export function renderReportHtml(report: Report, options: ReportHtmlOptions): string {
  const nonce = escapeHtml(options.nonce);
  const csp = [
    "default-src 'none'",
    `img-src ${options.cspSource} data:`,
    `style-src 'nonce-${options.nonce}'`,
    `script-src 'nonce-${options.nonce}'`,
  ].join('; ');
  const pictures = options.thumbnails ?? {};
  const indexed: Indexed[] = report.findings.map((f, i) => ({ f, id: `f${i}` }));
  const rows = report.variants
    .map((v, i) =>
      variantRow(
        v,
        i,
        pictures[v.name] !== undefined ? safeImageUri(pictures[v.name]!, options.cspSource) : undefined,
        indexed,
      ),
    )
    .join('\n');
  const timelines = report.variants.map((v, i) => timelineSvg(report, v, i, indexed)).join('\n');
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
h1 { font-size: 1.3em; overflow-wrap: anywhere; }
.table-wrap { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; }
th, td { border-bottom: 1px solid var(--vscode-panel-border, #ccc); padding: 4px 6px; text-align: left; vertical-align: top; }
td { overflow-wrap: anywhere; min-width: 5em; }
th[scope="row"] { font-weight: normal; min-width: 8em; }
.name { opacity: 0.7; font-size: 85%; font-family: var(--vscode-editor-font-family, monospace); overflow-wrap: anywhere; }
.measured { opacity: 0.8; }
td.flagged.error { background: var(--vscode-inputValidation-errorBackground, #fdd); outline: 1px solid var(--vscode-errorForeground, #c00); }
td.flagged.warning { background: var(--vscode-inputValidation-warningBackground, #ffe9b3); outline: 1px solid var(--vscode-editorWarning-foreground, #b80); }
td.flagged.info { outline: 1px dashed var(--vscode-editorInfo-foreground, #36c); }
.cell-link { color: inherit; text-decoration: none; display: block; }
.thumb { display: block; max-width: 160px; }
.findings li { margin: 0.5em 0; }
.error .severity { color: var(--vscode-errorForeground, #c00); }
.warning .severity { color: var(--vscode-editorWarning-foreground, #b80); }
.clause, .sampled { opacity: 0.7; font-size: 90%; }
.timeline { width: 100%; height: 80px; display: block; }
.bar { fill: var(--vscode-charts-blue, #4a90d9); opacity: 0.6; }
.bar.unsized { opacity: 0.25; }
.flagged-bar.error { fill: var(--vscode-errorForeground, #c00); opacity: 0.9; }
.flagged-bar.warning { fill: var(--vscode-editorWarning-foreground, #b80); opacity: 0.9; }
.flagged-bar.info { fill: var(--vscode-editorInfo-foreground, #36c); opacity: 0.9; }
.keyframe { stroke: var(--vscode-foreground, #222); stroke-width: 1; vector-effect: non-scaling-stroke; }
.measured-end { stroke: var(--vscode-errorForeground, #c00); stroke-width: 2; stroke-dasharray: 3 2; vector-effect: non-scaling-stroke; }
figure { margin: 0.5em 0 1em; }
.sheet { max-width: 100%; }
</style>
</head>
<body>
<h1>${escapeHtml(report.input)}</h1>
<p>${escapeHtml(summary(report, errors))} <button id="rerun">${escapeHtml(l10n.t('Re-run'))}</button></p>
<h2>${escapeHtml(l10n.t('Variants'))}</h2>
<div class="table-wrap">
<table>
<thead><tr>${tableHead()}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
</div>
${timelines ? `<h2>${escapeHtml(l10n.t('Segments'))}</h2>\n${timelines}` : ''}
<h2>${escapeHtml(l10n.t('Findings'))}</h2>
${findingsHtml(report, indexed)}
${sheet ? `<h2>${escapeHtml(l10n.t('Contact sheet'))}</h2>\n<img class="sheet" alt="${escapeHtml(l10n.t('contact sheet'))}" src="${escapeHtml(sheet)}">` : ''}
<p class="sampled">${escapeHtml(l10n.t('Read {0} GET and {1} HEAD requests, {2} segment(s) probed in {3} s. Sampling: {4}.', s.requests.get, s.requests.head, s.segmentsProbed, (s.elapsedMs / 1000).toFixed(1), s.rule))}</p>
${s.notChecked && s.notChecked.length > 0 ? `<p class="sampled">${escapeHtml(l10n.t('Not checked: {0}.', s.notChecked.join('; ')))}</p>` : ''}
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
