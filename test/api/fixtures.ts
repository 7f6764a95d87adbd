/** Keys and client set-up shared by the client tests. */
import { inspect } from 'node:util';
import * as assert from 'node:assert/strict';
import { PlatformClient, type ClientOptions } from '../../src/api/client';
import { PlatformError } from '../../src/api/errors';

export const ACCESS_KEY = 'ak-test-0001';
export const SECRET_KEY = 'S3cr3t-Key-For-Client-Tests';

export function makeClient(baseUrl: string, options: Partial<ClientOptions> = {}): PlatformClient {
  return new PlatformClient({ baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY, ...options });
}

/** Awaits a rejection and returns the error, failing when the promise resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('expected the call to fail, but it succeeded');
}

/**
 * A PlatformError whose message names the action and the address, and where neither the message,
 * the stack, nor the full inspected error (cause included) holds the secret or any signature seen.
 */
export function assertCleanError(
  error: unknown,
  action: string,
  restUrl: string,
  signatures: string[] = [],
): asserts error is PlatformError {
  assert.ok(error instanceof PlatformError, `expected a PlatformError, got ${inspect(error)}`);
  assert.equal(error.action, action);
  assert.equal(error.url, restUrl);
  assert.ok(error.message.includes(action), `message names the action: ${error.message}`);
  assert.ok(error.message.includes(restUrl), `message names the address: ${error.message}`);
  const everything = `${error.message}\n${error.stack ?? ''}\n${inspect(error, { depth: 8, showHidden: true })}`;
  assert.ok(!everything.includes(SECRET_KEY), 'the secret key leaked into the error');
  assert.ok(!/signature=[0-9a-f]{8}/.test(everything), 'a query string with the signature leaked into the error');
  for (const signature of signatures) assert.ok(!everything.includes(signature), 'a signature leaked into the error');
}
