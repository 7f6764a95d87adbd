// Signed calls to the local platform over node:http, so the suite can check what the extension did there
// (a channel started, a group created). Deliberately not the project's undici client: this bundle must not
// load undici, or the global-dispatcher check could not see what the extension itself does.
import { request } from 'node:http';
import { signParams } from '../../src/api/signing';

export interface Credentials {
  baseUrl: string;
  accessKey: string;
  secretKey: string;
}

export function platformCall<T>(
  credentials: Credentials,
  action: string,
  method: 'GET' | 'POST',
  params: Record<string, string> = {},
): Promise<T> {
  const signed: Record<string, string> = {
    ...params,
    accessKey: credentials.accessKey,
    action,
    version: '2.0',
    timestamp: String(Date.now()),
  };
  signed.signature = signParams(signed, credentials.secretKey);
  const url = new URL('/rest', credentials.baseUrl);
  for (const [name, value] of Object.entries(signed)) url.searchParams.set(name, value);
  return new Promise((resolve, reject) => {
    const req = request(url, { method, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        try {
          const envelope = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            code: number;
            message: string;
            result: T;
          };
          if (envelope.code !== 0) reject(new Error(`${action}: ${envelope.code} ${envelope.message}`));
          else resolve(envelope.result);
        } catch (error) {
          reject(error);
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${action}: no answer within 10 s`)));
    req.on('error', reject);
    req.end();
  });
}
