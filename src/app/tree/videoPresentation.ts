import type { TranscodedStream, Video, VideoStatus } from '../../api/types';
import { l10n } from '../l10n';
import { md, stillMarkdown, type NodeIcon, type NodeView } from './nodeView';

/** The eight video states (interface section 3.2): flag, text and icon. */
const STATUS: Record<VideoStatus, { flag: string; text: string; icon: NodeIcon }> = {
  0: {
    flag: 'uploaded',
    text: 'Uploaded, not transcoded',
    icon: { id: 'cloud-upload', color: 'descriptionForeground' },
  },
  1: { flag: 'transcoding', text: 'Transcoding', icon: { id: 'sync~spin', color: 'charts.blue' } },
  2: { flag: 'done', text: 'Transcoded', icon: { id: 'pass', color: 'testing.iconPassed' } },
  3: { flag: 'failed', text: 'Transcoding failed', icon: { id: 'error', color: 'testing.iconFailed' } },
  4: { flag: 'uploadFailed', text: 'Upload failed', icon: { id: 'warning', color: 'charts.orange' } },
  5: { flag: 'unknownType', text: 'Unknown file type', icon: { id: 'question', color: 'charts.orange' } },
  6: { flag: 'transcoding+second', text: 'Second transcoding', icon: { id: 'sync~spin', color: 'charts.purple' } },
  7: { flag: 'queued', text: 'Queued for transcoding', icon: { id: 'clock', color: 'charts.yellow' } },
};

function status(value: number): { flag: string; text: string; icon: NodeIcon } {
  return STATUS[value as VideoStatus] ?? { flag: 'unknown', text: `Status ${value}`, icon: { id: 'question' } };
}

export function videoStatusText(value: number): string {
  return status(value).text;
}

/** Transcoding, second transcoding or queued: the view polls the video until it settles. */
export function isVideoSettling(video: Video): boolean {
  return video.status === 1 || video.status === 6 || video.status === 7;
}

/** "1:02:03" or "2:03" from milliseconds. */
export function formatDuration(ms: number): string {
  const total = Math.round(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** Human size from bytes. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/**
 * `video+<state>[+vr][+renditions][+busy]`. `renditions`: it has playable renditions whatever its
 * state (a video queued or transcoded again keeps the earlier ones until the new ones are done), so
 * the menus offer its playback addresses.
 */
export function videoContextValue(video: Video, busy: boolean): string {
  const flags = ['video', status(video.status).flag];
  if (video.videoType === 1) flags.push('vr');
  if ((video.transcodedVideoList?.length ?? 0) > 0) flags.push('renditions');
  if (busy) flags.push('busy');
  return flags.join('+');
}

/** "transcoded from "Keynote"" for a save-as copy (a video with a `parentId`), by its source's title or id. */
export function transcodedFromText(video: Video, sourceTitle: string | undefined): string | undefined {
  if (!video.parentId) return undefined;
  return sourceTitle !== undefined
    ? l10n.t('transcoded from "{0}"', sourceTitle)
    : l10n.t('transcoded from video {0}', video.parentId);
}

function videoTooltip(video: Video, sourceTitle: string | undefined): string {
  const lines = [`**${md(video.title || video.fileName)}**`, '', md(videoStatusText(video.status)), ''];
  const origin = transcodedFromText(video, sourceTitle);
  if (origin) lines.push(`- ${md(origin)} (\`${video.parentId}\`)`);
  lines.push(`- File: ${md(video.fileName)}`);
  lines.push(
    `- Source: ${video.width}x${video.height}, ${video.bitrate} kbps, ${formatDuration(video.duration)}, ${formatBytes(video.size * 1024)}`,
  );
  if (video.category) lines.push(`- Category: ${md(video.category)} (${video.categoryId})`);
  if (video.tag) lines.push(`- Tags: ${md(video.tag)}`);
  if (video.videoType === 1) lines.push('- VR video');
  lines.push(`- Renditions: ${video.transcodedVideoList.length}`);
  lines.push(`- Uploaded: ${video.date || new Date(video.uploadTime).toISOString()}`);
  lines.push(`- Id: \`${video.id}\``);
  // The cover the platform lists (its first thumbnail when there is no cover).
  const still = stillMarkdown(video.cover || video.thumbnail);
  if (still) lines.push('', still);
  return lines.join('\n');
}

export function videoView(video: Video, transient?: string, sourceTitle?: string): NodeView {
  const busy = transient !== undefined;
  const settling = isVideoSettling(video);
  const description = busy
    ? transient
    : settling
      ? `${videoStatusText(video.status)}...`
      : [
          transcodedFromText(video, sourceTitle) ?? '',
          videoStatusText(video.status),
          formatDuration(video.duration),
          video.category ?? '',
        ]
          .filter(Boolean)
          .join(' · ');
  return {
    id: `video:${video.id}`,
    label: video.title || video.fileName,
    description,
    tooltip: videoTooltip(video, sourceTitle),
    icon: busy ? { id: 'loading~spin', color: 'charts.yellow' } : status(video.status).icon,
    contextValue: videoContextValue(video, busy),
    collapsible: video.transcodedVideoList.length ? 'collapsed' : 'none',
  };
}

/** The formats a rendition was produced in, with their sizes in bytes. */
function renditionFormats(
  stream: TranscodedStream,
): Array<{ format: 'hls' | 'mp4' | 'flv' | 'ts'; url: string; size: number }> {
  const formats: Array<{ format: 'hls' | 'mp4' | 'flv' | 'ts'; url: string | null; size: number }> = [
    { format: 'hls', url: stream.hlsUrl, size: stream.hlsSize },
    { format: 'mp4', url: stream.mp4Url, size: stream.mp4Size },
    { format: 'flv', url: stream.flvUrl, size: stream.flvSize },
    { format: 'ts', url: stream.tsUrl, size: stream.tsSize },
  ];
  return formats.filter((entry): entry is { format: 'hls' | 'mp4' | 'flv' | 'ts'; url: string; size: number } =>
    Boolean(entry.url),
  );
}

export function renditionView(video: Video, stream: TranscodedStream): NodeView {
  const formats = renditionFormats(stream);
  const size = formats.reduce((sum, entry) => sum + (entry.size || 0), 0);
  const isDefault = stream.defaultVideo === 1;
  const tooltip = [
    `**${md(stream.name)}**${isDefault ? ' (default)' : ''}`,
    '',
    `- ${stream.videoWidth}x${stream.videoHeight}, ${stream.videoBitrate} kbps video, ${Math.round(stream.audioBitrate / 1000)} kbps audio`,
    ...formats.map((entry) => `- ${entry.format.toUpperCase()} (${formatBytes(entry.size)}): \`${entry.url}\``),
  ];
  return {
    id: `rendition:${video.id}:${stream.idx}:${stream.name}`,
    label: `${stream.name}${isDefault ? ' (default)' : ''}`,
    description: [
      formats.map((entry) => entry.format.toUpperCase()).join('+') || 'no files',
      `${stream.videoWidth}x${stream.videoHeight}`,
      `${stream.videoBitrate} kbps`,
      size ? formatBytes(size) : '',
    ]
      .filter(Boolean)
      .join(' · '),
    tooltip: tooltip.join('\n'),
    icon: { id: 'file-media' },
    contextValue: ['rendition', ...formats.map((entry) => entry.format), ...(isDefault ? ['default'] : [])].join('+'),
    collapsible: 'none',
  };
}
