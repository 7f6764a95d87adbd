/**
 * Reads a started channel's health from a local platform: the signed, loopback-only route
 * `/_local/health/channel` (src/localPlatform/http/health.ts). Only an account whose address is on this machine is
 * asked (the bundled platform or one started with `npm run platform`); a real platform has no such route, and it is
 * never sent one. Plain node:http: the address is loopback, so no proxy applies.
 */
import { request } from 'node:http';
import { signParams } from '../../api/signing';
import type { ChannelHealth } from '../../localPlatform/live/health';

export type { ChannelHealth, RenditionHealth, SourceFigures } from '../../localPlatform/live/health';

export interface HealthTarget {
  readonly baseUrl: string;
  readonly accessKey: string;
  readonly secretKey: string;
}

const PATH = '/_local/health/channel';
const ACTION = 'localChannelHealth';
/** Bounds of one read: the answer is a few hundred bytes per rendition. */
const TIMEOUT_MS = 5_000;
const MAX_BYTES = 256 * 1024;

/** An http address on this machine (127.0.0.0/8, localhost, [::1]): where a local platform can run. */
export function isLocalAddress(baseUrl: string): boolean {
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== 'http:') return false;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
  } catch {
    return false;
  }
}

/** The platform's answer: the health, or an Error with the platform's message (not started, unknown channel). */
export function readChannelHealth(
  target: HealthTarget,
  channelId: string,
  signal?: AbortSignal,
): Promise<ChannelHealth> {
  if (!isLocalAddress(target.baseUrl)) {
    return Promise.reject(
      new Error('channel health is measured by a local platform only (its address is on this machine)'),
    );
  }
  const params: Record<string, string> = {
    accessKey: target.accessKey,
    action: ACTION,
    version: '2.0',
    timestamp: String(Date.now()),
    channelId,
  };
  params.signature = signParams(params, target.secretKey);
  const base = new URL(target.baseUrl);
  const url = new URL(`${base.origin}${PATH}?${new URLSearchParams(params).toString()}`);
  return new Promise((resolve, reject) => {
    const timeout = AbortSignal.timeout(TIMEOUT_MS);
    const req = request(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BYTES) req.destroy(new Error(`the health answer is larger than ${MAX_BYTES} bytes`));
        else chunks.push(chunk);
      });
      res.on('error', reject);
      res.on('end', () => {
        try {
          resolve(readAnswer(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')));
        } catch (error) {
          reject(error as Error);
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

function readAnswer(status: number, text: string): ChannelHealth {
  let envelope: { code?: unknown; message?: unknown; result?: unknown };
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    throw new Error(`the platform answered ${PATH} with HTTP ${status} and no envelope: not a local platform`);
  }
  if (envelope.code !== 0) throw new Error(String(envelope.message ?? `code ${String(envelope.code)}`).slice(0, 300));
  const health = envelope.result as ChannelHealth | null;
  if (!health || typeof health !== 'object' || !Array.isArray(health.renditions)) {
    throw new Error(`the platform's ${PATH} answer has no health`);
  }
  return health;
}
