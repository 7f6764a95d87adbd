/**
 * A client of the callbacks' admin route (route.ts), signed with the account's keys as /rest requests are
 * (src/api/signing.ts). Used by the command line (cliCommands.ts) and the extension's Callbacks view.
 */
import { request } from 'node:http';
import { signParams } from '../../api/signing';
import type { ReceiverFaults } from './deliveries';
import type { CallbackMessage, DeliveryRecord } from './events';

export interface AdminTarget {
  /** The platform's base, `http://127.0.0.1:8790` (a trailing `/rest` is taken off). */
  baseUrl: string;
  accessKey: string;
  secretKey: string;
}

export interface CallbackListing {
  urls: string[];
  faults: ReceiverFaults;
  deliveries: DeliveryRecord[];
}

/** A refusal of the admin route: its code and message (the platform's envelope). */
export class AdminRefusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'AdminRefusal';
  }
}

const TIMEOUT_MS = 15_000;
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

export function adminBase(baseUrl: string): URL {
  const url = new URL(baseUrl.replace(/\/rest\/?$/, '').replace(/\/+$/, '') + '/');
  if (url.protocol !== 'http:') throw new Error(`the platform's address must be http:// (got ${url.protocol})`);
  return url;
}

export async function callAdmin<T>(target: AdminTarget, verb: string, params: Record<string, string> = {}): Promise<T> {
  const all: Record<string, string> = {
    accessKey: target.accessKey,
    action: `callbacks.${verb}`,
    version: '2.0',
    timestamp: String(Date.now()),
    ...params,
  };
  all.signature = signParams(all, target.secretKey);
  const url = new URL(`_local/callbacks/${verb}`, adminBase(target.baseUrl));
  const body = new URLSearchParams(all).toString();
  const text = await new Promise<string>((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
      timeout: TIMEOUT_MS,
    });
    req.on('timeout', () => req.destroy(new Error(`the platform did not answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) res.destroy(new Error('the answer is too large'));
        else chunks.push(chunk);
      });
      res.on('error', reject);
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    req.end(body);
  });
  let envelope: { code: number; message: string; result: T; success: boolean };
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    throw new Error(`the platform's answer is not JSON: ${text.slice(0, 200)}`);
  }
  if (envelope.code !== 0) throw new AdminRefusal(envelope.code, envelope.message);
  return envelope.result;
}

export const callbacksAdmin = {
  list: (t: AdminTarget) => callAdmin<CallbackListing>(t, 'list'),
  resend: (t: AdminTarget, id: string) => callAdmin<CallbackMessage>(t, 'resend', { id }),
  trigger: (t: AdminTarget, event: string, target: string, fields: Record<string, unknown> = {}) =>
    callAdmin<CallbackMessage>(t, 'trigger', { event, target, fields: JSON.stringify(fields) }),
  faults: (t: AdminTarget, faults?: Partial<ReceiverFaults>) =>
    callAdmin<ReceiverFaults>(
      t,
      'faults',
      faults ? Object.fromEntries(Object.entries(faults).map(([k, v]) => [k, String(v)])) : {},
    ),
  urls: (t: AdminTarget, urls?: string[]) =>
    callAdmin<{ urls: string[] }>(t, 'urls', urls ? { urls: JSON.stringify(urls) } : {}),
};
