/**
 * The `/rest` route: read the body (request.ts), authenticate (auth.ts), dispatch to the action's handler
 * (dispatch.ts), and answer with the envelope once the handler's writes are on disk (answer.ts).
 */
import { Codes } from '../../api/errorCodes';
import { ACTIONS } from '../../api/operations';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Account, ActionContext, ActionHandler } from '../actions/context';
import { Fields } from '../actions/fields';
import type { Origin } from './addresses';
import { HttpFault, readyAnswer, success, write, writeChunks } from './answer';
import { authenticate, type AuthOptions } from './auth';
import { dispatch } from './dispatch';
import { parseRequest, readBody } from './request';
import type { Incoming } from './normalise';
import type { Exchange, Route } from './routes';
import { answerKey, readAnswersOf, storeStamp, type ReadAnswers } from '../store/readAnswers';

/**
 * The reads whose whole answer is kept while the store is unchanged: the two lists, whose answers read only the
 * store, the parameters, the origin and (channels) the live thumbnails, which their JsonList checks again. A read
 * that reads anything else (the clock: getToken) must not be here.
 */
const KEPT_READS: ReadonlySet<string> = new Set(['liveGetChannelsByPage', 'queryVideo']);

export interface RestOptions {
  accounts: ReadonlyMap<string, Account>;
  auth: AuthOptions;
  maxBodyBytes: number;
  bodyTimeoutMs: number;
  /** The addresses answers are composed against, for the host name the client used. */
  originOf: (hostName: string | undefined) => Origin;
}

/** liveCreateChannel and liveUpdate carry their definition as a JSON body (facts section 2). */
function takesJsonBody(action: string): boolean {
  return (ACTIONS as Record<string, { jsonBody?: boolean } | undefined>)[action]?.jsonBody === true;
}

const NO_BODY = Buffer.alloc(0);

/**
 * A `/rest` body that has not arrived in time is answered with HTTP 408 and the connection closed (the rest of
 * it is not read). Bodies there are small: a slow one is a stuck or hostile client.
 */
export async function withBodyDeadline<T>(reading: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new HttpFault(408, Codes.exception, `the request body did not arrive within ${ms / 1000} s`, {
            Connection: 'close',
          }),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([reading, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The request's kept answer, when its read keeps one: where it is looked up and put (readAnswers.ts). */
interface Keeping {
  answers: ReadAnswers;
  key: string;
  stamp: number;
}

/** Runs the handler and answers once its writes are on disk; a list read's answer is kept for the next ask. */
async function answerByHandler(
  res: ServerResponse,
  handler: ActionHandler,
  context: ActionContext,
  exchange: Exchange,
  keeping: Keeping | undefined,
): Promise<void> {
  const outcome = await handler(context);
  const { store } = context.account;
  // Never answer with data that is not yet on disk.
  await store.durable();
  exchange.code = Codes.success;
  if (!keeping) {
    write(res, 200, readyAnswer(success(outcome)));
    return;
  }
  // Joined for itself and kept when there is room, else written as its chunks.
  const { key, stamp } = keeping;
  const answer = keeping.answers.answer(key, stamp, context.view.origin, success(outcome), storeStamp(store));
  if ('chunks' in answer) writeChunks(res, 200, answer);
  else write(res, 200, answer);
}

export function restRoute(options: RestOptions): Route {
  /** After the body: parse, authenticate, dispatch, then the kept answer (nothing returned) or the handler's. */
  const serve = (
    req: IncomingMessage,
    res: ServerResponse,
    incoming: Incoming,
    exchange: Exchange,
    body: Buffer,
    jsonAction: boolean,
  ): Promise<void> | void => {
    const parsed = parseRequest(incoming, req.headers['content-type'], body, jsonAction);
    const { pairs } = parsed;
    exchange.action = pairs.get('action') ?? '-';
    const now = Date.now();
    const account = authenticate(pairs, options.accounts, options.auth, now);
    // Checked present by authenticate.
    const action = pairs.get('action')!;
    const handler = dispatch(action);
    const origin = options.originOf(incoming.hostName);
    const { store } = account;
    // A list read asked again with nothing changed: its kept answer, after the checks above, with no promise made.
    let keeping: Keeping | undefined;
    if (KEPT_READS.has(action)) {
      const answers = readAnswersOf(store);
      const key = answerKey(pairs.names, pairs.values, incoming.hostName);
      const stamp = storeStamp(store);
      const ready = answers.find(key, stamp, origin);
      if (ready) {
        exchange.code = Codes.success;
        write(res, 200, ready);
        return;
      }
      keeping = { answers, key, stamp };
    }
    const context: ActionContext = {
      params: new Fields(parsed.params),
      body: takesJsonBody(action) ? parsed.json : undefined,
      account,
      view: { store, userId: account.userId, origin, liveThumbnail: account.live?.thumbnail },
      now,
    };
    return answerByHandler(res, handler, context, exchange, keeping);
  };
  return (req, res, incoming, exchange) => {
    if (incoming.method !== 'GET' && incoming.method !== 'POST') {
      throw new HttpFault(405, Codes.parameterInvalid, `method must be GET or POST (got ${incoming.method || '?'})`, {
        Allow: 'GET, POST',
      });
    }
    // A request with neither Content-Length nor Transfer-Encoding has no body (RFC 9112 6.3): nothing to wait
    // for, so no deadline timer (Node drains such a request itself once answered).
    const bodiless = req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined;
    if (bodiless) return serve(req, res, incoming, exchange, NO_BODY, false);
    const jsonAction = takesJsonBody(incoming.searchParams.get('action') ?? '');
    return withBodyDeadline(readBody(req, options.maxBodyBytes), options.bodyTimeoutMs).then((body) =>
      serve(req, res, incoming, exchange, body, jsonAction),
    );
  };
}
