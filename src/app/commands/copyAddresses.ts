import { OutputNode } from '../tree/nodes';
import { outputSize, protocolName } from '../tree/channelPresentation';
import { l10n } from '../../l10n/l10n';
import { copyAddress } from './addressActions';
import type { AppContext, CommandArgs } from '../context';
import { channelAddresses } from './playAddresses';
import { resolveChannels } from '../ask/targets';

/** videoPlatform.copyPushUrl: the address a push channel's source is sent to. */
export async function copyPushAddress(ctx: AppContext, args: CommandArgs = {}): Promise<string | undefined> {
  const channels = await resolveChannels(ctx, args, {
    title: l10n.t('Copy push address'),
    eligible: (channel) => String(channel.signalType) !== '2',
    many: false,
  });
  const channel = channels?.[0];
  if (!channel) return undefined;
  if (!channel.pushUrl) {
    await ctx.ui.warn(l10n.t('"{0}" has no push address.', channel.name));
    return undefined;
  }
  await copyAddress(ctx, { url: channel.pushUrl, what: l10n.t('push address of "{0}"', channel.name) });
  return channel.pushUrl;
}

/** videoPlatform.copyPlayUrl: an output's play address; from the palette, one of the picked channel's addresses. */
export async function copyPlayAddress(ctx: AppContext, args: CommandArgs = {}): Promise<string | undefined> {
  const node = args.node;
  if (node instanceof OutputNode) {
    const output = node.output;
    const channel = node.parent.parent.channel;
    await copyAddress(ctx, {
      url: output.publicOutputUrl,
      what: l10n.t(
        '{0} {1} address of "{2}"',
        protocolName(output.protocolType),
        outputSize(output.videoWidth, output.videoHeight, output.videoBitrate),
        channel.name,
      ),
    });
    return output.publicOutputUrl;
  }
  // From the palette: the channel, then the address, which is copied (no "copy or open" step).
  const found = await channelAddresses(ctx, args, l10n.t('Copy play address'));
  if (!found) return undefined;
  const address = await ctx.ui.pick(found.items, {
    title: found.title,
    placeHolder: l10n.t('Choose the address to copy'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!address) return undefined;
  await copyAddress(ctx, address);
  return address.url;
}
