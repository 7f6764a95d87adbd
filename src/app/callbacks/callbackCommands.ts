/**
 * The Callbacks view's commands (loaded with the inspection part on first use: src/app/commands/callbackActions.ts): open a delivery (its body and headers, read-only), Resend, Trigger... (event,
 * target from the account's channels or videos, fields to override), Set Receiver Faults..., Copy Callback
 * Signing Secret, and the Callback URLs of Edit Account. All act on the local platform inside the editor.
 */
import { ChannelStatuses } from '../../api/types';
import { l10n } from '../../l10n/l10n';
import { callbacksAdmin, type AdminTarget, type CallbackListing } from '../../localPlatform/callbacks/adminClient';
import type { ReceiverFaults } from '../../localPlatform/callbacks/deliveries';
import type { DeliveryRecord } from '../../localPlatform/callbacks/events';
import { callbackUrlProblem, MAX_URLS } from '../../localPlatform/callbacks/urlRules';
import { callbackPolicy } from '../accounts/localPlatformHost';
import { answered, askInteger } from '../ask/inputs';
import { resolveChannels, resolveVideos } from '../ask/targets';
import type { AppContext, CommandArgs } from '../context';
import { step } from '../failures';
import { callbackTarget, DeliveryNode } from './callbackTree';

async function target(ctx: AppContext): Promise<AdminTarget> {
  const found = await callbackTarget(ctx);
  if ('message' in found) throw new Error(found.message);
  return found;
}

/** The delivery clicked, or one picked from the log. */
async function deliveryOf(ctx: AppContext, args: CommandArgs, title: string): Promise<DeliveryRecord> {
  if (args.node instanceof DeliveryNode) return args.node.delivery;
  const listing = await callbacksAdmin.list(await target(ctx));
  if (listing.deliveries.length === 0) throw new Error(l10n.t('No deliveries yet'));
  return answered(
    await ctx.ui.pick(
      listing.deliveries.map((d) => ({
        label: `${d.event} · ${d.status ?? '-'}`,
        description: `${new Date(d.time).toISOString()} · ${d.url}`,
        value: d,
      })),
      { title, placeHolder: l10n.t('Choose a delivery') },
    ),
  );
}

/** The Callbacks view's rows: the delivery log of the active local platform account (the admin route). */
export async function listCallbacks(ctx: AppContext): Promise<CallbackListing | { message: string }> {
  const found = await callbackTarget(ctx);
  return 'message' in found ? found : callbacksAdmin.list(found);
}

/** videoPlatform.refreshCallbacks */
export function refreshCallbacks(ctx: AppContext): void {
  ctx.models.callbacks.refresh();
}

/** The text of an opened delivery: what was sent and what came back, as JSON (never the secret: it is not kept). */
export function deliveryText(d: DeliveryRecord): string {
  let body: unknown = d.body;
  try {
    body = JSON.parse(d.body) as unknown;
  } catch {
    // Shown as the text it is.
  }
  const { body: _body, headers, ...delivery } = d;
  return JSON.stringify({ delivery, request: { method: 'POST', url: d.url, headers, body } }, null, 2) + '\n';
}

/** videoPlatform.openCallbackDelivery: the delivery's body and headers in a read-only document. */
export async function openCallbackDelivery(ctx: AppContext, args: CommandArgs = {}): Promise<void> {
  const d = await deliveryOf(ctx, args, l10n.t('Open delivery'));
  await ctx.editor.showReadOnly({ name: `callback-${d.id}.json`, text: deliveryText(d) });
}

/** videoPlatform.resendCallback: the same event id and body again, to the same URL, newly signed. */
export async function resendCallback(ctx: AppContext, args: CommandArgs = {}): Promise<void> {
  const d = await deliveryOf(ctx, args, l10n.t('Resend'));
  const sent = await step(l10n.t('Resend'), async () => callbacksAdmin.resend(await target(ctx), d.id));
  ctx.models.callbacks.refresh();
  void ctx.ui.info(l10n.t('Sent {0} {1} again to {2}.', sent.event, sent.eventId, d.url));
}

const CHANNEL_STATUS_NAMES: Record<number, string> = {
  [ChannelStatuses.initialised]: 'new',
  [ChannelStatuses.ready]: 'stopped',
  [ChannelStatuses.live]: 'live',
  [ChannelStatuses.pulling]: 'no source (pulling)',
  [ChannelStatuses.starting]: 'starting',
};

/** A pick of a field's value: "as it is" (undefined) or one of `values`. */
async function pickValue(
  ctx: AppContext,
  title: string,
  field: string,
  values: Array<{ value: number; label: string }>,
  stepNumber: number,
): Promise<number | undefined> {
  const keep = { label: l10n.t('As it is'), description: l10n.t('the current value'), value: -1 };
  const chosen = answered(
    await ctx.ui.pick(
      [keep, ...values.map((v) => ({ label: String(v.value), description: v.label, value: v.value }))],
      {
        title,
        placeHolder: l10n.t('{0}: the value to send', field),
        step: stepNumber,
        totalSteps: 4,
      },
    ),
  );
  return chosen === -1 ? undefined : chosen;
}

