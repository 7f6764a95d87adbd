import type { SecondTranscodeJob, TranscodedStream, Video, VideoStatus } from '../../api/types';
import { VideoStatuses } from '../../api/types';
import { l10n } from '../../l10n/l10n';
import { formatCategory, formatDateTime } from '../util/format';
import { md, stillAddress, type NodeIcon, type NodeView } from './nodeView';

/** The eight video states (interface section 3.2): flag, text and icon. */
const STATUS: Record<VideoStatus, { flag: string; text: () => string; icon: NodeIcon }> = {
  0: {
    flag: 'uploaded',
    text: () => l10n.t('Uploaded, not transcoded'),
    icon: { id: 'cloud-upload', color: 'descriptionForeground' },
  },
  1: { flag: 'transcoding', text: () => l10n.t('Transcoding'), icon: { id: 'sync~spin', color: 'charts.blue' } },
  2: { flag: 'done', text: () => l10n.t('Transcoded'), icon: { id: 'pass', color: 'testing.iconPassed' } },
  3: {
    flag: 'failed',
    text: () => l10n.t('Transcoding failed'),
    icon: { id: 'error', color: 'testing.iconFailed' },
  },
  4: { flag: 'uploadFailed', text: () => l10n.t('Upload failed'), icon: { id: 'warning', color: 'charts.orange' } },
  5: {
    flag: 'unknownType',
    text: () => l10n.t('Unknown file type'),
    icon: { id: 'question', color: 'charts.orange' },
  },
  6: {
    flag: 'transcoding+second',
    text: () => l10n.t('Second transcoding'),
    icon: { id: 'sync~spin', color: 'charts.purple' },
  },
  7: { flag: 'queued', text: () => l10n.t('Queued for transcoding'), icon: { id: 'clock', color: 'charts.yellow' } },
};

/** Texts are translated when shown (the translator is installed after module load). */
function status(value: number): { flag: string; text: string; icon: NodeIcon } {
  const known = STATUS[value as VideoStatus];
  return known
    ? { flag: known.flag, text: known.text(), icon: known.icon }
    : { flag: 'unknown', text: l10n.t('Status {0}', value), icon: { id: 'question' } };
}

export function videoStatusText(value: number): string {
  return status(value).text;
}

/** Shorter state words for the row's description (the side bar cuts long ones); the tooltip has the full text. */
const SHORT_STATUS: Partial<Record<VideoStatus, () => string>> = {
  0: () => l10n.t('Not transcoded'),
  3: () => l10n.t('Failed'),
  5: () => l10n.t('Unknown type'),
  6: () => l10n.t('Transcoding again'),
  7: () => l10n.t('Queued'),
};

function videoStateWord(value: number): string {
  return SHORT_STATUS[value as VideoStatus]?.() ?? videoStatusText(value);
}

/** A transcoding as this view saw it: the platform tells no progress. */
export interface TranscodingSeen {
  /** Since the view first saw it transcoding (or a command started it). */
  readonly elapsedMs: number;
  /** What a command asked for ("template group "Mobile HLS""); unknown for one started elsewhere. */
  readonly making?: string;
}

