import type { AppContext, CommandArgs } from '../context';
import { step } from '../failures';
import { l10n } from '../../l10n/l10n';
import { outputSize, protocolName } from '../tree/channelPresentation';
import { OutputGroupNode, OutputNode, RenditionNode } from '../tree/nodes';
import type { PickItem } from '../ui';
import { copyAddress, type Address } from './addressActions';

const WEB = /^https?:\/\//i;

/**
 * The addresses of a rendition (its HLS, MP4, FLV and TS files), an output (its play address) or an output group
 * (the master playlist liveGetChannelsPlayUrl lists for it, then each output's address). Other items have none.
 */
export async function itemAddresses(ctx: AppContext, node: unknown): Promise<Address[]> {
  if (node instanceof RenditionNode) {
    const { stream } = node;
    const owner = node.video.title || node.video.fileName;
    return (
      [
        ['HLS', stream.hlsUrl],
        ['MP4', stream.mp4Url],
        ['FLV', stream.flvUrl],
        ['TS', stream.tsUrl],
      ] as const
    ).flatMap(([format, url]) =>
      url ? [{ url, what: l10n.t('{0} of {1} of "{2}"', format, stream.name, owner) }] : [],
    );
  }
  if (node instanceof OutputNode) {
    const { output } = node;
    const channel = node.parent.channel;
    return [
      {
        url: output.publicOutputUrl,
        what: l10n.t(
          '{0} {1} address of "{2}"',
          protocolName(output.protocolType),
          outputSize(output.videoWidth, output.videoHeight, output.videoBitrate),
          channel.name,
        ),
      },
    ];
  }
  if (node instanceof OutputGroupNode) {
    const { channel, outputGroup } = node;
    const entries = await step(l10n.t('Read the playback addresses of "{0}"', channel.name), async () => {
      const client = await ctx.connection.activeClient();
      return ctx.ui.withProgress(
        { title: l10n.t('Reading the playback addresses of "{0}"', channel.name), cancellable: true },
        ({ signal }) => client.liveGetChannelsPlayUrl([channel.id], { signal }),
      );
    });
    const group = outputGroup.name || protocolName(outputGroup.protocolType);
    const master = entries
      .filter((entry) => entry.channelGroupId === outputGroup.id && entry.playUrl)
      .map((entry) => ({ url: entry.playUrl, what: l10n.t('master address of {0} of "{1}"', group, channel.name) }));
    const outputs = outputGroup.liveOutputs.map((output) => ({
      url: output.publicOutputUrl,
      what: l10n.t(
        '{0} {1} address of "{2}"',
        protocolName(output.protocolType),
        outputSize(output.videoWidth, output.videoHeight, output.videoBitrate),
        channel.name,
      ),
    }));
    const seen = new Set<string>();
    return [...master, ...outputs].filter((address) => address.url && !seen.has(address.url) && seen.add(address.url));
  }
  return [];
}

async function chooseAddress(ctx: AppContext, addresses: Address[], title: string): Promise<Address | undefined> {
  if (addresses.length <= 1) return addresses[0];
  const items: PickItem<Address>[] = addresses.map((address) => ({
    label: address.what,
    detail: address.url,
    value: address,
  }));
  return ctx.ui.pick(items, { title, placeHolder: l10n.t('Choose the address'), matchOnDetail: true });
}

/** videoPlatform.copyItemAddress: a rendition's, output's or output group's address (asked which when several). */
export async function copyItemAddress(ctx: AppContext, args: CommandArgs = {}): Promise<string | undefined> {
  const addresses = await itemAddresses(ctx, args.node);
  if (addresses.length === 0) {
    void ctx.ui.warn(l10n.t('Choose a rendition, an output group or an output in a view: it has no address here.'));
    return undefined;
  }
  const address = await chooseAddress(ctx, addresses, l10n.t('Copy Address'));
  if (!address) return undefined;
  await copyAddress(ctx, address);
  return address.url;
}

/** videoPlatform.openItemAddress: the same addresses, in the browser; RTMP ones cannot open there (copy them). */
export async function openItemAddress(ctx: AppContext, args: CommandArgs = {}): Promise<string | undefined> {
  const all = await itemAddresses(ctx, args.node);
  const addresses = all.filter((address) => WEB.test(address.url));
  if (addresses.length === 0) {
    void ctx.ui.warn(
      all.length > 0
        ? l10n.t('{0} cannot open in a browser (not an http address): copy it instead.', all[0]!.url)
        : l10n.t('Choose a rendition, an output group or an output in a view: it has no address here.'),
    );
    return undefined;
  }
  const address = await chooseAddress(ctx, addresses, l10n.t('Open Address'));
  if (!address) return undefined;
  await ctx.ui.openExternal(address.url);
  return address.url;
}
