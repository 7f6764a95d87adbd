// Rows of the extension's views as the flows read them: shared by the flow files.
import { spawn, type ChildProcess } from 'node:child_process';
import { eventually } from '../helpers/eventually';
import type { Frame } from 'playwright-core';
import type { FlowContext } from './runFlows';

export async function channelRow(ctx: FlowContext, name: string) {
  const pane = await ctx.wb.expandPane('Live Channels');
  const row = ctx.wb.treeRow(pane, name);
  // Channels may be grouped by category: open the collapsed groups until the channel shows.
  const collapsed = pane.locator('.monaco-list-row[aria-expanded="false"]');
  let opened = 0;
  await ctx.wb.until(
    `the channel "${name}" to show`,
    async () => {
      if (await row.isVisible().catch(() => false)) return true;
      const group =
        opened < 10
          ? await collapsed
              .first()
              .elementHandle({ timeout: 1_000 })
              .catch(() => null)
          : null;
      if (group) {
        opened++;
        await (await group.$('.monaco-tl-twistie'))?.click();
        await ctx.wb.within(1_000, async () => (await group.getAttribute('aria-expanded')) !== 'false');
      }
      return undefined;
    },
    20_000,
  );
  return row;
}

export async function expectRowText(
  row: ReturnType<FlowContext['wb']['treeRow']>,
  pattern: RegExp,
  what: string,
  timeoutMs = 20_000,
): Promise<string> {
  let text = '';
  return eventually(
    what,
    async () => {
      text = (await row.innerText().catch(() => '')).replace(/\s+/g, ' ');
      return pattern.test(text) ? text : undefined;
    },
    timeoutMs,
  ).catch(() => {
    throw new Error(`${what}: the row shows "${text}", expected ${pattern}`);
  });
}

/** Moves the pointer off the views, so that a row's hover (its tooltip) does not cover the next click. */
export async function awayFromTooltips(ctx: FlowContext): Promise<void> {
  await ctx.wb.page.mouse.move(800, 300);
  await ctx.wb.page.keyboard.press('Escape');
  await ctx.wb.within(2_000, async () => (await ctx.wb.page.locator('.monaco-hover:visible').count()) === 0);
}

/** Opens the extension's view container (as a user finds it; it activates the extension) and connects the sandbox. */
export async function connectLocalPlatform(ctx: FlowContext): Promise<void> {
  await ctx.wb.openActivity('Video Platform');
  await ctx.wb.clearNotifications();
  await ctx.wb.runCommand('Video Platform: Connect to Local Platform');
  await ctx.wb.notification(/Connected to the local platform at http:\/\/127\.0\.0\.1:\d+/, 60_000);
}

/** The browser's clipboard, where the workbench's "copy" writes (reading it needs the permission). */
export async function readClipboard(page: FlowContext['wb']['page']): Promise<string> {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
  return (await page.evaluate('navigator.clipboard.readText()')) as string;
}

/** Copy Push Address from a channel row's menu, as a user does: the address, read from the clipboard. */
export async function copyPushAddress(
  ctx: FlowContext,
  row: ReturnType<FlowContext['wb']['treeRow']>,
): Promise<string> {
  await ctx.wb.clearNotifications();
  await awayFromTooltips(ctx);
  await ctx.wb.rowContextAction(row, /Copy Push Address/);
  await ctx.wb.notification(/Copied the push address of .* \(it contains the auth code\)/);
  return (await readClipboard(ctx.wb.page)).trim();
}

/** An encoder pushing a test pattern with sound to `pushUrl`, as a user would with ffmpeg (2 s keyframes). */
export function pushTestPattern(pushUrl: string, size: string): ChildProcess {
  return spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25`],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100', '-t', '200'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '50', '-c:a', 'aac'],
      ...['-f', 'flv', pushUrl],
    ],
    { stdio: 'ignore' },
  );
}

/** The webview frame (a report or panel) whose page says `pattern`, once one does, and its text. */
export async function webviewFrame(
  ctx: FlowContext,
  pattern: RegExp,
  what: string,
  timeoutMs: number,
): Promise<{ frame: Frame; text: string }> {
  return ctx.wb.until(
    what,
    async () => {
      for (const frame of ctx.wb.page.frames()) {
        const text = await frame
          .locator('body')
          .innerText({ timeout: 500 })
          .catch(() => '');
        if (pattern.test(text)) return { frame, text };
      }
      return undefined;
    },
    timeoutMs,
  );
}
