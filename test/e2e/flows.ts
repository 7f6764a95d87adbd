// What a media engineer does with the extension in a fresh VS Code, step by step, against the local platform
// with demo data. The flows build on each other (the account added in one is used by the next), as one session.
import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_NAMES } from '../../src/localPlatform/demo';
import type { Flow, FlowContext } from './runFlows';

const ACCOUNT_NAME = 'Local e2e';
export const TEMPLATE_GROUP_FILE = 'ladder.templategroup.json';

/**
 * The folder the workbench opens: a template group with two mistakes, one its schema states (type 3 does not
 * exist) and one only the extension's rules see (the second template repeats the first one's name and format).
 */
export function writeWorkspace(folder: string): void {
  mkdirSync(folder, { recursive: true });
  const group = {
    name: 'Ladder with a mistake',
    type: 3,
    trailor: false,
    trailorDuration: 0,
    logoGroupId: 0,
    transcodeTemplates: [
      { name: '720p', videoWidth: 1280, videoHeight: 720, videoBitrate: 2500, audioBitrate: 128000, format: 0, encryptType: 0, defaultVideo: 1 },
      { name: '720p', videoWidth: 1280, videoHeight: 720, videoBitrate: 1800, audioBitrate: 128000, format: 0, encryptType: 0, defaultVideo: 0 },
    ],
  };
  writeFileSync(join(folder, TEMPLATE_GROUP_FILE), JSON.stringify(group, null, 2) + '\n');
}

async function channelRow(ctx: FlowContext, name: string) {
  const pane = await ctx.wb.expandPane('Live Channels');
  const row = ctx.wb.treeRow(pane, name);
  if (!(await row.isVisible().catch(() => false))) {
    // Channels may be grouped by category: open the collapsed groups until the channel shows.
    const collapsed = pane.locator('.monaco-list-row[aria-expanded="false"]');
    for (let i = 0; i < 10 && !(await row.isVisible().catch(() => false)) && (await collapsed.count()) > 0; i++) {
      await collapsed.first().locator('.monaco-tl-twistie').click();
      await ctx.wb.page.waitForTimeout(300);
    }
  }
  await row.waitFor({ state: 'visible', timeout: 20_000 });
  return row;
}

