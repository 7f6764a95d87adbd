/**
 * `/_local/faults`: turns stream faults on and off in a running local platform (the extension's "Inject Stream
 * Fault..." for a platform started on its own). Not a `/rest` action: `/rest` stays the real platform's
 * interface. Signed like `/rest` (the common parameters and the account's keys, http/auth.ts), answered with the
 * same envelope, and served to loopback clients only. `action` is one of:
 *   list                    the account's injected rules, the file's rules, and the ids of the items they hit
 *   add     profile=<JSON>  adds rules (a profile: a JSON array of rules) to the account's
 *   clear   [target=<t>]    removes the account's injected rules naming `target` (all without it)
 */
import { isIP } from 'node:net';
import { Codes } from '../../api/errorCodes';
import type { Account } from '../actions/context';
import { HttpFault, send, success } from '../http/answer';
import { authenticate, type AuthOptions } from '../http/auth';
import { PlatformFault } from '../http/faults';
import { parseRequest, readBody } from '../http/request';
import type { RouteEntry } from '../http/routes';
import type { FaultBoard } from './board';
import { parseProfile, ProfileError } from './profile';

export const FAULTS_ADMIN_PATH = '/_local/faults';

/** A profile travels as form text: 64 KiB is hundreds of rules (at most 100 are taken). */
const MAX_BODY_BYTES = 64 * 1024;

function loopback(address: string | undefined): boolean {
  const a = (address ?? '').replace(/^::ffff:/, '');
  return a === '::1' || (isIP(a) === 4 && a.startsWith('127.'));
}

export function faultsAdminRoute(
  board: FaultBoard,
  accounts: ReadonlyMap<string, Account>,
  auth: AuthOptions,
): RouteEntry {
  return {
    path: (path) => path === FAULTS_ADMIN_PATH || path === `${FAULTS_ADMIN_PATH}/`,
    async serve(req, res, incoming, exchange) {
      exchange.action = 'faults';
      if (!loopback(req.socket.remoteAddress)) {
        throw new HttpFault(403, Codes.requestNotAllowed, `${FAULTS_ADMIN_PATH} answers loopback clients only`);
      }
      if (incoming.method !== 'GET' && incoming.method !== 'POST') {
        throw new HttpFault(405, Codes.parameterInvalid, 'method must be GET or POST', { Allow: 'GET, POST' });
      }
      const body = await readBody(req, MAX_BODY_BYTES);
      const { pairs, params } = parseRequest(incoming.url, req.headers['content-type'], body, false);
      const account = authenticate(pairs, accounts, auth, Date.now());
      const result = act(board, account, params);
      exchange.code = Codes.success;
      send(res, 200, success({ result }));
    },
  };
}

function act(board: FaultBoard, account: Account, params: Record<string, string>): unknown {
  const listed = () => ({ ...board.list(account.accessKey), activeItems: board.activeItems(account.accessKey) });
  switch (params.action) {
    case 'list':
      return listed();
    case 'add': {
      if (!params.profile)
        throw new PlatformFault(Codes.parameterMissing, 'profile is required (a JSON array of rules)');
      try {
        board.inject(account.accessKey, parseProfile(params.profile, 'profile'));
      } catch (error) {
        if (error instanceof ProfileError) throw new PlatformFault(Codes.parameterInvalid, error.message);
        throw error;
      }
      return listed();
    }
    case 'clear':
      board.clear(account.accessKey, params.target || undefined);
      return listed();
    default:
      throw new PlatformFault(
        Codes.parameterInvalid,
        `action must be list, add or clear at ${FAULTS_ADMIN_PATH} (got ${String(params.action).slice(0, 40)})`,
      );
  }
}
