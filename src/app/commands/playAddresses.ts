import type { Channel, ChannelPlayUrl, PlaybackStream, Video, VideoPlayback } from '../../api/types';
import { PROTOCOL_HLS, VideoStatuses } from '../../api/types';
import { step } from '../failures';
import { l10n } from '../../l10n/l10n';
import { outputSize, protocolName } from '../tree/channelPresentation';
import { formatBytes } from '../tree/videoPresentation';
import type { PickItem } from '../ui';
import { pickAndUseAddress, type Address } from './addressActions';
import type { AppContext, CommandArgs } from '../context';
import { nameList, resolveChannels, resolveVideos } from '../ask/targets';

/** Quick-pick rows for liveGetChannelsPlayUrl: one separator per output group, master first. */
function channelAddressItems(entries: readonly ChannelPlayUrl[], channels: readonly Channel[]): PickItem<Address>[] {
  const items: PickItem<Address>[] = [];
  for (const entry of entries) {
    const channel = channels.find((candidate) => candidate.id === entry.channelId);
    const channelName = channel?.name ?? entry.channelId;
    const group = channel?.outputGroupList.find((candidate) => candidate.id === entry.channelGroupId);
    const protocol = protocolName(entry.channelGroupType);
    const groupLabel = group?.name
      ? l10n.t('{0} {1} output group', protocol, group.name)
      : l10n.t('{0} output group', protocol);
    items.push({
      label: `${channels.length > 1 ? `${channelName} · ` : ''}${groupLabel}`,
      separator: true,
    });
    if (entry.playUrl) {
      items.push({
        label:
          entry.channelGroupType === PROTOCOL_HLS
            ? `$(list-ordered) ${l10n.t('Master playlist')}`
            : `$(play-circle) ${l10n.t('Play address')}`,
        description: l10n.t('{0} · all renditions', protocol),
        detail: entry.playUrl,
        value: { url: entry.playUrl, what: l10n.t('{0} master address of "{1}"', protocol, channelName) },
      });
    }
    for (const child of entry.playUrlList) {
      const size = outputSize(child.width, child.height, child.videoBitrate);
      items.push({
        label: `$(play) ${child.defaultVideo === '1' ? l10n.t('{0} (default)', size) : size}`,
        description: l10n.t('{0} · audio {1} kbps', protocol, child.audioBitrate),
        detail: child.url,
        value: { url: child.url, what: l10n.t('{0} {1} address of "{2}"', protocol, size, channelName) },
      });
    }
  }
  return items;
}

const FORMATS = ['hls', 'mp4', 'flv', 'ts'] as const;

function streamLabel(format: string, stream: PlaybackStream): string {
  const name = `${format.toUpperCase()} ${stream.width}x${stream.height}`;
  return `$(play) ${stream.defaultVideo === 1 ? l10n.t('{0} (default)', name) : name}`;
}

/** Quick-pick rows for getTranscodedVideos: a separator per video, CDN and format. */
function videoAddressItems(playbacks: readonly VideoPlayback[], videos: readonly Video[]): PickItem<Address>[] {
  const items: PickItem<Address>[] = [];
  for (const playback of playbacks) {
    const video = videos.find((candidate) => candidate.id === playback.id);
    const title = video?.title || video?.fileName || playback.id;
    for (const cdn of playback.cdns ?? []) {
      for (const format of FORMATS) {
        const list = cdn[format]?.list ?? [];
        if (list.length === 0) continue;
        items.push({
          label: `${videos.length > 1 ? `${title} · ` : ''}${cdn.defaultCdn === 1 ? l10n.t('{0} (default)', `CDN ${cdn.desc}`) : `CDN ${cdn.desc}`} · ${format.toUpperCase()}`,
          separator: true,
        });
        for (const stream of list) {
          const extras = [
            stream.desc,
            stream.size ? formatBytes(stream.size) : '',
            stream.encryptType ? (stream.encryptType === 6 ? 'AES' : l10n.t('encrypted')) : '',
          ]
            .filter(Boolean)
            .join(' · ');
          items.push({
            label: streamLabel(format, stream),
            description: extras,
            detail: stream.url,
            value: {
              url: stream.url,
              what: l10n.t('{0} {1} address of "{2}"', format.toUpperCase(), `${stream.width}x${stream.height}`, title),
            },
          });
        }
      }
    }
  }
  return items;
}