async function expectRowText(row: ReturnType<FlowContext['wb']['treeRow']>, pattern: RegExp, what: string, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < deadline) {
    text = (await row.innerText().catch(() => '')).replace(/\s+/g, ' ');
    if (pattern.test(text)) return text;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what}: the row shows "${text}", expected ${pattern}`);
}

export const flows: Flow[] = [
  {
    name: 'open the Video Platform view and see how to begin',
    async run(ctx) {
      await ctx.wb.openActivity('Video Platform');
      const pane = await ctx.wb.expandPane('Live Channels');
      const welcome = pane.locator('.welcome-view-content');
      await welcome.waitFor({ state: 'visible', timeout: 30_000 });
      const text = await welcome.innerText();
      assert.match(text, /No Video Platform account/);
      assert.match(text, /Add Account/);
      assert.match(text, /Local Platform/);
      await ctx.shot('welcome view');
    },
  },
  {
    name: 'add the local platform as an account from the welcome view',
    async run(ctx) {
      const pane = await ctx.wb.expandPane('Live Channels');
      await pane.locator('.welcome-view-content .monaco-button, .welcome-view-content a').filter({ hasText: 'Add Account' }).first().click();
      await ctx.wb.answerInput(/Account name/, ACCOUNT_NAME);
      // A wrong address is refused in the box itself, naming the rule, before anything is saved.
      await ctx.wb.answerInput(/Platform base URL/, 'not a url');
      await ctx.wb.waitForQuickInputText(/Base URL must be an absolute address/);
      await ctx.shot('bad base URL refused');
      await ctx.wb.retypeInput(ctx.platform.baseUrl);
      await ctx.wb.answerInput(/Access key/, ctx.platform.accessKey);
      const widget = ctx.wb.page.locator('.quick-input-widget');
      await widget.locator('input[type="password"]').waitFor({ state: 'visible', timeout: 15_000 });
      await widget.locator('input').first().fill(ctx.platform.secretKey);
      await ctx.shot('secret key typed, masked');
      assert.equal((await widget.innerText()).includes(ctx.platform.secretKey), false, 'the secret key shows in clear text');
      await ctx.wb.page.keyboard.press('Enter');
      await ctx.wb.notification(new RegExp(`Connected to "${ACCOUNT_NAME}"`));
      await ctx.shot('connected');
    },
  },
  {
    name: 'see the demo channels and videos',
    async run(ctx) {
      for (const name of [DEMO_NAMES.channels.live, DEMO_NAMES.channels.stopped, DEMO_NAMES.channels.fresh]) await channelRow(ctx, name);
      await expectRowText(await channelRow(ctx, DEMO_NAMES.channels.live), /Live/, 'live demo channel');
      const videos = await ctx.wb.expandPane('Videos');
      for (const title of ['Welcome tour', 'Raw upload', 'Broken encode']) {
        await ctx.wb.treeRow(videos, title).waitFor({ state: 'visible', timeout: 20_000 });
      }
      await ctx.shot('channels and videos');
    },
  },
  {
    name: 'start a stopped channel from its row',
    async run(ctx) {
      const row = await channelRow(ctx, DEMO_NAMES.channels.stopped);
      await expectRowText(row, /Stopped/, 'before starting');
      await ctx.wb.rowAction(row, 'Start Channel');
      await expectRowText(row, /Live/, 'after starting');
      await ctx.shot('channel live');
    },
  },
  {
    name: 'stop a live channel after confirming',
    async run(ctx) {
      const row = await channelRow(ctx, DEMO_NAMES.channels.stopped);
      await ctx.wb.rowAction(row, 'Stop Channel');
      const dialog = await ctx.wb.dialog(new RegExp(`Stop live channel "${DEMO_NAMES.channels.stopped}"`));
      await ctx.shot('confirm stop');
      await ctx.wb.clickDialogButton(dialog, /^Stop$/);
      await expectRowText(row, /Stopped/, 'after stopping');
      await ctx.shot('channel stopped');
    },
  },
  {
    name: 'open a template group with a mistake and see it in the Problems panel',
    async run(ctx) {
      await ctx.wb.openFile(TEMPLATE_GROUP_FILE);
      await ctx.shot('file open');
      // As soon as the file is open: VS Code's own check of the schema, and the extension's rule (source
      // "Video Platform"), each problem once.
      const onOpen = (await ctx.wb.problems(/transcodeTemplates\[1\]\.name repeats the name "720p".*Video Platform/, 30_000)).replace(/\s+/g, ' ');
      ctx.log(`Problems panel on open: ${onOpen.slice(0, 400)}`);
      assert.match(onOpen, /0 \(normal\) or 1 \(VR\)/);
      assert.equal(onOpen.match(/0 \(normal\) or 1 \(VR\)/g)?.length, 1, 'the schema problem is listed more than once while editing');
      await ctx.shot('problems on open');
      await ctx.wb.runCommand('Video Platform: Validate Document');
      await ctx.wb.notification(/template group document has 2 errors/);
      // Validate reports the full verdict of ajv: the schema problem now also from the extension.
      const problems = await ctx.wb.problems(/type: Use 0 \(normal\) or 1 \(VR\).*Video Platform/, 30_000);
      ctx.log(`Problems panel after Validate: ${problems.replace(/\s+/g, ' ').slice(0, 400)}`);
      await ctx.shot('problems panel');
    },
  },
  {
    name: 'transcode an uploaded video and see it finish',
    timeoutMs: 120_000,
    async run(ctx) {
      await ctx.wb.openActivity('Video Platform');
      const videos = await ctx.wb.expandPane('Videos');
      const row = ctx.wb.treeRow(videos, 'Raw upload');
      await row.waitFor({ state: 'visible', timeout: 20_000 });
      await ctx.wb.rowContextAction(row, /Transcode Videos/);
      await ctx.wb.pick(DEMO_NAMES.templateGroups.standard);
      await ctx.wb.pick(/Replace/);
      await ctx.wb.notification(/Transcoding .*accepted/);
      await ctx.shot('transcode accepted');
      await ctx.wb.notification(/Transcoding finished "Raw upload"/, 60_000);
      // The row follows: done, with the renditions underneath.
      await expectRowText(row, /Transcoded/, 'the video after its transcode finished', 15_000);
      await ctx.shot('transcode finished');
    },
  },
  {
    name: 'switch to the local platform that runs inside VS Code, from the command palette',
    timeoutMs: 120_000,
    async run(ctx) {
      await ctx.wb.runCommand('Video Platform: Connect to Local Platform');
      await ctx.wb.notification(/Connected to the local platform at http:\/\/127\.0\.0\.1:\d+/, 60_000);
      const status = await ctx.wb.statusBarText();
      assert.ok(!status.includes(ACCOUNT_NAME), `the status bar still names the earlier account: ${status}`);
      await ctx.wb.openActivity('Video Platform');
      // Its own demo data, fresh: the channel stopped earlier on the other platform is "Stopped" here too,
      // and the video transcoded there is still only uploaded here.
      await channelRow(ctx, DEMO_NAMES.channels.live);
      const videos = await ctx.wb.expandPane('Videos');
      await expectRowText(ctx.wb.treeRow(videos, 'Raw upload'), /Uploaded/, 'the built-in platform\'s own copy of the demo video');
      await ctx.shot('built-in local platform');
    },
  },
];
