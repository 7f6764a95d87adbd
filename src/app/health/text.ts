/** The health figures as text: the lines of a channel's tooltip, and the figures of the panel's table. */
import { l10n } from '../../l10n/l10n';
import type { ChannelHealth, RenditionHealth, SourceFigures } from './client';

export function sizeText(figures: { width?: number; height?: number }): string {
  return figures.width && figures.height ? `${figures.width}x${figures.height}` : '—';
}

export function keyframeText(source: SourceFigures): string {
  if (source.keyframeIntervalSeconds === undefined) return '—';
  return l10n.t('{0} s ({1} frames)', source.keyframeIntervalSeconds.toFixed(2), source.keyframeIntervalFrames ?? '?');
}

/** "HLS group 1 · 2": the group by its place among the channel's HLS groups, then the rendition's number. */
export function renditionName(r: RenditionHealth): string {
  return `${l10n.t('HLS group {0}', r.groupNumber)} · ${r.index}`;
}

export function ageText(rendition: RenditionHealth): string {
  return rendition.newestSegmentAgeSeconds === undefined
    ? l10n.t('no segment yet')
    : l10n.t('{0} s ago', rendition.newestSegmentAgeSeconds.toFixed(1));
}

/** One line per figure: what the platform receives, then each HLS rendition's newest segment. */
export function sourceLines(source: SourceFigures | null): string[] {
  if (!source) return [l10n.t('No source is connected (or the channel plays the looped test pattern).')];
  return [
    l10n.t('Source bitrate: {0} kbps', source.bitrateKbps),
    l10n.t('Frame rate: {0} fps', source.frameRate?.toFixed(2) ?? '—'),
    l10n.t('Keyframe interval: {0}', keyframeText(source)),
    l10n.t('Resolution: {0}', sizeText(source)),
  ];
}

/** Markdown for the channel's tooltip (appended below what the list says about the channel). */
export function healthTooltip(health: ChannelHealth): string {
  const lines = [`**${l10n.t('Health')}**`, '', ...sourceLines(health.source).map((line) => `- ${line}`)];
  for (const r of health.renditions) {
    lines.push(`- ${l10n.t('{0} ({1}): newest segment {2}', renditionName(r), sizeText(r), ageText(r))}`);
  }
  return lines.join('\n');
}
