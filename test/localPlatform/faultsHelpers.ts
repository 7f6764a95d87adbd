/** Shared by the stream fault suites: the `/_local/faults` admin route, signed as a client signs `/rest`. */
import { request } from 'node:http';
import type { PlatformAccount } from '../../src/localPlatform/server';
import { ACCOUNT, signed } from './harness';

export interface AdminAnswer {
  status: number;
  json: { code: number; message: string; success: boolean; result: unknown };
}

/** POSTs a signed form to `/_local/faults` (action list, add or clear). */
export function faultsAdmin(
  baseUrl: string,
  action: string,
  params: Record<string, string> = {},
  account: PlatformAccount = ACCOUNT,
): Promise<AdminAnswer> {
  const body = new URLSearchParams(signed(action, params, account)).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}/_local/faults`,
      { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            json: JSON.parse(Buffer.concat(chunks).toString()) as AdminAnswer['json'],
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Adds a profile's rules to the account; fails the test with the platform's refusal. */
export async function inject(baseUrl: string, profile: unknown[], account: PlatformAccount = ACCOUNT): Promise<void> {
  const answer = await faultsAdmin(baseUrl, 'add', { profile: JSON.stringify(profile) }, account);
  if (!answer.json.success) throw new Error(`inject refused: ${answer.json.message}`);
}

export async function clearFaults(baseUrl: string, account: PlatformAccount = ACCOUNT): Promise<void> {
  const answer = await faultsAdmin(baseUrl, 'clear', {}, account);
  if (!answer.json.success) throw new Error(`clear refused: ${answer.json.message}`);
}
