/**
 * The Callbacks view's model: the deliveries of the local platform's callbacks (src/localPlatform/callbacks/),
 * newest first, read through the platform's admin route with the account's keys. It shows only for an account of
 * the local platform inside the editor (package.json `when`: videoPlatform.localAccountActive).
 */
import { l10n } from '../../l10n/l10n';
import type { AdminTarget, CallbackListing } from '../../localPlatform/callbacks/adminClient';
import type { DeliveryRecord } from '../../localPlatform/callbacks/events';
import type { AppContext } from '../context';
import { describeFailure } from '../failures';
import type { NodeView } from '../tree/nodeView';
import { md } from '../tree/nodeView';
import { ErrorNode, MessageNode, TreeNode } from '../tree/nodes';
import { Emitter } from '../util/emitter';

/**
 * One delivery attempt. contextValue `callbackDelivery+<delivered|retrying|failed>`: every one can be resent
 * (Resend) and opened (its body and headers).
 */
export class DeliveryNode extends TreeNode {
  readonly kind = 'callbackDelivery';
  constructor(readonly delivery: DeliveryRecord) {
    super(undefined);
  }

  view(): NodeView {
    const d = this.delivery;
    const status = d.status === null ? l10n.t('no answer') : `HTTP ${d.status}`;
    const time = new Date(d.time).toISOString().slice(11, 19);
    const icon =
      d.outcome === 'delivered'
        ? { id: 'pass', color: 'testing.iconPassed' }
        : d.outcome === 'retrying'
          ? { id: 'sync', color: 'charts.yellow' }
          : { id: 'error', color: 'errorForeground' };
    const lines = [
      `**${md(d.event)}** · ${md(status)} · ${l10n.t('attempt {0}', d.attempt)} · ${d.durationMs} ms`,
      md(new Date(d.time).toISOString()),
      md(d.url),
      ...(d.error ? [md(d.error)] : []),
      ...(d.fault ? [l10n.t('Receiver fault: {0}', md(d.fault))] : []),
    ];
    return {
      id: `delivery:${d.id}`,
      label: `${d.event} · ${status}`,
      description: `${time} · ${l10n.t('attempt {0}', d.attempt)} · ${d.durationMs} ms · ${d.url}`,
      tooltip: lines.join('\n\n'),
      icon,
      contextValue: `callbackDelivery+${d.outcome}`,
      collapsible: 'none',
      command: { command: 'videoPlatform.openCallbackDelivery', title: l10n.t('Open delivery') },
    };
  }
}

/** The admin route of the active local platform account, or why there is none. */
export async function callbackTarget(ctx: AppContext): Promise<AdminTarget | { message: string }> {
  const active = ctx.accounts.active();
  if (active?.origin !== 'local')
    return { message: l10n.t('Callbacks are sent by the local platform: connect to it to see them') };
  const profile = await ctx.localPlatform.ensure();
  const secretKey = await ctx.accounts.secretKey(profile.id);
  if (!secretKey) return { message: l10n.t('The local platform account has no secret key') };
  return { baseUrl: profile.baseUrl, accessKey: profile.accessKey, secretKey };
}

/** The active account's delivery log, or why there is none (not a local platform). */
export type CallbackSource = () => Promise<CallbackListing | { message: string }>;

export class CallbackTreeModel {
  private readonly changed = new Emitter<TreeNode | undefined>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly source: CallbackSource) {}

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (node) return [];
    try {
      const listing = await this.source();
      if ('message' in listing) return [new MessageNode(undefined, listing.message)];
      if (listing.deliveries.length === 0)
        return [
          new MessageNode(
            undefined,
            listing.urls.length === 0
              ? l10n.t('No callback URL is set: Edit Account, "Callback URLs"')
              : l10n.t('No deliveries yet'),
          ),
        ];
      return listing.deliveries.map((delivery) => new DeliveryNode(delivery));
    } catch (error) {
      return [new ErrorNode(undefined, describeFailure(error), async () => this.refresh())];
    }
  }

  getParent(): TreeNode | undefined {
    return undefined;
  }

  refresh(): void {
    this.changed.fire(undefined);
  }
}
