/**
 * The Callbacks view and its commands, through compose() with a scripted Ui, against the local platform the
 * extension starts (demo data) and a receiver on 127.0.0.1: Edit Account's Callback URLs, Trigger..., the
 * deliveries as tree items, Open (read-only body and headers), Resend, Set Receiver Faults..., the secret.
 */
import * as assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectLocalPlatform, editAccount } from '../../src/app/accounts/accountCommands';
import {
  copyCallbackSecret,
  openCallbackDelivery,
  resendCallback,
  setCallbackFaults,
  triggerCallback,
} from '../../src/app/commands/callbackActions';
import { DeliveryNode } from '../../src/app/callbacks/callbackTree';
import { accountDir } from '../../src/localPlatform/accounts';
import { eventually } from '../helpers/eventually';
import { createHarness, type Harness } from './helpers/harness';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from './helpers/platform';
import { choose, chooseMany, type } from './helpers/scriptedUi';

describe('Callbacks view (local platform callbacks)', () => {
  let storageDir: string;
  let harness: Harness | undefined;
  let receiver: Server;
  let hook: string;
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];

  before(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (c: string) => (body += c));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  beforeEach(async () => {
    storageDir = await mkdtemp(join(tmpdir(), 'callbacks-view-'));
    received.length = 0;
  });
  afterEach(async () => {
    await harness?.dispose();
    harness = undefined;
    await rm(storageDir, { recursive: true, force: true });
  });
  after(async () => {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  async function rows(h: Harness): Promise<DeliveryNode[]> {
    return (await h.ctx.models.callbacks.getChildren()).filter((n): n is DeliveryNode => n instanceof DeliveryNode);
  }

  it('sets the callback URLs in Edit Account, triggers a callback, lists it, opens it read-only and resends it', async function () {
    this.timeout(60_000);
    harness = await createHarness({ storageDir });
    const h = harness;
    await h.run(connectLocalPlatform);
    // Before any URL: the view says how to set one.
    assert.match(String((await h.ctx.models.callbacks.getChildren())[0]?.view().label), /No callback URL is set/);

    // A URL the platform refuses is refused by name, and nothing is saved.
    h.ui.script(choose('Local platform'), choose('Callback URLs'), type('ftp://127.0.0.1/hook'));
    await h.run(editAccount);
    assert.match(h.ui.errors.at(-1) ?? '', /ftp:\/\/127\.0\.0\.1\/hook must be an http:\/\/ or https:\/\/ address/);
    assert.deepEqual(h.host.callbackSettings.urls, []);
    h.ui.script(choose('Local platform'), choose('Callback URLs'), type(hook));
    await h.run(editAccount);
    assert.deepEqual(h.host.callbackSettings.urls, [hook], 'saved in the setting');

    // Trigger...: event, a channel of the account, fields (channelStatus as it is, streamStatus 2).
    h.ui.script(choose('channel-status'), choose('Town hall'), choose('As it is'), choose('2'));
    await h.run(triggerCallback);
    await eventually('the triggered callback', () => received.length === 1);
    const body = JSON.parse(received[0].body) as Record<string, unknown>;
    assert.equal(body.streamStatus, 2);
    assert.equal(body.channelStatus, 0, 'Town hall is new: its own status');
    assert.match(h.ui.infos.at(-1) ?? '', /^Sent channel-status cb_[0-9a-f]{16}: /);

    const [row] = await eventually('the delivery row', async () => {
      const list = await rows(h);
      return list.length === 1 && list;
    });
    const view = row.view();
    assert.equal(view.contextValue, 'callbackDelivery+delivered');
    assert.match(view.label, /^channel-status · HTTP 200$/);
    assert.match(view.description ?? '', new RegExp(`attempt 1 · \\d+ ms · ${hook}$`));

    await h.run(openCallbackDelivery, { node: row });
    const opened = h.editor.readOnly.at(-1)!;
    assert.equal(opened.name, `callback-${row.delivery.id}.json`);
    const shown = JSON.parse(opened.text) as { request: { headers: Record<string, string>; body: unknown } };
    assert.deepEqual(shown.request.body, body);
    assert.equal(shown.request.headers['x-callback-signature'], received[0].headers['x-callback-signature']);

    await h.run(resendCallback, { node: row });
    await eventually('the resent callback', () => received.length === 2);
    assert.equal(received[1].body, received[0].body);
    assert.equal(received[1].headers['x-callback-id'], received[0].headers['x-callback-id']);
  });

  it('sets receiver faults, and copies the signing secret into secret storage without showing it', async function () {
    this.timeout(60_000);
    harness = await createHarness({ storageDir, callbackUrls: [hook] });
    const h = harness;
    const accountId = (await h.run(connectLocalPlatform))!;
    h.ui.script(chooseMany('Send each delivery twice'));
    const faults = await h.run(setCallbackFaults);
    assert.deepEqual(faults, { fail: 0, delayMs: 0, duplicate: true, outOfOrder: false });
    h.ui.script(choose('transcode'), choose('Welcome tour'), choose('3'));
    await h.run(triggerCallback);
    await eventually('the delivery and its duplicate', () => received.length === 2);
    assert.equal(received[0].body, received[1].body);
    assert.equal(JSON.parse(received[0].body).status, 3);

    // The counted faults ask their number in their range, offered from what is set now.
    h.ui.script(chooseMany('Fail the next attempts', 'Delay each delivery'), type('2'), type('1500'));
    assert.deepEqual(await h.run(setCallbackFaults), { fail: 2, delayMs: 1500, duplicate: false, outOfOrder: false });
    const asked = h.ui.asked.filter((q) => q.kind === 'input').slice(-2);
    assert.deepEqual(
      asked.map((q) => [q.input?.prompt, q.input?.value, q.input?.validate?.('0')]),
      [
        ['How many attempts count as failed (1 to 100)', '1', 'fail must be from 1 to 100'],
        ['Delay in milliseconds (1 to 60000)', '1000', 'delayMs must be from 1 to 60000'],
      ],
    );
    h.ui.script(chooseMany());
    assert.deepEqual(await h.run(setCallbackFaults), { fail: 0, delayMs: 0, duplicate: false, outOfOrder: false });

    await h.run(copyCallbackSecret);
    const profile = h.store.get(accountId)!;
    const secret = (
      await readFile(
        join(accountDir(join(storageDir, 'local-platform'), profile.accessKey), 'callbacks', 'secret'),
        'utf8',
      )
    ).trim();
    assert.equal(h.ui.copied.at(-1), secret);
    assert.equal(await h.store.callbackSecret(accountId), secret);
    assert.ok(!h.ui.infos.join('\n').includes(secret), 'never shown');
    const { headers, body } = received[0];
    const expected =
      'sha256=' + createHmac('sha256', secret).update(`${headers['x-callback-timestamp']}.${body}`).digest('hex');
    assert.equal(headers['x-callback-signature'], expected, 'the copied secret verifies the deliveries');
  });

  it('says that callbacks come from the local platform when another account is active', async () => {
    let platform: TestPlatform | undefined;
    try {
      platform = await startTestPlatform();
      harness = await createHarness({
        account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
      });
      const [node] = await harness.ctx.models.callbacks.getChildren();
      assert.match(node.view().label, /Callbacks are sent by the local platform/);
      assert.equal(harness.ctx.localPlatform.isRunning, false, 'the view did not start the local platform');
    } finally {
      await platform?.close();
    }
  });
});
