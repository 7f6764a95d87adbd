/**
 * Answering: the platform's envelope `{code, message, result, success}` (rest-interface section 6),
 * HTTP 200 for every answer of the interface, another status only for what is not a REST call at
 * all (wrong path, method, host or origin, unreadable HTTP).
 */
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { Codes } from '../../api/errorCodes';
import type { ActionOutcome } from '../actions/context';
import { PlatformFault } from './faults';
import { joinedAnswer, type Answer, type ChunkedAnswer } from '../store/answerCache';

export interface Envelope {
  code: number;
  message: string;
  result: unknown;
  success: boolean;
  count?: number;
}

/** A refusal answered with an HTTP status other than 200 (and optional extra headers). */
export class HttpFault extends PlatformFault {
  constructor(
    readonly status: number,
    code: number,
    detail: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(code, detail);
  }
}

export function failure(fault: PlatformFault): Envelope {
  return { code: fault.code, message: fault.message, result: null, success: false };
}

export function success(outcome: ActionOutcome): Envelope {
  const envelope: Envelope = { code: Codes.success, message: 'success', result: outcome.result, success: true };
  if (outcome.count !== undefined) envelope.count = outcome.count;
  return envelope;
}

/** No headers besides the page's own (most answers): its raw headers are written as they are. */
const NO_EXTRA: Readonly<Record<string, string>> = {};

/**
 * The envelope's body and headers, ready to write: one buffer, as a bare server writes it. (The list reads, whose
 * results are ready JSON of unchanged records, keep their joined answers in store/readAnswers.ts.)
 */
export function readyAnswer(envelope: Envelope): Answer {
  return joinedAnswer(envelope);
}

/** Writes a ready answer as a bare server does: raw headers, one buffer. */
export function write(res: ServerResponse, status: number, answer: Answer): void {
  if (res.headersSent) return;
  res.writeHead(status, answer.headers as string[]);
  res.end(answer.body);
}

/**
 * Writes an answer as its chunks, corked into one write: for a list read's answer that is not kept
 * (store/readAnswers.ts), so that no joined copy is made to be dropped at once.
 */
export function writeChunks(res: ServerResponse, status: number, answer: ChunkedAnswer): void {
  if (res.headersSent) return;
  res.writeHead(status, answer.headers as string[]);
  res.cork();
  for (const chunk of answer.chunks) res.write(chunk);
  // end() uncorks: the headers and every chunk go out together.
  res.end();
}

export function send(
  res: ServerResponse,
  status: number,
  envelope: Envelope,
  extra: Readonly<Record<string, string>> = NO_EXTRA,
): void {
  const answer = readyAnswer(envelope);
  if (extra === NO_EXTRA) {
    write(res, status, answer);
    return;
  }
  if (res.headersSent) return;
  // A refusal with headers of its own (Allow, Connection): rare, so an object is made to merge them.
  const headers: Record<string, string> = {};
  for (let i = 0; i < answer.headers.length; i += 2) headers[answer.headers[i]] = answer.headers[i + 1];
  res.writeHead(status, { ...headers, ...extra });
  res.end(answer.body);
}

/** Answers a refusal: its own status for an HttpFault, 200 otherwise. */
export function sendFault(res: ServerResponse, fault: PlatformFault, close = false): void {
  const status = fault instanceof HttpFault ? fault.status : 200;
  const own = fault instanceof HttpFault ? fault.headers : NO_EXTRA;
  send(res, status, failure(fault), close ? { ...own, Connection: 'close' } : own);
}

/** Answers on a raw socket (the HTTP parser refused the request) and closes it. */
export function sendOnSocket(socket: Duplex, statusLine: string, fault: PlatformFault): void {
  const body = JSON.stringify(failure(fault));
  socket.end(
    `HTTP/1.1 ${statusLine}\r\nContent-Type: application/json;charset=UTF-8\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
