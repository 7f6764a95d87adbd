// Channel Health in the workbench (issue 28): the local platform inside VS Code, its demo push channel fed by an
// encoder as a user runs one (640x360 at 25 fps, a keyframe every 2 s), Channel Health opened from the channel's
// row; the panel shows the pushed source's resolution and frame rate, a rendition's newest segment age and the
// charts. It connects to the local platform inside VS Code itself, so it runs on its own.
import { strict as assert } from 'node:assert';
import { DEMO_NAMES } from '../../src/localPlatform/demo/demo';
import {
  awayFromTooltips,
  channelRow,
  connectLocalPlatform,
  copyPushAddress,
  expectRowText,
  pushTestPattern,
  webviewFrame,
} from './rows';
import type { Flow } from './runFlows';

export const healthFlow: Flow = {
  name: 'see a pushed channel in the Channel Health panel: the source, a rendition segment age, the charts',
  timeoutMs: 300_000,
  async run(ctx) {
    const { wb } = ctx;
    await connectLocalPlatform(ctx);
    const row = await channelRow(ctx, DEMO_NAMES.channels.live);
    await expectRowText(row, /Live.*no source/, 'the push channel, waiting', 60_000);
    const pushUrl = await copyPushAddress(ctx, row);
    const encoder = pushTestPattern(pushUrl, '640x360');
    try {
      await expectRowText(row, /Live · HLS/, 'while the encoder pushes', 60_000);
      await awayFromTooltips(ctx);
      await wb.rowContextAction(row, /^Channel Health/);
      // The figures come from the ingest; a rendition's age once its first segment is written.
      const { frame, text } = await webviewFrame(
        ctx,
        /Resolution\s+640x360[\s\S]*HLS group 1 · 1\s+\S+\s+\S+\s+[\d.]+ s ago/,
        'the Channel Health panel with the source and a rendition',
        90_000,
      );
      ctx.log(`health panel: ${text.replace(/\s+/g, ' ').slice(0, 500)}`);
      assert.match(text, /Channel Health: /);
      assert.match(text, /Frame rate\s+25\.00 fps/);
      assert.match(text, /Keyframe interval\s+2\.00 s \(50 frames\)/);
      assert.match(text, /Source bitrate\s+\d+ kbps/);
      const charts = await frame.locator('svg[role="img"]').count();
      assert.equal(charts, 3, 'the three charts');
      // A chart with a line drawn: at least two readings a few seconds apart.
      await wb.until(
        'a line in the source bitrate chart',
        async () =>
          (await frame.locator('svg[aria-label="Source bitrate (kbps)"] path').count()) > 0 ? true : undefined,
        30_000,
      );
      await ctx.shot('channel health panel');
      await wb.runCommand('View: Close All Editors');
    } finally {
      encoder.kill('SIGKILL');
    }
  },
};
