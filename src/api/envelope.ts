/**
 * Reading the response envelope (interface section 2.1): an object with a numeric `code` and a
 * boolean `success`; `code` other than 0 becomes an ApiError with the table's explanation.
 */
import { Codes, explainCode } from './errorCodes';
import { ApiError, TransportError } from './errors';
import { maskSignatures } from './signing';
import type { Envelope } from './types';

export interface EnvelopeContext {
  action: string;
  url: string;
  /** Texts that must never reach a message (the secret key), scrubbed from body excerpts. */
  scrub: readonly string[];
  /** Added to the message of a garbled answer (a POST may have been carried out all the same). */
  note?: string;
}

/** Parses and checks the envelope; throws TransportError (not-json, bad-envelope) or ApiError. */
export function readEnvelope(text: string, context: EnvelopeContext): Envelope<unknown> {
  const { action, url } = context;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const what = text.trim() === '' ? 'an empty body' : `text that is not JSON (${excerpt(text, context.scrub)})`;
    throw new TransportError('not-json', `${action}: ${url} answered with ${what}${context.note ?? ''}`, action, url, {
      cause: error,
    });
  }
  if (!isRecord(value) || typeof value.code !== 'number' || typeof value.success !== 'boolean') {
    throw new TransportError(
      'bad-envelope',
      `${action}: ${url} answered with JSON that is not the platform's envelope (an object with a numeric "code" and a boolean "success")${context.note ?? ''}`,
      action,
      url,
    );
  }
  const platformMessage = typeof value.message === 'string' ? value.message : '';
  if (value.code !== Codes.success) {
    // A server that echoes the request back must not put the signature (or the secret) in an error.
    throw new ApiError(action, url, value.code, scrubbed(platformMessage, context.scrub), explainCode(value.code));
  }
  if (!value.success) {
    throw new TransportError(
      'bad-envelope',
      `${action}: ${url} answered code ${Codes.success} with "success": false, which the platform never sends${context.note ?? ''}`,
      action,
      url,
    );
  }
  const envelope: Envelope<unknown> = {
    code: value.code,
    message: platformMessage,
    result: value.result,
    success: true,
  };
  if (typeof value.count === 'number') envelope.count = value.count;
  return envelope;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text with the scrubbed texts and anything signature-like masked. */
function scrubbed(text: string, scrub: readonly string[]): string {
  for (const secret of scrub) if (secret && text.includes(secret)) text = text.split(secret).join('***');
  return maskSignatures(text);
}

/** The first characters of a body, on one line, with the scrubbed texts masked. */
function excerpt(text: string, scrub: readonly string[]): string {
  const short = scrubbed(text.replace(/\s+/g, ' ').trim(), scrub);
  return JSON.stringify(short.length > 80 ? `${short.slice(0, 80)}…` : short);
}

type ResultContext = Pick<EnvelopeContext, 'action' | 'url' | 'note'>;

/** A list result; `null` (unset, facts section 3) reads as an empty list. */
export function expectArray<T>(result: unknown, context: ResultContext): T[] {
  if (result === null || result === undefined) return [];
  if (!Array.isArray(result)) throw badResult(context, 'a list');
  return result as T[];
}

/** A record result (a channel, a template, ...). */
export function expectRecord<T>(result: unknown, context: ResultContext): T {
  if (!isRecord(result)) throw badResult(context, 'a record');
  return result as T;
}

function badResult(context: ResultContext, expected: string): TransportError {
  const { action, url } = context;
  return new TransportError(
    'bad-envelope',
    `${action}: ${url} answered with a "result" that is not ${expected}${context.note ?? ''}`,
    action,
    url,
  );
}