/** videoPlatform.showChannelPlayUrls */
export async function showChannelPlayAddresses(
  ctx: AppContext,
  args: CommandArgs = {},
): Promise<Awaited<ReturnType<typeof pickAndUseAddress>>> {
  const found = await channelAddresses(ctx, args, l10n.t('Playback addresses'));
  return found ? pickAndUseAddress(ctx, found.items, found.title) : undefined;
}

/**
 * The playback address rows of the given (or picked) channels, with the pick's title; undefined
 * (after saying why) when there is none.
 */
export async function channelAddresses(
  ctx: AppContext,
  args: CommandArgs,
  title: string,
): Promise<{ items: PickItem<Address>[]; title: string } | undefined> {
  const channels = await resolveChannels(ctx, args, { title, many: true });
  if (!channels) return undefined;
  const names = nameList(
    channels.map((channel) => channel.name),
    'channels',
  );
  const entries: ChannelPlayUrl[] = await step(l10n.t('Read the playback addresses of {0}', names), async () => {
    const client = await ctx.connection.activeClient();
    return ctx.ui.withProgress(
      { title: l10n.t('Reading the playback addresses of {0}', names), cancellable: true },
      ({ signal }) =>
        client.liveGetChannelsPlayUrl(
          channels.map((channel) => channel.id),
          { signal },
        ),
    );
  });
  const items = channelAddressItems(entries, channels);
  if (!items.some((item) => !item.separator)) {
    await ctx.ui.info(l10n.t('{0} has no output group, so there is no playback address.', names));
    return undefined;
  }
  return { items, title: l10n.t('{0} of {1}', title, names) };
}

export function hasRenditions(video: Video): boolean {
  return video.status === VideoStatuses.completed || (video.transcodedVideoList?.length ?? 0) > 0;
}

/** videoPlatform.showVideoPlayUrls */
export async function showVideoPlayAddresses(
  ctx: AppContext,
  args: CommandArgs = {},
): Promise<Awaited<ReturnType<typeof pickAndUseAddress>>> {
  const title = l10n.t('Playback addresses');
  // Only videos with renditions have addresses (transcoded, or transcoding again with the earlier ones).
  const videos = await resolveVideos(ctx, args, {
    title,
    many: true,
    eligible: hasRenditions,
    why: l10n.t('no rendition yet: transcode it first'),
  });
  if (!videos) return undefined;
  const names = nameList(
    videos.map((video) => video.title || video.fileName),
    'videos',
  );
  const playbacks: VideoPlayback[] = await step(l10n.t('Read the playback addresses of {0}', names), async () => {
    const client = await ctx.connection.activeClient();
    return ctx.ui.withProgress(
      { title: l10n.t('Reading the playback addresses of {0}', names), cancellable: true },
      ({ signal }) =>
        client.getTranscodedVideos(
          videos.map((video) => video.id),
          { signal },
        ),
    );
  });
  const items = videoAddressItems(playbacks, videos);
  const without = playbacks
    .filter((playback) => !playback.cdns?.length)
    .map((playback) => videos.find((video) => video.id === playback.id)?.title ?? playback.id);
  if (!items.some((item) => !item.separator)) {
    await ctx.ui.info(l10n.t('{0} has no playback address yet (not transcoded, or no CDN).', names));
    return undefined;
  }
  if (without.length) ctx.log.info(`No playback addresses for ${without.map((name) => `"${name}"`).join(', ')}`);
  return pickAndUseAddress(ctx, items, l10n.t('{0} of {1}', title, names));
}
