/**
 * The callbacks' verbs of the command line, talking to a running platform through the admin route:
 *
 *   npm run platform -- callbacks [--json]                         the delivery log, newest first
 *   npm run platform -- trigger channel-status --channel ID [--status N] [--stream-status N]
 *   npm run platform -- trigger transcode --video ID [--status 1|2|3]
 *   npm run platform -- resend DELIVERY_ID
 *   npm run platform -- callback-faults [--fail N] [--delay MS] [--duplicate] [--out-of-order] [--clear]
 *
 * each with `--url http://127.0.0.1:8790` (the default) and the account's `--access-key` and `--secret-key`
 * (or LOCAL_PLATFORM_SECRET_KEY).
 */
import { parseArgs } from 'node:util';
import { callbacksAdmin, type AdminTarget } from './adminClient';
import type { DeliveryRecord } from './events';

export const CALLBACK_VERBS = ['callbacks', 'trigger', 'resend', 'callback-faults'] as const;

export const CALLBACKS_USAGE = `Callbacks of a running local platform (its admin route, loopback only):
  localPlatform callbacks [--json]                    list the deliveries, newest first
  localPlatform trigger channel-status --channel ID [--status N] [--stream-status N]
  localPlatform trigger transcode --video ID [--status 1|2|3]
  localPlatform resend DELIVERY_ID                    send a recorded delivery again
  localPlatform callback-faults [--fail N] [--delay MS] [--duplicate] [--out-of-order] [--clear]
each with [--url http://127.0.0.1:8790] --access-key KEY --secret-key SECRET (or LOCAL_PLATFORM_SECRET_KEY)
`;

export class CallbackUsageError extends Error {}

const OPTIONS = {
  url: { type: 'string' },
  'access-key': { type: 'string' },
  'secret-key': { type: 'string' },
  channel: { type: 'string' },
  video: { type: 'string' },
  status: { type: 'string' },
  'stream-status': { type: 'string' },
  fail: { type: 'string' },
  delay: { type: 'string' },
  duplicate: { type: 'boolean' },
  'out-of-order': { type: 'boolean' },
  clear: { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

function integer(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,9}$/.test(text)) throw new CallbackUsageError(`${flag} needs a whole number`);
  return Number(text);
}

function row(d: DeliveryRecord): string {
  const status = d.status === null ? '-' : String(d.status);
  const extra = [d.fault ? `fault ${d.fault}` : '', d.resendOf ? `resend of ${d.resendOf}` : '', d.error ?? '']
    .filter(Boolean)
    .join('; ');
  return `${new Date(d.time).toISOString()}  ${d.id}  ${d.event.padEnd(14)} ${status.padEnd(4)} ${String(d.durationMs).padStart(5)}ms  attempt ${d.attempt}  ${d.outcome.padEnd(9)} ${d.url}${extra ? `  (${extra})` : ''}`;
}

/** Runs one verb; returns what to print on stdout. Throws CallbackUsageError for a bad command line. */
export async function runCallbackVerb(argv: string[], env: NodeJS.ProcessEnv): Promise<string> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    throw new CallbackUsageError(error instanceof Error ? error.message : String(error));
  }
  const v = parsed.values;
  const [verb, ...rest] = parsed.positionals;
  const accessKey = v['access-key'];
  const secretKey = v['secret-key'] ?? env.LOCAL_PLATFORM_SECRET_KEY;
  if (!accessKey || !secretKey)
    throw new CallbackUsageError(`${verb} needs --access-key and --secret-key (or LOCAL_PLATFORM_SECRET_KEY)`);
  const target: AdminTarget = { baseUrl: v.url ?? 'http://127.0.0.1:8790', accessKey, secretKey };
  switch (verb) {
    case 'callbacks': {
      const listing = await callbacksAdmin.list(target);
      if (v.json) return JSON.stringify(listing, null, 2) + '\n';
      const head = `callback URLs: ${listing.urls.join(', ') || '(none)'}\n`;
      return head + listing.deliveries.map((d) => row(d) + '\n').join('');
    }
    case 'trigger': {
      const event = rest[0];
      if (event === 'channel-status') {
        if (!v.channel) throw new CallbackUsageError('trigger channel-status needs --channel ID');
        const fields: Record<string, unknown> = {};
        const status = integer('--status', v.status);
        const streamStatus = integer('--stream-status', v['stream-status']);
        if (status !== undefined) fields.channelStatus = status;
        if (streamStatus !== undefined) fields.streamStatus = streamStatus;
        const sent = await callbacksAdmin.trigger(target, event, v.channel, fields);
        return `sent ${sent.event} ${sent.eventId}: ${JSON.stringify(sent.body)}\n`;
      }
      if (event === 'transcode') {
        if (!v.video) throw new CallbackUsageError('trigger transcode needs --video ID');
        const status = integer('--status', v.status);
        const sent = await callbacksAdmin.trigger(target, event, v.video, status === undefined ? {} : { status });
        return `sent ${sent.event} ${sent.eventId}: ${JSON.stringify(sent.body)}\n`;
      }
      throw new CallbackUsageError('trigger needs an event: channel-status or transcode');
    }
    case 'resend': {
      if (!rest[0]) throw new CallbackUsageError('resend needs a delivery id (see `callbacks`)');
      const sent = await callbacksAdmin.resend(target, rest[0]);
      return `sent ${sent.event} ${sent.eventId} again\n`;
    }
    case 'callback-faults': {
      const changes = v.clear || v.fail !== undefined || v.delay !== undefined || v.duplicate || v['out-of-order'];
      const faults = changes
        ? await callbacksAdmin.faults(target, {
            fail: integer('--fail', v.fail) ?? 0,
            delayMs: integer('--delay', v.delay) ?? 0,
            duplicate: v.duplicate === true,
            outOfOrder: v['out-of-order'] === true,
          })
        : await callbacksAdmin.faults(target);
      return `receiver faults: ${JSON.stringify(faults)}\n`;
    }
    default:
      throw new CallbackUsageError(`unknown verb ${verb}`);
  }
}
