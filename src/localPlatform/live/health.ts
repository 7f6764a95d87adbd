/**
 * A started channel's health as the platform sees it: the incoming source's figures (ingestMeter.ts) and, per HLS
 * rendition, the newest segment its playlist lists and how long ago it became available. Answered by the
 * local-platform-only route `/_local/health/channel` (http/health.ts); the extension's Channel Health panel and the
 * channel's tooltip read it (src/app/health/).
 */
import { stat } from 'node:fs/promises';
import type { SourceFigures } from './ingestMeter';
import type { LiveChannel } from './liveChannel';

export type { SourceFigures } from './ingestMeter';

export interface RenditionHealth {
  readonly groupId: string;
  /** The output group's place among the channel's HLS groups (1-based; groups have no names). */
  readonly groupNumber: number;
  /** 1-based, in template order (as the child playlist's address `/<groupId>-<n>.m3u8`). */
  readonly index: number;
  readonly width: number;
  readonly height: number;
  /** The newest segment the playlist lists, and seconds since it became available; absent before the first. */
  readonly newestSegment?: string;
  readonly newestSegmentAgeSeconds?: number;
}

export interface ChannelHealth {
  readonly channelId: string;
  /** At the platform's clock, ms since 1970. */
  readonly measuredAt: number;
  /** An encoder (or the relay of a pull source) is connected. */
  readonly publishing: boolean;
  /** Figures of the incoming source while one is connected; the looped test pattern has none (no ingest). */
  readonly source: SourceFigures | null;
  readonly renditions: readonly RenditionHealth[];
}

export async function channelHealth(channel: LiveChannel): Promise<ChannelHealth> {
  const renditions: RenditionHealth[] = [];
  for (const [g, group] of channel.hlsGroups.entries()) {
    for (const [n, rendition] of group.renditions.entries()) {
      const newest = await newestSegment(channel, group.id, n);
      renditions.push({
        groupId: group.id,
        groupNumber: g + 1,
        index: n + 1,
        width: rendition.width,
        height: rendition.height,
        ...newest,
      });
    }
  }
  return {
    channelId: channel.channelId,
    measuredAt: Date.now(),
    publishing: channel.publishing,
    source: channel.sourceFigures() ?? null,
    renditions,
  };
}

/**
 * The last segment of a child playlist and when it became available: its file's modification time (the ladder
 * writes it whole), or, for segments made in memory (the test pattern), its program date-time plus its duration.
 */
async function newestSegment(
  channel: LiveChannel,
  groupId: string,
  n: number,
): Promise<Pick<RenditionHealth, 'newestSegment' | 'newestSegmentAgeSeconds'>> {
  const playlist = await channel.childPlaylist(groupId, n);
  if (!playlist) return {};
  const lines = playlist.split('\n').map((line) => line.trim());
  let uriAt = lines.length - 1;
  while (uriAt >= 0 && (lines[uriAt] === '' || lines[uriAt]!.startsWith('#'))) uriAt--;
  if (uriAt < 0) return {};
  const uri = lines[uriAt]!;
  const name = /^([A-Za-z0-9_-]+)\.ts$/.exec(uri)?.[1];
  const file = name ? channel.mediaFile(name, 'ts') : undefined;
  let availableAt: number | undefined;
  if (typeof file === 'string') {
    availableAt = await stat(file).then(
      (info) => info.mtimeMs,
      () => undefined,
    );
  } else {
    const tags = lines.slice(0, uriAt).reverse();
    const date = tags.find((line) => line.startsWith('#EXT-X-PROGRAM-DATE-TIME:'))?.slice(25);
    const duration = Number(
      tags
        .find((line) => line.startsWith('#EXTINF:'))
        ?.slice(8)
        .split(',')[0],
    );
    if (date && Number.isFinite(duration)) availableAt = Date.parse(date) + duration * 1000;
  }
  if (availableAt === undefined || Number.isNaN(availableAt)) return { newestSegment: uri };
  return { newestSegment: uri, newestSegmentAgeSeconds: Math.max(0, (Date.now() - availableAt) / 1000) };
}
