/** The evaluations as JSON and CSV (one row per rung, a group column so that compared groups share one table). */
import type { LadderEvaluation } from './model';

export function ladderJson(evaluations: readonly LadderEvaluation[]): string {
  return `${JSON.stringify(evaluations.length === 1 ? evaluations[0] : evaluations, null, 2)}\n`;
}

const CSV_COLUMNS = [
  'group',
  'rung',
  'width',
  'height',
  'target_video_kbps',
  'average_video_kbps',
  'peak_video_kbps',
  'total_kbps',
  'psnr_y_db',
  'ssim',
  'psnr_y_at_reference_db',
  'ssim_at_reference',
  'vmaf',
  'encode_seconds',
  'speed',
] as const;

/** RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
function field(value: string | number | undefined): string {
  const text = value === undefined ? '' : typeof value === 'number' ? String(Number(value.toFixed(4))) : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function ladderCsv(evaluations: readonly LadderEvaluation[]): string {
  const rows = evaluations.flatMap((e) =>
    e.results.map((r) => [
      e.ladder.name,
      r.rung.name,
      r.width,
      r.height,
      r.rung.videoKbps,
      r.averageBitrate / 1000,
      r.peakBitrate / 1000,
      r.totalBitrate / 1000,
      r.psnr,
      r.ssim,
      r.psnrAtReference,
      r.ssimAtReference,
      r.vmaf,
      r.encodeSeconds,
      r.speed,
    ]),
  );
  return [CSV_COLUMNS.join(','), ...rows.map((row) => row.map(field).join(','))].join('\r\n') + '\r\n';
}
