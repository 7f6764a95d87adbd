// The local platform as a test double in the workbench (issue 26): a stream fault injected into the demo's test
// pattern from its row (the row says so, and the fault can be cleared from the same menu), then the platform's
// callbacks to a receiver on 127.0.0.1 set in Edit Account, seen in the Callbacks view and opened. It connects to
// the local platform inside VS Code itself, so it runs on its own.
import { strict as assert } from 'node:assert';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEMO_NAMES } from '../../src/localPlatform/demo/demo';
import { awayFromTooltips, channelRow, connectLocalPlatform, expectRowText } from './rows';
import type { Flow, FlowContext } from './runFlows';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A back end's callback receiver, as a user would run one: answers 200 and keeps what it got. */
async function startReceiver(): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/platform-callbacks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function injectAndClear(ctx: FlowContext): Promise<void> {
  const { wb } = ctx;
  const row = await channelRow(ctx, DEMO_NAMES.channels.pattern);
  await expectRowText(row, /Live/, 'the test pattern live', 60_000);
  await awayFromTooltips(ctx);
  await wb.rowContextAction(row, /^Inject Stream Fault/);
  await wb.pick(/playlist-stall/);
  await expectRowText(row, /stream faults/, 'the row marked after the fault was injected', 30_000);
  await ctx.shot('stream fault injected');
  await awayFromTooltips(ctx);
  await wb.rowContextAction(row, /^Clear Stream Faults/);
  await wb.until(
    'the mark to go once the faults are cleared',
    async () => (/stream faults/.test(await row.innerText().catch(() => 'stream faults')) ? undefined : true),
    30_000,
  );
  await ctx.shot('stream faults cleared');
}

async function setCallbackUrl(ctx: FlowContext, url: string): Promise<void> {
  const { wb } = ctx;
  await wb.runCommand('Video Platform: Edit Account...');
  await wb.pick(/Local platform/);
  await wb.pick(/Callback URLs/);
  await wb.answerInput(/Callback URLs/, url);
}

async function startAndStop(ctx: FlowContext): Promise<void> {
  const { wb } = ctx;
  const row = await channelRow(ctx, DEMO_NAMES.channels.stopped);
  await expectRowText(row, /Stopped/, 'before starting', 30_000);
  await wb.rowAction(row, 'Start Channel');
  await expectRowText(row, /Live|Pulling/, 'after starting', 60_000);
  await wb.rowAction(row, 'Stop Channel');
  await wb.clickDialogButton(await wb.dialog(/Stop live channel/), /^Stop$/);
  await expectRowText(row, /Stopped/, 'after stopping', 60_000);
}

export const testDoubleFlow: Flow = {
  name: 'inject a stream fault from a channel row and clear it; see the callbacks of a channel start and open one',
  timeoutMs: 300_000,
  async run(ctx) {
    const { wb } = ctx;
    await connectLocalPlatform(ctx);
    await injectAndClear(ctx);

    const receiver = await startReceiver();
    try {
      await setCallbackUrl(ctx, receiver.url);
      await startAndStop(ctx);
      await wb.until('the receiver to get the channel status callbacks', async () =>
        receiver.received.length >= 2 ? true : undefined,
      );
      const first = receiver.received[0]!;
      assert.match(String(first.headers['x-callback-signature']), /^sha256=[0-9a-f]{64}$/, 'a signed delivery');
      const body = JSON.parse(first.body) as { channelId?: string; channelStatus?: number };
      assert.ok(body.channelId && typeof body.channelStatus === 'number', `the documented fields: ${first.body}`);

      const pane = await wb.expandPane('Callbacks');
      const delivery = wb.treeRow(pane, /channel-status · HTTP 200/);
      await wb.until(
        'a delivered channel-status row in the Callbacks view',
        async () => {
          if (await delivery.isVisible().catch(() => false)) return true;
          await wb.viewTitleAction(pane, 'Refresh Callbacks').catch(() => undefined);
          return undefined;
        },
        30_000,
      );
      await ctx.shot('callbacks view');
      await delivery.click();
      // The top of the delivery's document (the body may be below the fold when the panel is open).
      const editor = wb.editorText();
      await wb.until(
        'the delivery opened with its request headers',
        async () =>
          /channel-status[\s\S]*x-callback-signature/.test(await editor.innerText({ timeout: 1_000 }).catch(() => ''))
            ? true
            : undefined,
        20_000,
      );
      ctx.log(`delivery: ${(await editor.innerText()).replace(/\s+/g, ' ').slice(0, 300)}`);
      await ctx.shot('callback delivery opened');
      await wb.runCommand('View: Close All Editors');
      await wb.setExpanded(pane.locator('.pane-header').first(), false).catch(() => undefined);
    } finally {
      await receiver.close();
    }
  },
};
