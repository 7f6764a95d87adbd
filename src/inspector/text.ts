/** The report as text for a terminal: the variants table, then the findings. */
import type { Report, VariantRow } from './report';

const kbps = (bps: number | undefined): string => (bps === undefined ? '-' : `${Math.round(bps / 1000)}k`);

function cells(v: VariantRow): string[] {
  const d = v.declared;
  const m = v.measured;
  const pair = (a: string | undefined, b: string | undefined): string => `${a ?? '-'} / ${b ?? '-'}`;
  return [
    v.name,
    pair(kbps(d.bandwidth), kbps(m.peakBandwidth)),
    pair(kbps(d.averageBandwidth), kbps(m.averageBandwidth)),
    pair(d.resolution, m.resolution),
    pair(d.codecs, m.codecs),
    v.segments === undefined ? '-' : `${v.segments} × ≤${v.longestSegment ?? '-'}s (target ${v.targetDuration ?? '-'})`,
    m.keyframeInterval
      ? `${m.keyframeInterval.mean.toFixed(2)}s ±${m.keyframeInterval.spread.toFixed(2)}${m.keyframeInterval.from ? ` (${m.keyframeInterval.from})` : ''}`
      : '-',
    v.encryption ?? '-',
  ];
}

export function reportText(report: Report): string {
  const head = [
    'variant',
    'bandwidth decl/peak',
    'average decl/meas',
    'resolution decl/real',
    'codecs decl/real',
    'segments',
    'keyframes',
    'encryption',
  ];
  const rows = [head, ...report.variants.map(cells)];
  const widths = head.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const out: string[] = [];
  out.push(`${report.input} (${report.kind}${report.live ? ', live' : ''})`, '');
  out.push(line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line), '');
  const errors = report.findings.filter((f) => f.severity === 'error').length;
  const warnings = report.findings.filter((f) => f.severity === 'warning').length;
  out.push(`${errors} error(s), ${warnings} warning(s), ${report.findings.length - errors - warnings} note(s)`);
  for (const f of report.findings) {
    const where = [f.variant, f.segment !== undefined ? `segment ${f.segment}` : undefined].filter(Boolean).join(', ');
    const range = f.range ? ` [${f.range.start.toFixed(2)}–${f.range.end.toFixed(2)} s]` : '';
    out.push(`  ${f.severity.toUpperCase().padEnd(7)} ${f.code}${where ? ` [${where}]` : ''}${range}`);
    out.push(`          ${f.message}`);
    out.push(`          (${f.clause})`);
  }
  const s = report.sampled;
  out.push(
    '',
    `Read: ${s.requests.get} GET, ${s.requests.head} HEAD, ${Math.round(s.bytesRead / 1024)} KiB, ${s.segmentsProbed} segment(s) probed` +
      (s.playlistReloads !== undefined ? `, ${s.playlistReloads} live reload(s) over ${s.liveSeconds} s` : '') +
      (s.liveEdgeSeconds !== undefined ? `, live edge ${s.liveEdgeSeconds.toFixed(1)} s behind the clock` : '') +
      `, in ${(s.elapsedMs / 1000).toFixed(2)} s.`,
    `Sampling: ${s.rule}.`,
  );
  if (s.notChecked && s.notChecked.length > 0) out.push(`Not checked: ${s.notChecked.join('; ')}.`);
  return out.join('\n');
}
