/**
 * `GET /_local/health/channel?channelId=...`: a started channel's health (live/health.ts), for the extension's
 * Channel Health panel and tooltips when the platform runs apart from it (`npm run platform`). A local-platform
 * route, not an operation of the interface (the real service has no such thing): signed like `/rest` with the
 * account's keys (the common parameters, `action` = `localChannelHealth`), answered with the same envelope, only to
 * loopback clients, and only about the signing account's own channels.
 */
import { isIP } from 'node:net';
import { Codes } from '../../api/errorCodes';
import type { Account } from '../actions/context';
import { HttpFault, send, success } from './answer';
import { authenticate, type AuthOptions } from './auth';
import { PlatformFault } from './faults';
import { parseRequest } from './request';
import type { Route } from './routes';

const NO_BODY = Buffer.alloc(0);

export const HEALTH_PATH = '/_local/health/channel';
export const HEALTH_ACTION = 'localChannelHealth';

const CHANNEL_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return plain === '::1' || (isIP(plain) === 4 && plain.startsWith('127.'));
}

export function healthRoute(options: { accounts: ReadonlyMap<string, Account>; auth: AuthOptions }): Route {
  return async (req, res, incoming, exchange) => {
    exchange.action = HEALTH_ACTION;
    if (!isLoopback(req.socket.remoteAddress)) {
      throw new HttpFault(403, Codes.requestNotAllowed, `${HEALTH_PATH} answers loopback clients only`);
    }
    if (incoming.method !== 'GET') {
      throw new HttpFault(405, Codes.parameterInvalid, `method must be GET (got ${incoming.method || '?'})`, {
        Allow: 'GET',
      });
    }
    const { pairs, params } = parseRequest(incoming, undefined, NO_BODY, false);
    const account = authenticate(pairs, options.accounts, options.auth, Date.now());
    if (params.action !== HEALTH_ACTION) {
      throw new PlatformFault(Codes.parameterInvalid, `action must be ${HEALTH_ACTION} on ${HEALTH_PATH}`);
    }
    const channelId = params.channelId ?? '';
    if (!channelId) throw new PlatformFault(Codes.parameterMissing, 'channelId is required');
    if (!CHANNEL_ID.test(channelId)) {
      throw new PlatformFault(Codes.parameterInvalid, 'channelId must be 1-64 letters, digits, _ or -');
    }
    if (!account.store.get('channels', channelId)) {
      throw new PlatformFault(Codes.channelNotExists, `channelId ${channelId} is not a channel of this account`);
    }
    const health = await account.live?.health(channelId);
    if (!health) {
      throw new PlatformFault(
        Codes.channelStateConflict,
        account.live
          ? `channel ${channelId} is not started: health is measured while it runs`
          : 'live media is simulated on this platform: there is no ingest to measure',
      );
    }
    exchange.code = Codes.success;
    send(res, 200, success({ result: health }));
  };
}
