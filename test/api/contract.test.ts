/**
 * The operation contract (src/api/operations) is the one place of each operation's rules: the
 * client's methods, the local platform's handlers and what each refuses all come from it. Checked
 * over real HTTP against the local platform on 127.0.0.1.
 */
import * as assert from 'node:assert/strict';
import { PlatformClient, type RequestLogEntry } from '../../src/api/client';
import { Codes } from '../../src/api/errorCodes';
import { ApiError, InvalidInputError } from '../../src/api/errors';
import { OPERATIONS } from '../../src/api/operations';
import { HANDLERS } from '../../src/localPlatform/http/dispatch';
import { ACCOUNT, TestPlatform } from '../localPlatform/harness';

describe('the operation contract', function () {
  this.timeout(30_000);
  let platform: TestPlatform;
  let client: PlatformClient;
  const sent: RequestLogEntry[] = [];

  before(async () => {
    platform = await TestPlatform.start();
    client = new PlatformClient({
      baseUrl: platform.platform.baseUrl,
      accessKey: ACCOUNT.accessKey,
      secretKey: ACCOUNT.secretKey,
      onRequest: (entry) => sent.push(entry),
    });
  });
  after(async () => {
    await client?.close();
    await platform?.close();
  });

  it('names every operation once: a client method and a local handler for each, nothing else', () => {
    const actions = Object.keys(OPERATIONS).sort();
    assert.deepEqual(Object.keys(HANDLERS).sort(), actions);
    for (const [action, op] of Object.entries(OPERATIONS)) {
      assert.equal(op.action, action);
      assert.equal(typeof (client as unknown as Record<string, unknown>)[action], 'function', action);
    }
  });

  it("refuses on the platform by the contract's limits, naming the field and the rule", async () => {
    const { width } = OPERATIONS.liveLogoCreate.params;
    const logo = { name: 'Corner', uri: 'logo.png', width: 100, height: 50, offsetWidth: 0, offsetHeight: 0 };
    await assert.rejects(
      client.liveLogoCreate({ ...logo, width: width.max + 1 }),
      (error: unknown) =>
        error instanceof ApiError &&
        error.code === Codes.parameterInvalid &&
        error.platformMessage.includes(`width must be between ${width.min} and ${width.max}`),
    );
    const created = await client.liveLogoCreate({ ...logo, width: width.max });
    assert.equal(created.width, width.max);
  });

  it('answers an enum outside the contract with the code the contract names for it', async () => {
    const { sort } = OPERATIONS.queryVideo.params;
    await assert.rejects(
      client.queryVideo({ start: 1, number: 5, sort: 'length' as never, order: 'asc' }),
      (error: unknown) =>
        error instanceof ApiError && error.code === sort.code && error.platformMessage.includes(sort.oneOf.join(', ')),
    );
  });

  it('refuses in the client what the contract marks for the client, and sends nothing', async () => {
    const before = sent.length;
    await assert.rejects(
      client.queryVideo({ start: 0, number: 5, sort: 'title', order: 'asc' }),
      (error: unknown) => error instanceof InvalidInputError && error.field === 'start',
    );
    await assert.rejects(
      client.liveGetChannelById(' padded '),
      (error: unknown) => error instanceof InvalidInputError && error.field === 'id',
    );
    assert.equal(sent.length, before, 'no request went out');
  });
});
