/**
 * Shared set-up of the local platform tests: a platform on 127.0.0.1 (port 0) over a temporary
 * data folder, the project's client for it, and raw signed HTTP for the carriage variants the
 * client never produces (form bodies, multipart, absolute-form request lines, ...).
 */
import * as assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors';
import { signParams } from '../../src/api/signing';
import {
  startLocalPlatform,
  type LocalPlatform,
  type LocalPlatformOptions,
  type PlatformAccount,
} from '../../src/localPlatform/server';

export const ACCOUNT: PlatformAccount = { accessKey: 'lp-test-key-1', secretKey: 'lp-Secret-One-9f8e7d' };
export const OTHER: PlatformAccount = { accessKey: 'lp-test-key-2', secretKey: 'lp-Secret-Two-1a2b3c' };

export async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'local-platform-test-'));
}

export async function removeDir(dir: string | undefined): Promise<void> {
  if (dir) await rm(dir, { recursive: true, force: true });
}

/** One platform + a client per account, torn down by `close()`. */
export class TestPlatform {
  private clients: PlatformClient[] = [];

  private constructor(
    readonly platform: LocalPlatform,
    readonly dataDir: string,
    readonly ownsDir: boolean,
  ) {}

  static async start(options: Partial<LocalPlatformOptions> = {}, dataDir?: string): Promise<TestPlatform> {
    const dir = dataDir ?? (await tempDir());
    const platform = await startLocalPlatform({
      dataDir: dir,
      accounts: [ACCOUNT, OTHER],
      host: '127.0.0.1',
      port: 0,
      clockSpeed: 1000,
      ...options,
    });
    return new TestPlatform(platform, dir, dataDir === undefined);
  }

  client(account: PlatformAccount = ACCOUNT): PlatformClient {
    const client = new PlatformClient({
      baseUrl: this.platform.baseUrl,
      accessKey: account.accessKey,
      secretKey: account.secretKey,
      retry: { attempts: 1 },
    });
    this.clients.push(client);
    return client;
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map((c) => c.close()));
    this.clients = [];
    await this.platform.close();
    if (this.ownsDir) await removeDir(this.dataDir);
  }
}

export interface RawOptions {
  account?: PlatformAccount;
  method?: 'GET' | 'POST' | 'PUT';
  /** Where the signed parameters travel. */
  placement?: 'query' | 'form' | 'multipart';
  /** Parameters that travel in the body but are signed too (query+form merge). */
  formExtra?: Record<string, string>;
  body?: string | Buffer;
  contentType?: string;
  /** Change the signed parameters after signing (tampering tests). */
  tamper?: (params: Record<string, string>) => void;
  /** Skip the common parameters entirely. */
  bare?: boolean;
  path?: string;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: { code: number; message: string; result: unknown; success: boolean; count?: number };
}

export function signed(
  action: string,
  params: Record<string, string>,
  account: PlatformAccount = ACCOUNT,
): Record<string, string> {
  const all: Record<string, string> = {
    accessKey: account.accessKey,
    action,
    version: '2.0',
    timestamp: String(Date.now()),
    ...params,
  };
  all.signature = signParams(all, account.secretKey);
  return all;
}

export function multipartBody(fields: Record<string, string>, boundary: string): Buffer {
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return Buffer.from(`${parts.join('')}--${boundary}--\r\n`, 'utf8');
}

/** A signed request over plain node:http. */
export function raw(
  p: TestPlatform,
  action: string,
  params: Record<string, string> = {},
  o: RawOptions = {},
): Promise<RawAnswer> {
  const all = o.bare ? { ...params } : signed(action, { ...params, ...(o.formExtra ?? {}) }, o.account);
  o.tamper?.(all);
  let query = all;
  let body: string | Buffer | undefined = o.body;
  let contentType = o.contentType;
  if (o.formExtra && !o.placement) {
    query = { ...all };
    for (const name of Object.keys(o.formExtra)) delete query[name];
    body = new URLSearchParams(o.formExtra).toString();
    contentType ??= 'application/x-www-form-urlencoded';
  }
  if (o.placement === 'form') {
    query = {};
    body = new URLSearchParams(all).toString();
    contentType ??= 'application/x-www-form-urlencoded';
  } else if (o.placement === 'multipart') {
    query = {};
    body = multipartBody(all, 'XyZ-boundary-42');
    contentType ??= 'multipart/form-data; boundary=XyZ-boundary-42';
  }
  const qs = new URLSearchParams(query).toString();
  const path = `${o.path ?? '/rest'}${qs ? `?${qs}` : ''}`;
  return send(p.platform.port, o.method ?? (body !== undefined ? 'POST' : 'GET'), path, body, contentType);
}

export function send(
  port: number,
  method: string,
  path: string,
  body?: string | Buffer,
  contentType?: string,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {};
    if (contentType) headers['content-type'] = contentType;
    if (body !== undefined) headers['content-length'] = Buffer.byteLength(body);
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: RawAnswer['json'];
        try {
          json = JSON.parse(text) as RawAnswer['json'];
        } catch {
          json = { code: -1, message: text, result: null, success: false };
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Sends raw bytes on a fresh socket and returns everything the server answered. */
export function rawSocket(port: number, bytes: string | Buffer, waitMs = 2000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (error) => {
      clearTimeout(timer);
      if (chunks.length > 0) resolve(Buffer.concat(chunks).toString('utf8'));
      else reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}

/** Awaits a rejection with an ApiError of `code` whose platform message contains every `parts` text. */
export async function apiError(promise: Promise<unknown>, code: number, ...parts: string[]): Promise<ApiError> {
  let error: unknown;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  assert.ok(
    error instanceof ApiError,
    `expected an ApiError ${code}, got ${error === undefined ? 'success' : String(error)}`,
  );
  assert.equal(error.code, code, `code of: ${error.platformMessage}`);
  for (const part of parts)
    assert.ok(error.platformMessage.includes(part), `"${error.platformMessage}" should mention "${part}"`);
  return error;
}

/** Asserts an error envelope with `code` whose message contains every part. */
export function assertFault(answer: RawAnswer, code: number, ...parts: string[]): void {
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.json.code, code, answer.text);
  assert.equal(answer.json.success, false);
  assert.equal(answer.json.result, null);
  for (const part of parts)
    assert.ok(answer.json.message.includes(part), `"${answer.json.message}" should mention "${part}"`);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
