/**
 * The admin route of the callbacks, `/_local/callbacks/<verb>` (not /rest: /rest stays the real platform's
 * interface), used by the command line (`npm run platform -- callbacks`, `trigger`, `resend`, `callback-faults`)
 * and the extension's Callbacks view. Loopback clients only; signed like /rest (http/auth.ts) with
 * `action=callbacks.<verb>`, so a signed /rest request cannot be replayed here. Answers the platform's envelope.
 *
 * Verbs: `list` (the delivery log, newest first, and the URLs and receiver faults), `resend` (`id`),
 * `trigger` (`event`, `target`, `fields`: JSON object text), `faults` (`fail`, `delayMs`, `duplicate`,
 * `outOfOrder`; none: read them), `urls` (`urls`: JSON array text; none: read them).
 */
import { Codes } from '../../api/errorCodes';
import { HttpFault, send, success } from '../http/answer';
import { authenticate, type AuthOptions } from '../http/auth';
import { invalid } from '../http/faults';
import { parseRequest, readBody } from '../http/request';
import { withBodyDeadline } from '../http/rest';
import type { Route } from '../http/routes';
import type { Account } from '../actions/context';
import type { PlatformCallbacks } from './callbacks';
import { isLoopback } from './urlRules';

export const CALLBACKS_ADMIN_PATH = '/_local/callbacks/';

const VERBS = ['list', 'resend', 'trigger', 'faults', 'urls'] as const;
type Verb = (typeof VERBS)[number];

const MAX_BODY_BYTES = 64 * 1024;
const BODY_TIMEOUT_MS = 10_000;

export function isCallbacksAdminPath(path: string): boolean {
  return path.startsWith(CALLBACKS_ADMIN_PATH);
}

function jsonParam(params: Record<string, string>, name: string): unknown {
  const text = params[name];
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalid(name, 'must be JSON text');
  }
}

function numberParam(params: Record<string, string>, name: string): number | undefined {
  const text = params[name];
  if (text === undefined || text === '') return undefined;
  if (!/^\d{1,9}$/.test(text)) throw invalid(name, 'must be a whole number');
  return Number(text);
}

function flagParam(params: Record<string, string>, name: string): boolean | undefined {
  const text = params[name];
  if (text === undefined || text === '') return undefined;
  if (text !== 'true' && text !== 'false') throw invalid(name, 'must be true or false');
  return text === 'true';
}

function run(verb: Verb, params: Record<string, string>, callbacks: ReturnType<PlatformCallbacks['of']>): unknown {
  switch (verb) {
    case 'list':
      return { urls: callbacks.urls, faults: callbacks.deliveries.receiverFaults, deliveries: callbacks.list() };
    case 'resend':
      if (!params.id) throw invalid('id', 'is required');
      return callbacks.resend(params.id);
    case 'trigger': {
      const fields = jsonParam(params, 'fields');
      if (fields !== undefined && (typeof fields !== 'object' || fields === null || Array.isArray(fields)))
        throw invalid('fields', 'must be a JSON object');
      return callbacks.trigger({
        event: params.event ?? '',
        target: params.target ?? '',
        fields: fields as Record<string, unknown> | undefined,
      });
    }
    case 'faults': {
      const given = ['fail', 'delayMs', 'duplicate', 'outOfOrder'].some((n) => params[n] !== undefined);
      if (!given) return callbacks.deliveries.receiverFaults;
      return callbacks.setFaults({
        fail: numberParam(params, 'fail'),
        delayMs: numberParam(params, 'delayMs'),
        duplicate: flagParam(params, 'duplicate'),
        outOfOrder: flagParam(params, 'outOfOrder'),
      });
    }
    case 'urls': {
      const urls = jsonParam(params, 'urls');
      if (urls !== undefined) callbacks.setUrls(urls as string[]);
      return { urls: callbacks.urls };
    }
  }
}

export function callbacksAdminRoute(
  accounts: ReadonlyMap<string, Account>,
  auth: AuthOptions,
  callbacks: () => PlatformCallbacks | undefined,
): Route {
  return async (req, res, incoming, exchange) => {
    exchange.action = 'callbacks-admin';
    if (!isLoopback(req.socket.remoteAddress ?? '')) {
      throw new HttpFault(403, Codes.requestNotAllowed, 'the callbacks admin route answers loopback clients only');
    }
    if (incoming.method !== 'GET' && incoming.method !== 'POST') {
      throw new HttpFault(405, Codes.parameterInvalid, 'method must be GET or POST', { Allow: 'GET, POST' });
    }
    const verb = incoming.path.slice(CALLBACKS_ADMIN_PATH.length) as Verb;
    if (!VERBS.includes(verb)) {
      throw new HttpFault(404, Codes.apiNotExists, `the callbacks admin verbs are ${VERBS.join(', ')}`);
    }
    const body = await withBodyDeadline(readBody(req, MAX_BODY_BYTES), BODY_TIMEOUT_MS);
    const { pairs, params } = parseRequest(incoming.url, req.headers['content-type'], body, false);
    const account = authenticate(pairs, accounts, auth, Date.now());
    if (params.action !== `callbacks.${verb}`) throw invalid('action', `must be callbacks.${verb} on this path`);
    const platformCallbacks = callbacks();
    if (!platformCallbacks) throw new HttpFault(503, Codes.exception, 'the callbacks are not running');
    const result = run(verb, params, platformCallbacks.of(account.accessKey));
    exchange.code = Codes.success;
    send(res, 200, success({ result }));
  };
}