/** videoPlatform.triggerCallback: an event of a channel or video, with fields overridden. */
export async function triggerCallback(ctx: AppContext, args: CommandArgs = {}): Promise<void> {
  const title = l10n.t('Trigger callback');
  const admin = await target(ctx);
  const event = answered(
    await ctx.ui.pick(
      [
        { label: 'channel-status', description: l10n.t('a channel status change'), value: 'channel-status' },
        { label: 'transcode', description: l10n.t('a transcoding start, end or failure'), value: 'transcode' },
      ],
      { title, placeHolder: l10n.t('Choose the event'), step: 1, totalSteps: 4 },
    ),
  );
  const fields: Record<string, number> = {};
  let id: string;
  if (event === 'channel-status') {
    const [channel] = answered(await resolveChannels(ctx, args, { title, many: false }));
    id = channel.id;
    const status = await pickValue(
      ctx,
      title,
      'channelStatus',
      Object.values(ChannelStatuses).map((value) => ({ value, label: CHANNEL_STATUS_NAMES[value] })),
      3,
    );
    if (status !== undefined) fields.channelStatus = status;
    const stream = await pickValue(
      ctx,
      title,
      'streamStatus',
      [
        { value: 1, label: 'source present' },
        { value: 2, label: 'no source' },
      ],
      4,
    );
    if (stream !== undefined) fields.streamStatus = stream;
  } else {
    const [video] = answered(await resolveVideos(ctx, args, { title, many: false }));
    id = video.id;
    const status = await pickValue(
      ctx,
      title,
      'status',
      [
        { value: 1, label: 'started' },
        { value: 2, label: 'done' },
        { value: 3, label: 'failed' },
      ],
      3,
    );
    if (status !== undefined) fields.status = status;
  }
  const sent = await step(title, () => callbacksAdmin.trigger(admin, event, id, fields));
  ctx.models.callbacks.refresh();
  void ctx.ui.info(l10n.t('Sent {0} {1}: {2}', sent.event, sent.eventId, JSON.stringify(sent.body)));
}

/** videoPlatform.setCallbackFaults: how the platform misdelivers, to test a receiver. */
export async function setCallbackFaults(ctx: AppContext): Promise<ReceiverFaults> {
  const title = l10n.t('Set receiver faults');
  const admin = await target(ctx);
  const now = await callbacksAdmin.faults(admin);
  type Fault = keyof ReceiverFaults;
  const chosen = answered(
    await ctx.ui.pickMany<Fault>(
      [
        { label: l10n.t('Fail the next attempts'), description: 'fail', picked: now.fail > 0, value: 'fail' },
        { label: l10n.t('Delay each delivery'), description: 'delayMs', picked: now.delayMs > 0, value: 'delayMs' },
        {
          label: l10n.t('Send each delivery twice'),
          description: 'duplicate',
          picked: now.duplicate,
          value: 'duplicate',
        },
        {
          label: l10n.t('Send events out of order'),
          description: 'outOfOrder',
          picked: now.outOfOrder,
          value: 'outOfOrder',
        },
      ],
      { title, placeHolder: l10n.t('Choose the faults (none: deliver normally)') },
    ),
  );
  const faults: ReceiverFaults = { fail: 0, delayMs: 0, duplicate: false, outOfOrder: false };
  for (const field of ['fail', 'delayMs'] as const)
    if (chosen.includes(field)) {
      const { prompt, first, min, max } = COUNTED[field];
      faults[field] = answered(
        await askInteger(ctx.ui, { title, field, prompt, value: now[field] || first, min, max }),
      );
    }
  faults.duplicate = chosen.includes('duplicate');
  faults.outOfOrder = chosen.includes('outOfOrder');
  const set = await step(title, () => callbacksAdmin.faults(admin, faults));
  void ctx.ui.info(l10n.t('Receiver faults: {0}', JSON.stringify(set)));
  return set;
}

/** The receiver faults that take a number: what to ask, the first value offered, and the range. */
const COUNTED = {
  get fail() {
    return { prompt: l10n.t('How many attempts count as failed'), first: 1, min: 1, max: 100 };
  },
  get delayMs() {
    return { prompt: l10n.t('Delay in milliseconds'), first: 1000, min: 1, max: 60_000 };
  },
};

/** videoPlatform.copyCallbackSecret: copied, and kept in secret storage with the account; never shown as text. */
export async function copyCallbackSecret(ctx: AppContext): Promise<void> {
  const active = ctx.accounts.active();
  if (active?.origin !== 'local')
    throw new Error(l10n.t('Callbacks are sent by the local platform: connect to it to see them'));
  const callbacks = await ctx.localPlatform.callbacks();
  await ctx.accounts.storeCallbackSecret(active.id, callbacks.secret);
  await ctx.ui.copy(callbacks.secret);
  void ctx.ui.info(l10n.t('Copied the callback signing secret (HMAC-SHA256 of timestamp.body; see the README).'));
}

/** The rule a text of callback URLs (comma- or space-separated) breaks, or undefined. */
export function callbackUrlsRule(text: string, remote: Parameters<typeof callbackPolicy>[0]): string | undefined {
  const urls = splitUrls(text);
  if (urls.length > MAX_URLS) return l10n.t('Callback URLs: at most {0}', MAX_URLS);
  for (const url of urls) {
    const problem = callbackUrlProblem(url, callbackPolicy(remote));
    if (problem) return `${url.slice(0, 100)} ${problem}`;
  }
  return undefined;
}

export function splitUrls(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((url) => url.trim())
    .filter(Boolean);
}

/** Edit Account's "Callback URLs" field of the local platform account: saved in the setting, applied at once. */
export async function editCallbackUrls(ctx: AppContext, title: string): Promise<string[]> {
  const { urls: current, remote } = ctx.localPlatform.callbackSettings;
  const text = await ctx.ui.input({
    title,
    prompt: l10n.t(
      'Callback URLs, comma-separated (empty: none); loopback hosts unless the remote callbacks setting allows others',
    ),
    value: current.join(', '),
    validate: (value) => callbackUrlsRule(value, remote),
  });
  if (text === undefined) return answered<string[]>(undefined);
  const rule = callbackUrlsRule(text, remote);
  if (rule) throw new Error(rule);
  const urls = splitUrls(text);
  await ctx.localPlatform.setCallbackUrls(urls);
  ctx.models.callbacks.refresh();
  return urls;
}
