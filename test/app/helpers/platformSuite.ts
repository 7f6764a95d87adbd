/**
 * The usual set-up of a suite of the app's tests: one local platform with demo data for the suite, a client to it,
 * and a fresh harness (signed in to it) for each test. Call inside `describe`; read the members inside tests.
 */
import { PlatformClient } from '../../../src/api/client';
import { createHarness, type Harness, type HarnessOptions } from './harness';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from './platform';

export interface PlatformSuite {
  readonly platform: TestPlatform;
  readonly client: PlatformClient;
  readonly harness: Harness;
  /** Replaces this test's harness by one with other options (a page size, say), signed in the same way. */
  renewHarness(options: Omit<HarnessOptions, 'account'>): Promise<Harness>;
}

/** `options`: the platform's (a clock speed, say), as startTestPlatform takes them. */
export function platformSuite(options?: Parameters<typeof startTestPlatform>[0]): PlatformSuite {
  let platform: TestPlatform | undefined;
  let client: PlatformClient | undefined;
  let harness: Harness | undefined;
  before(async () => {
    platform = await startTestPlatform(options);
    client = new PlatformClient({ baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
  });
  after(async () => {
    await client?.close();
    await platform?.close();
  });
  const signedIn = (options: Omit<HarnessOptions, 'account'> = {}): Promise<Harness> =>
    createHarness({
      account: { baseUrl: platform!.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
      ...options,
    });
  beforeEach(async () => {
    harness = await signedIn();
  });
  afterEach(async () => harness?.dispose());
  return {
    get platform() {
      return platform!;
    },
    get client() {
      return client!;
    },
    get harness() {
      return harness!;
    },
    async renewHarness(options) {
      await harness?.dispose();
      harness = await signedIn(options);
      return harness;
    },
  };
}
