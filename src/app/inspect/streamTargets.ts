import type { TranscodedStream, Video } from '../../api/types';
import { l10n } from '../../l10n/l10n';
import type { AppContext, CommandArgs } from '../context';
import { step } from '../failures';
import { ChannelNode, OutputGroupNode, OutputNode, RenditionNode, VideoNode } from '../tree/nodes';
import { answered } from '../ask/inputs';

/** What an inspection, a preview or the player works on. */
export interface StreamTarget {
  /** An http(s) address, a file: URI or a file path. */
  readonly address: string;
  /** Words for titles ("HLS master of "News"", "720p of "Intro""). */
  readonly name: string;
  /** One rendition or file (its report shows a contact sheet). */
  readonly single: boolean;
}

const WEB = /^https?:\/\//i;

/** The rendition's own addresses, HLS first (the inspector reads HLS best). */
function renditionAddress(stream: TranscodedStream): string | undefined {
  return [stream.hlsUrl, stream.mp4Url, stream.tsUrl, stream.flvUrl].find((url): url is string => Boolean(url));
}

/** The video's best rendition as the platform's play-address operation lists it: the default CDN's largest HLS (else MP4). */
async function videoAddress(ctx: AppContext, video: Video): Promise<string | undefined> {
  const [playback] = await step(
    l10n.t('Read the playback addresses of "{0}"', video.title || video.fileName),
    async () => {
      const client = await ctx.connection.activeClient();
      return ctx.ui.withProgress({ title: l10n.t('Reading the playback addresses'), cancellable: true }, ({ signal }) =>
        client.getTranscodedVideos([video.id], { signal }),
      );
    },
  );
  const cdns = playback?.cdns ?? [];
  const cdn = cdns.find((candidate) => candidate.defaultCdn === 1) ?? cdns[0];
  for (const format of ['hls', 'mp4'] as const) {
    const list = cdn?.[format]?.list ?? [];
    const best = [...list].sort((a, b) => b.width * b.height - a.width * a.height)[0];
    if (best?.url) return best.url;
  }
  // No CDN listed: the records' own addresses.
  const largest = [...video.transcodedVideoList].sort(
    (a, b) => b.videoWidth * b.videoHeight - a.videoWidth * a.videoHeight,
  )[0];
  return largest ? renditionAddress(largest) : undefined;
}

/** The HLS master playlists (and play addresses) of a channel's output groups, from liveGetChannelsPlayUrl. */
async function channelGroupAddresses(
  ctx: AppContext,
  channelId: string,
  name: string,
): Promise<Array<{ groupId: string; url: string }>> {
  const entries = await step(l10n.t('Read the playback addresses of "{0}"', name), async () => {
    const client = await ctx.connection.activeClient();
    return ctx.ui.withProgress(
      { title: l10n.t('Reading the playback addresses of "{0}"', name), cancellable: true },
      ({ signal }) => client.liveGetChannelsPlayUrl([channelId], { signal }),
    );
  });
  return entries
    .filter((entry) => entry.playUrl && WEB.test(entry.playUrl))
    .map((entry) => ({ groupId: entry.channelGroupId, url: entry.playUrl }));
}

/**
 * The stream an item names: a channel's output group's HLS master (asked which when there are several), an output
 * group's master, an output's address, a video's best rendition, a rendition's address, a file from the explorer or
 * the editor title. Without any, undefined: the caller asks for an address.
 */
export async function targetOfArgs(ctx: AppContext, args: CommandArgs): Promise<StreamTarget | undefined> {
  const node = args.node;
  if (args.uri) {
    const path = args.uri.startsWith('file:') ? decodeURIComponent(new URL(args.uri).pathname) : args.uri;
    return { address: args.uri, name: path.split('/').pop() ?? path, single: !/\.m3u8?$/i.test(path) };
  }
  if (node instanceof RenditionNode) {
    const address = renditionAddress(node.stream);
    if (!address) throw new Error(l10n.t('the rendition "{0}" has no address', node.stream.name));
    return {
      address,
      name: l10n.t('{0} of "{1}"', node.stream.name, node.video.title || node.video.fileName),
      single: true,
    };
  }
  if (node instanceof VideoNode) {
    const title = node.video.title || node.video.fileName;
    const address = await videoAddress(ctx, node.video);
    if (!address) throw new Error(l10n.t('"{0}" has no rendition yet: transcode it first', title));
    return { address, name: `"${title}"`, single: true };
  }
  if (node instanceof OutputNode) {
    const url = node.output.publicOutputUrl;
    if (!WEB.test(url))
      throw new Error(l10n.t("the output's address {0} is not an http(s) address (RTMP cannot be inspected)", url));
    return {
      address: url,
      name: l10n.t('{0} output', `${node.output.videoWidth}x${node.output.videoHeight}`),
      single: true,
    };
  }
  if (node instanceof OutputGroupNode) {
    const groups = await channelGroupAddresses(ctx, node.channel.id, node.channel.name);
    const group = groups.find((candidate) => candidate.groupId === node.outputGroup.id);
    if (!group)
      throw new Error(
        l10n.t(
          'the output group "{0}" has no http(s) play address (RTMP cannot be inspected)',
          node.outputGroup.name ?? '',
        ),
      );
    return { address: group.url, name: `"${node.outputGroup.name || node.channel.name}"`, single: false };
  }
  if (node instanceof ChannelNode) {
    const channel = node.channel;
    const groups = await channelGroupAddresses(ctx, channel.id, channel.name);
    if (groups.length === 0) throw new Error(l10n.t('"{0}" has no HLS output group to inspect', channel.name));
    const url =
      groups.length === 1
        ? groups[0]!.url
        : answered(
            await ctx.ui.pick(
              groups.map((group) => {
                const named = channel.outputGroupList.find((candidate) => candidate.id === group.groupId);
                return { label: named?.name || group.groupId, detail: group.url, value: group.url };
              }),
              { title: l10n.t('Which output group of "{0}"?', channel.name) },
            ),
          );
    return { address: url, name: `"${channel.name}"`, single: false };
  }
  return undefined;
}