/** Transcoding, second transcoding or queued: the view polls the video until it settles. */
export function isVideoSettling(video: Video): boolean {
  return (
    video.status === VideoStatuses.transcoding ||
    video.status === VideoStatuses.secondTranscoding ||
    video.status === VideoStatuses.waiting
  );
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

function videoTooltip(video: Video, sourceTitle: string | undefined, transcoding: TranscodingSeen | undefined): string {
  const lines = [`**${md(video.title || video.fileName)}**`, '', md(videoStatusText(video.status)), ''];
  if (transcoding) {
    lines.push(
      `- ${l10n.t('For {0} so far (the platform tells no progress; timed from when this view saw it start)', formatDuration(transcoding.elapsedMs))}`,
    );
    if (transcoding.making) lines.push(`- ${l10n.t('Making: {0}', md(transcoding.making))}`);
  }
  const origin = transcodedFromText(video, sourceTitle);
  if (origin) lines.push(`- ${md(origin)} (\`${video.parentId}\`)`);
  lines.push(`- ${l10n.t('File: {0}', md(video.fileName))}`);
  lines.push(
    `- ${l10n.t(
      'Source: {0}x{1}, {2} kbps, {3}, {4}',
      video.width,
      video.height,
      video.bitrate,
      formatDuration(video.duration),
      formatBytes(video.size * 1024),
    )}`,
  );
  if (video.category) {
    lines.push(`- ${l10n.t('Category: {0}', md(formatCategory({ name: video.category, id: video.categoryId })))}`);
  }
  if (video.tag) lines.push(`- ${l10n.t('Tags: {0}', md(video.tag))}`);
  if (video.videoType === 1) lines.push(`- ${l10n.t('VR video')}`);
  lines.push(`- ${l10n.t('Renditions: {0}', video.transcodedVideoList.length)}`);
  lines.push(`- ${l10n.t('Uploaded: {0}', formatDateTime(video.uploadTime || video.date))}`);
  lines.push(`- ${l10n.t('Id: {0}', `\`${video.id}\``)}`);
  return lines.join('\n');
}

export function videoView(
  video: Video,
  transient?: string,
  sourceTitle?: string,
  transcoding?: TranscodingSeen,
): NodeView {
  const busy = transient !== undefined;
  const settling = isVideoSettling(video);
  const description = busy
    ? transient
    : settling
      ? transcoding
        ? l10n.t('{0}... {1}', videoStateWord(video.status), formatDuration(transcoding.elapsedMs))
        : l10n.t('{0}...', videoStateWord(video.status))
      : [
          videoStateWord(video.status),
          formatDuration(video.duration),
          video.parentId ? l10n.t('from "{0}"', sourceTitle ?? video.parentId) : '',
          video.category ?? '',
        ]
          .filter(Boolean)
          .join(' · ');
  return {
    id: `video:${video.id}`,
    label: video.title || video.fileName,
    description,
    tooltip: videoTooltip(video, sourceTitle, settling ? transcoding : undefined),
    // The cover the platform lists (its first thumbnail when there is no cover).
    still: stillAddress(video.cover || video.thumbnail),
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
    isDefault ? l10n.t('{0} (default)', `**${md(stream.name)}**`) : `**${md(stream.name)}**`,
    '',
    `- ${l10n.t(
      '{0}x{1}, {2} kbps video, {3} kbps audio',
      stream.videoWidth,
      stream.videoHeight,
      stream.videoBitrate,
      Math.round(stream.audioBitrate / 1000),
    )}`,
    ...formats.map((entry) => `- ${entry.format.toUpperCase()} (${formatBytes(entry.size)}): \`${entry.url}\``),
  ];
  return {
    id: `rendition:${video.id}:${stream.idx}:${stream.name}`,
    label: isDefault ? l10n.t('{0} (default)', stream.name) : stream.name,
    description: [
      formats.map((entry) => entry.format.toUpperCase()).join('+') || l10n.t('no files'),
      `${stream.videoWidth}x${stream.videoHeight}`,
      l10n.t('{0} kbps', stream.videoBitrate),
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

/** What a transcoding job makes, for the rows while it runs: the ad-hoc templates' names, else the group. */
export function transcodeJobWords(job: SecondTranscodeJob, groupName?: string): string {
  const templates = Array.isArray(job.transcodeTemplates) ? job.transcodeTemplates : job.transcodeTemplates?.templates;
  if (templates?.length) return l10n.t('templates {0}', templates.map((template) => template.name).join(', '));
  if (groupName !== undefined) return l10n.t('template group "{0}"', groupName);
  if (job.transcodeTemplateGroupId !== undefined)
    return l10n.t('template group {0}', String(job.transcodeTemplateGroupId));
  return l10n.t("the account's default template group");
}
