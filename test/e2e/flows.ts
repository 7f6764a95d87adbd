// What a media engineer does with the extension in a fresh VS Code, step by step, against the local platform
// with demo data. The flows build on each other (the account added in one is used by the next), as one session.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_NAMES } from '../../src/localPlatform/demo/demo';
import { bulkChannelName, bulkVideoTitle } from './largeAccount';
import { configsFlow } from './configsFlow';
import { resourceFlows } from './resourceFlows';
import { healthFlow } from './healthFlow';
import {
  awayFromTooltips,
  channelRow,
  copyPushAddress,
  expectRowText,
  pushTestPattern,
  readClipboard,
  webviewFrame,
} from './rows';
import { testDoubleFlow } from './testDoubleFlow';
import type { Flow, FlowContext } from './runFlows';

const ACCOUNT_NAME = 'Local e2e';
const LARGE_ACCOUNT_NAME = 'Large e2e';
const CATEGORY_NAME = 'E2E studio shows';
export const HAND_WRITTEN_FILE = 'studio.channel.json';
const HAND_WRITTEN_CHANNEL = 'Hand-written studio';
const WIZARD_CHANNEL = 'Wizard studio';
export const TEMPLATE_GROUP_FILE = 'ladder.templategroup.json';
const LADDER_LAB_FILE = 'lab.templategroup.json';
/** A ladder for Evaluate Template Group: its top rung is above the built-in clip's 720p. */
const LADDER_LAB_GROUP = {
  name: 'E2E ladder',
  type: 0,
  trailor: false,
  trailorDuration: 0,
  logoGroupId: 0,
  transcodeTemplates: [
    ['180p', 320, 180, 300, 0],
    ['360p', 640, 360, 900, 1],
    ['1080p', 1920, 1080, 3000, 0],
  ].map(([name, videoWidth, videoHeight, videoBitrate, defaultVideo]) => ({
    name,
    videoWidth,
    videoHeight,
    videoBitrate,
    audioBitrate: 96000,
    format: 0,
    encryptType: 0,
    defaultVideo,
  })),
};

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
      {
        name: '720p',
        videoWidth: 1280,
        videoHeight: 720,
        videoBitrate: 2500,
        audioBitrate: 128000,
        format: 0,
        encryptType: 0,
        defaultVideo: 1,
      },
      {
        name: '720p',
        videoWidth: 1280,
        videoHeight: 720,
        videoBitrate: 1800,
        audioBitrate: 128000,
        format: 0,
        encryptType: 0,
        defaultVideo: 0,
      },
    ],
  };
  writeFileSync(join(folder, TEMPLATE_GROUP_FILE), JSON.stringify(group, null, 2) + '\n');
}

/** A workspace file as saved on disk, once it parses and `ready` accepts it (a save takes a moment). */
function savedJson<T>(ctx: FlowContext, name: string, ready: (doc: T) => boolean): Promise<T> {
  return ctx.wb.until(`${name} saved`, async () => {
    const doc = JSON.parse(readFileSync(join(ctx.workspace, name), 'utf8')) as T;
    return ready(doc) ? doc : undefined;
  });
}

/** The text of the webview (report panel) whose page says `pattern`, once one does. */
async function webviewText(ctx: FlowContext, pattern: RegExp, what: string, timeoutMs: number): Promise<string> {
  return (await webviewFrame(ctx, pattern, what, timeoutMs)).text;
}

/**
 * Runs Inspect Stream on a row until its report panel says `pattern`: a stream whose files are still being
 * made (the demo's media, made in the background) fails with a notification first, and is asked again.
 */
async function inspectUntil(
  ctx: FlowContext,
  row: ReturnType<FlowContext['wb']['treeRow']>,
  pattern: RegExp,
  what: string,
  timeoutMs: number,
): Promise<string> {
  return ctx.wb.until(
    what,
    async () => {
      await ctx.wb.clearNotifications();
      await ctx.wb.rowContextAction(row, /^Inspect Stream$/);
      return webviewText(ctx, pattern, what, 45_000).catch(() => undefined);
    },
    timeoutMs,
  );
}

/** The demo video whose renditions the flows inspect and preview, opened, and its 720p rendition row. */
async function demoRendition(ctx: FlowContext, videos: Awaited<ReturnType<FlowContext['wb']['expandPane']>>) {
  const video = ctx.wb.treeRow(videos, 'Match highlights');
  await video.waitFor({ state: 'visible', timeout: 20_000 });
  await ctx.wb.setExpanded(video, true);
  const rendition = ctx.wb.treeRow(videos, /720p.*1280x720/);
  // The tree draws only the rows in sight: with the side bar's other views (a live channel left open above, the
  // Resources and Configuration Plan headers below) the renditions can be under the pane's edge. Scroll the
  // Videos tree with the wheel, as a user would, until the row is there.
  await ctx.wb.until(
    'the 720p rendition of the demo video in sight',
    async () => {
      if (await rendition.isVisible()) return true;
      await video.hover();
      await ctx.wb.page.mouse.wheel(0, 120);
      return undefined;
    },
    20_000,
  );
  return rendition;
}

/**
 * Hovers a row until its tooltip shows a picture that loaded (naturalWidth > 0; a broken image has 0), and returns
 * its natural width. The picture can come a while after the row (a live channel's first thumbnail).
 */
async function tooltipPicture(
  ctx: FlowContext,
  row: ReturnType<FlowContext['wb']['treeRow']>,
  what: string,
  timeoutMs: number,
): Promise<number> {
  return ctx.wb.until(
    `${what}: a picture in its tooltip`,
    async () => {
      await awayFromTooltips(ctx);
      await row.hover();
      // The tooltip's Markdown picture, by its alt text (whichever hover widget the workbench shows it in).
      const picture = ctx.wb.page.locator('img[alt="still"]:visible').first();
      if (!(await ctx.wb.within(5_000, () => picture.isVisible()))) return undefined;
      // A picture that did not load (a broken image) has no natural width.
      const natural = (): Promise<number> =>
        picture.evaluate((img) => {
          const loaded = img as unknown as { complete: boolean; naturalWidth: number };
          return loaded.complete ? loaded.naturalWidth : 0;
        });
      const loaded = await ctx.wb.within(5_000, async () => (await natural()) > 0);
      if (!loaded) return undefined;
      const source = (await picture.getAttribute('src')) ?? '';
      assert.match(source, /^data:image\/jpeg;base64,/, 'the picture is embedded, not an http: address');
      return natural();
    },
    timeoutMs,
  );
}

/** The state of the preview webview's <video> (readyState, currentTime, error), where a webview holds one. */
async function previewVideo(ctx: FlowContext): Promise<{
  frame: ReturnType<FlowContext['wb']['page']['mainFrame']>;
  readyState: number;
  time: number;
  error: number;
}> {
  return ctx.wb.until(
    'the preview webview with its video',
    async () => {
      for (const frame of ctx.wb.page.frames()) {
        const state = (await frame
          .evaluate(
            `(() => { const v = document.getElementById('video'); return v && v.tagName === 'VIDEO' && document.title.startsWith('Preview') ? { readyState: v.readyState, time: v.currentTime, error: v.error ? v.error.code : 0 } : null; })()`,
          )
          .catch(() => null)) as { readyState: number; time: number; error: number } | null;
        if (state) return { frame, ...state };
      }
      return undefined;
    },
    120_000,
  );
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
      await pane
        .locator('.welcome-view-content .monaco-button, .welcome-view-content a')
        .filter({ hasText: 'Add Account' })
        .first()
        .click();
      await ctx.wb.answerInput(/Account name/, ACCOUNT_NAME);
      // A wrong address is refused in the box itself, naming the rule, before anything is saved.
      await ctx.wb.answerInput(/Platform base URL/, 'not a url', { refused: true });
      await ctx.wb.waitForQuickInputText(/Base URL must be an absolute address/);
      await ctx.shot('bad base URL refused');
      await ctx.wb.retypeInput(ctx.platform.baseUrl);
      await ctx.wb.answerInput(/Access key/, ctx.platform.accessKey);
      const widget = ctx.wb.page.locator('.quick-input-widget');
      await widget.locator('input[type="password"]').waitFor({ state: 'visible', timeout: 15_000 });
      await widget.locator('input').first().fill(ctx.platform.secretKey);
      await ctx.shot('secret key typed, masked');
      assert.equal(
        (await widget.innerText()).includes(ctx.platform.secretKey),
        false,
        'the secret key shows in clear text',
      );
      await ctx.wb.page.keyboard.press('Enter');
      await ctx.wb.notification(new RegExp(`Connected to "${ACCOUNT_NAME}"`));
      await ctx.shot('connected');
    },
  },
  {
    name: 'see the demo channels and videos',
    async run(ctx) {
      for (const name of [DEMO_NAMES.channels.live, DEMO_NAMES.channels.stopped, DEMO_NAMES.channels.fresh])
        await channelRow(ctx, name);
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
      // It pulls a source that is not reachable offline: started, and honest that it is still pulling.
      await expectRowText(row, /Live|Pulling/, 'after starting');
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
    name: 'start a channel, push to it, see live with source, inspect it, then no source',
    timeoutMs: 300_000,
    async run(ctx) {
      // The demo's push channel (the stopped one pulls its source): live and waiting for an encoder;
      // stopped first, so that the flow starts it.
      const row = await channelRow(ctx, DEMO_NAMES.channels.live);
      await expectRowText(row, /Live.*no source/, 'before stopping', 60_000);
      await ctx.wb.rowAction(row, 'Stop Channel');
      const dialog = await ctx.wb.dialog(new RegExp(`Stop live channel "${DEMO_NAMES.channels.live}"`));
      await ctx.wb.clickDialogButton(dialog, /^Stop$/);
      await expectRowText(row, /Stopped/, 'after stopping', 60_000);
      await ctx.wb.rowAction(row, 'Start Channel');
      await expectRowText(row, /Live.*no source/, 'started, before an encoder pushes', 60_000);
      await ctx.shot('live, no source yet');
      await ctx.wb.clearNotifications();
      await ctx.wb.rowContextAction(row, /Copy Push Address/);
      const copied = await (
        await ctx.wb.notification(/Copied the push address of .* \(it contains the auth code\)/)
      ).innerText();
      const pushUrl = (await readClipboard(ctx.wb.page)).trim();
      assert.match(pushUrl, /^rtmp:\/\/[^/]+:\d+\/live\/\w+\?auth=\w+$/);
      // The message (and so this flow's screenshots) names the address without its secret.
      const authCode = /auth=(\w+)/.exec(pushUrl)![1]!;
      assert.ok(!copied.includes(authCode), `the message shows the auth code: ${copied}`);
      // An encoder as a user runs one: a test pattern in real time, for as long as the flow needs it.
      const encoder = spawn(
        'ffmpeg',
        [
          ...['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25'],
          ...['-t', '240', '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '50'],
          ...['-f', 'flv', pushUrl],
        ],
        { stdio: 'ignore' },
      );
      try {
        // No Refresh: the view reads its live channels again by itself while it is visible.
        // The short state word in the row ("Live", the full "Live, source present" in the tooltip).
        await expectRowText(row, /Live · HLS/, 'while the encoder pushes', 60_000);
        await ctx.shot('live, source present');
        // Its tooltip shows the live picture (served over http: by the platform, embedded as data: by the extension:
        // a hover shows no http: image).
        const width = await tooltipPicture(ctx, row, 'the live channel', 60_000);
        ctx.log(`live channel tooltip picture: ${width} px wide (natural)`);
        await ctx.shot('live channel tooltip with its picture');
        await awayFromTooltips(ctx);
        // Inspect the live channel: its HLS ladder, measured while the encoder pushes.
        const report = await inspectUntil(
          ctx,
          row,
          /hls-master, live: (no errors|\d+ error)/,
          'the report of the live channel',
          120_000,
        );
        ctx.log(`live report: ${report.replace(/\s+/g, ' ').slice(0, 300)}`);
        await ctx.shot('live channel inspected');
        await ctx.wb.runCommand('View: Close All Editors');
      } finally {
        encoder.kill('SIGKILL');
      }
      // Left live and waiting, as the demo has it (the next flows read its addresses).
      await expectRowText(row, /Live.*no source/, 'after the encoder stopped', 60_000);
      await ctx.shot('live, no source');
    },
  },
  {
    name: 'open a template group with a mistake and see it in the Problems panel',
    async run(ctx) {
      await ctx.wb.openFile(TEMPLATE_GROUP_FILE);
      await ctx.shot('file open');
      // As soon as the file is open: the schema problem and the rule's, both from the extension (source
      // "Video Platform"; VS Code's JSON check reads the schema copy without checks), each once.
      const onOpen = (
        await ctx.wb.problems(/transcodeTemplates\[1\]\.name repeats the name "720p".*Video Platform/, 30_000)
      ).replace(/\s+/g, ' ');
      ctx.log(`Problems panel on open: ${onOpen.slice(0, 400)}`);
      assert.match(onOpen, /type: Use 0 \(normal\) or 1 \(VR\).*Video Platform/);
      assert.equal(
        onOpen.match(/0 \(normal\) or 1 \(VR\)/g)?.length,
        1,
        'the schema problem is listed more than once while editing',
      );
      await ctx.shot('problems on open');
      await ctx.wb.runCommand('Video Platform: Validate Document');
      await ctx.wb.notification(/template group document has 2 errors/);
      // Validate reports the same problems, still once each.
      const problems = (await ctx.wb.problems(/type: Use 0 \(normal\) or 1 \(VR\).*Video Platform/, 30_000)).replace(
        /\s+/g,
        ' ',
      );
      ctx.log(`Problems panel after Validate: ${problems.slice(0, 400)}`);
      assert.equal(
        problems.match(/0 \(normal\) or 1 \(VR\)/g)?.length,
        1,
        'the schema problem is listed more than once after Validate',
      );
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
    name: 'transcode a video with Save as and see the new copy appear by itself',
    timeoutMs: 120_000,
    async run(ctx) {
      await ctx.wb.openActivity('Video Platform');
      const videos = await ctx.wb.expandPane('Videos');
      const source = 'Welcome tour';
      const row = ctx.wb.treeRow(videos, source);
      await row.waitFor({ state: 'visible', timeout: 20_000 });
      // The demo data has a copy of it already: the new one is one more.
      const copies = async (): Promise<string[]> =>
        (await ctx.wb.rowTexts(videos)).filter((text) => text.includes(`from "${source}"`));
      const before = (await copies()).length;
      await ctx.wb.clearNotifications();
      await ctx.wb.rowContextAction(row, /Transcode Videos/);
      await ctx.wb.pick(DEMO_NAMES.templateGroups.mobile);
      await ctx.wb.pick(/Save as/);
      await ctx.wb.notification(/Transcoding .*accepted/);
      // While it runs: how long so far, in the row.
      await expectRowText(row, /(Queued|Transcoding|Transcoding again)\.\.\. \d+:\d\d/, 'the transcoding row', 15_000);
      await ctx.shot('save as: transcoding, elapsed time in the row');
      // No Refresh: the view lists the copy once the platform made it.
      const after = await ctx.wb.until(
        'the new copy in the list',
        async () => {
          const rows = await copies();
          return rows.length === before + 1 ? rows : undefined;
        },
        60_000,
      );
      for (const text of after)
        assert.match(text, new RegExp(`^${source} ?Transcoded · [\\d:]+ · from "${source}"`), 'a copy row');
      ctx.log(`save-as copies: ${before} before, then ${after.join(' | ')}`);
      await ctx.shot('save as: the new copy listed by itself');
    },
  },
  {
    name: "show a channel's playback addresses, grouped by output group, and copy one",
    async run(ctx) {
      const page = ctx.wb.page;
      await ctx.wb.clearNotifications();
      const row = await channelRow(ctx, DEMO_NAMES.channels.live);
      await ctx.wb.rowContextAction(row, /Show Channel Playback Addresses/);
      const rows = await ctx.wb.quickPickRows(/RTMP output group/);
      ctx.log(`addresses: ${rows.join(' | ')}`);
      assert.equal(await ctx.wb.quickInputTitle(), `Playback addresses of "${DEMO_NAMES.channels.live}"`);
      // One group per output group: the HLS master playlist and its three renditions, then the RTMP relay.
      const hls = rows.findIndex((row) => row.includes('HLS output group'));
      const rtmp = rows.findIndex((row) => row.includes('RTMP output group'));
      assert.ok(hls >= 0 && rtmp > hls, `an HLS group then an RTMP group: ${rows.join(' | ')}`);
      assert.match(
        rows[hls],
        /^Master playlist HLS · all renditions http:\/\/127\.0\.0\.1:\d+\/live\/hls\/\w+\/\w+\.m3u8 HLS output group$/,
      );
      const hlsRows = rows.slice(hls + 1, rtmp);
      assert.deepEqual(
        hlsRows.map((row) => /^\S+ \d+ kbps( \(default\))?/.exec(row)?.[0]),
        ['1920x1080 4000 kbps (default)', '1280x720 2000 kbps', '854x480 800 kbps'],
      );
      for (const [n, row] of hlsRows.entries())
        assert.match(row, new RegExp(`/live/hls/\\w+/\\w+-${n + 1}\\.m3u8( |$)`));
      assert.match(
        rows[rtmp],
        /^Play address RTMP · all renditions rtmp:\/\/127\.0\.0\.1:\d+\/live\/\S+ RTMP output group$/,
      );
      await ctx.shot('addresses by output group');
      await ctx.wb.pick(/1280x720 2000 kbps\s*HLS/);
      await ctx.wb.waitForQuickInputText(/Open in browser/);
      await ctx.wb.pick(/Copy address/);
      const toast = (await (await ctx.wb.notification(/Copied HLS 1280x720 2000 kbps address/)).innerText()).replace(
        /\s+/g,
        ' ',
      );
      const copied = /(http:\/\/\S+\.m3u8)/.exec(toast)?.[1];
      assert.ok(copied, `the notification names no address: ${toast}`);
      assert.match(copied, /-2\.m3u8$/, 'the second rendition of the HLS group');
      assert.equal(await readClipboard(page), copied, 'the clipboard holds the address the notification names');
      await ctx.shot('address copied');

      // The same address from the tree: the channel's output groups, their outputs, and the inline copy action.
      await ctx.wb.clearNotifications();
      await ctx.wb.setExpanded(row, true);
      const pane = await ctx.wb.expandPane('Live Channels');
      const group = ctx.wb.treeRow(pane, /^\s*HLS\s*3 outputs/);
      ctx.log(`HLS group row: ${await expectRowText(group, /3 outputs · recording/, 'the HLS output group row')}`);
      await ctx.wb.setExpanded(group, true);
      const output = ctx.wb.treeRow(pane, /1280x720 2000 kbps/);
      await expectRowText(output, /-2\.m3u8/, 'the output row shows its play address');
      await ctx.shot('output groups and outputs in the tree');
      await ctx.wb.rowAction(output, 'Copy Play Address');
      await ctx.wb.notification(/Copied HLS 1280x720 2000 kbps address/);
      assert.equal(await readClipboard(page), copied, 'the output row copies the same address');
      await ctx.wb.setExpanded(row, false);
    },
  },
  {
    name: "show a transcoded video's playback addresses, grouped by CDN and format, and copy one",
    async run(ctx) {
      const page = ctx.wb.page;
      await ctx.wb.clearNotifications();
      const videos = await ctx.wb.expandPane('Videos');
      const row = ctx.wb.treeRow(videos, 'Match highlights');
      await expectRowText(row, /Transcoded/, 'the transcoded demo video');
      await ctx.wb.rowAction(row, 'Show Video Playback Addresses');
      const rows = await ctx.wb.quickPickRows(/MP4 1280x720/);
      ctx.log(`video addresses: ${rows.join(' | ')}`);
      assert.equal(await ctx.wb.quickInputTitle(), 'Playback addresses of "Match highlights"');
      // The demo renditions: 1080p and 720p (the default), each as HLS and as MP4, under one separator per format.
      assert.deepEqual(
        rows.map((text) => /^(HLS|MP4) \d+x\d+( \(default\))?/.exec(text)?.[0]),
        ['HLS 1920x1080', 'HLS 1280x720 (default)', 'MP4 1920x1080', 'MP4 1280x720 (default)'],
      );
      assert.match(rows[0], /CDN local \(default\) · HLS$/);
      assert.match(rows[2], /CDN local \(default\) · MP4$/);
      assert.match(rows[3], /^MP4 1280x720 \(default\) 720p · \d+ MB http:\/\/127\.0\.0\.1:\d+\/vod\/\S+\.mp4$/);
      await ctx.shot('video addresses by CDN and format');
      await ctx.wb.pick(/MP4 1280x720 \(default\)/);
      await ctx.wb.waitForQuickInputText(/Open in browser/);
      await ctx.wb.pick(/Copy address/);
      const toast = (
        await (await ctx.wb.notification(/Copied MP4 1280x720 address of "Match highlights"/)).innerText()
      ).replace(/\s+/g, ' ');
      const copied = /(http:\/\/\S+\.mp4)/.exec(toast)?.[1];
      assert.ok(copied, `the notification names no address: ${toast}`);
      assert.equal(await readClipboard(page), copied);
      await ctx.shot('video address copied');
    },
  },
  {
    name: 'filter the channels by name, see the filter beside the view title, and clear it',
    async run(ctx) {
      const pane = await ctx.wb.expandPane('Live Channels');
      await ctx.wb.viewTitleAction(pane, 'Filter Channels');
      await ctx.wb.pick(/Search by name\.\.\./);
      await ctx.wb.answerInput(/channel name/, 'stad');
      const rows = await ctx.wb.until('only the matching channel to be listed', async () => {
        const texts = await ctx.wb.rowTexts(pane);
        return texts.length === 1 && texts[0].startsWith(DEMO_NAMES.channels.stopped) ? texts : undefined;
      });
      ctx.log(`filtered: ${rows.join(' | ')}`);
      // Away from the view its title bar shows the filter instead of the action icons.
      await ctx.wb.page.locator('.part.editor').click();
      await ctx.wb.page.mouse.move(900, 600);
      await ctx.wb.until('the filter beside the view title', async () =>
        (await ctx.wb.paneDescription(pane)) === '1 channel · name ~ "stad"' ? true : undefined,
      );
      await ctx.shot('filtered by name');
      await ctx.wb.viewTitleAction(pane, 'Clear Channel Filter');
      await ctx.wb.until('every demo channel to be listed again', async () =>
        (await ctx.wb.rowTexts(pane)).length === 5 ? true : undefined,
      );
      await ctx.wb.until('the total without the filter beside the view title', async () =>
        (await ctx.wb.paneDescription(pane)) === '5 channels' ? true : undefined,
      );
      await ctx.wb.page.locator('.pane-header').filter({ hasText: 'Live Channels' }).hover();
      assert.equal(
        await pane.locator('.pane-header .action-label[aria-label^="Clear Channel Filter"]').count(),
        0,
        'Clear Channel Filter stays offered without a filter',
      );
      await ctx.shot('filter cleared');
    },
  },
  {
    name: "create a channel category from the view's menu and see it when grouped by category",
    async run(ctx) {
      const pane = await ctx.wb.expandPane('Live Channels');
      await ctx.wb.viewMenuAction(pane, /Create Channel Category/);
      await ctx.wb.answerInput(/Name of the new channel category/, CATEGORY_NAME);
      await ctx.wb.notification(new RegExp(`Created channel category "${CATEGORY_NAME}"`));
      // The same name again: refused by the platform, with a message that says why.
      await ctx.wb.runCommand('Video Platform: Create Channel Category');
      await ctx.wb.answerInput(/Name of the new channel category/, CATEGORY_NAME);
      const refusal = await ctx.wb.notificationInCenter(/Create channel category failed/);
      assert.match(
        refusal,
        new RegExp(
          `A channel category with this name already exists\\..*name ${CATEGORY_NAME} is already a channel category`,
        ),
      );
      await ctx.wb.showNotificationsCenter();
      await ctx.shot('duplicate category refused');
      await ctx.wb.closeNotificationsCenter();
      await ctx.wb.clearNotifications();
      await ctx.wb.viewTitleAction(pane, 'Filter Channels');
      await ctx.wb.pick(/Group by category/);
      const category = ctx.wb.treeRow(pane, CATEGORY_NAME);
      await category.waitFor({ state: 'visible', timeout: 20_000 });
      const folders = await ctx.wb.rowTexts(pane);
      for (const name of [...DEMO_NAMES.categories, CATEGORY_NAME, 'No category'])
        assert.ok(folders.includes(name), `no "${name}" folder in ${folders.join(' | ')}`);
      await ctx.wb.setExpanded(category, true);
      await ctx.wb.until('the new category to open empty', async () =>
        (await ctx.wb.rowTexts(pane)).some((text) => /^No channels (yet|in this category)$/.test(text))
          ? true
          : undefined,
      );
      await ctx.shot('new category in the tree');
      await ctx.wb.viewTitleAction(pane, 'Filter Channels');
      await ctx.wb.pick(/Show as one list/);
      await channelRow(ctx, DEMO_NAMES.channels.live);
    },
  },
  {
    name: 'create a channel with the wizard: step counter, Back, a summary, and the new channel revealed',
    async run(ctx) {
      const wb = ctx.wb;
      const pane = await wb.expandPane('Live Channels');
      await wb.viewTitleAction(pane, 'Create Channel');
      await wb.answerInput(/Name of the new channel/, 'Wizard first try');
      await wb.waitForQuickInputText(/2\/6/);
      await ctx.shot('wizard step 2 of 6');
      // Back (the title bar's arrow) asks for the name again, the earlier answer offered.
      await wb.page.locator('.quick-input-widget .codicon-quick-input-back').first().click();
      await wb.waitForQuickInputText(/1\/6/);
      await wb.answerInput(/Name of the new channel/, WIZARD_CHANNEL);
      await wb.pick(/Push/);
      await wb.pick(/No category/);
      // The many-picks come with their defaults checked (HLS; no options; the first template): Enter takes them.
      // (Each is told by its rows: the placeholder is not part of the widget's text.)
      for (const rows of [/RTMP output/, /keep a recording/, /5\/6/]) {
        await wb.waitForQuickInputText(rows);
        await wb.page.keyboard.press('Enter');
      }
      const summary = await wb.quickPickRows(/Create channel/);
      ctx.log(`summary: ${summary.join(' | ')}`);
      assert.ok(
        summary.some((row) => row.startsWith(`Name: ${WIZARD_CHANNEL}`)),
        summary.join(' | '),
      );
      await ctx.shot('wizard summary');
      await wb.pick(new RegExp(`Create channel "${WIZARD_CHANNEL}"`));
      await wb.notification(new RegExp(`Created channel "${WIZARD_CHANNEL}"`), 30_000);
      await channelRow(ctx, WIZARD_CHANNEL);
      await ctx.shot('wizard channel revealed');
    },
  },
  {
    name: 'write a channel file by hand: snippet, id completion, quick fix, then create it on the platform',
    timeoutMs: 120_000,
    async run(ctx) {
      const wb = ctx.wb;
      const page = wb.page;
      await wb.runCommand('View: Close All Editors');
      await wb.newFile(HAND_WRITTEN_FILE);
      // The snippet by its prefix, from the suggestions.
      await page.keyboard.type('vp-channel-h');
      const snippets = await wb.suggestions(/vp-channel-hls/);
      ctx.log(`snippets offered: ${snippets.join(' | ')}`);
      await wb.acceptSuggestion(/vp-channel-hls/);
      // Its placeholders in turn: name, live type (a choice), description, recording (a choice), template id.
      await page.keyboard.type(HAND_WRITTEN_CHANNEL);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Written by hand in the e2e run');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      // At the empty templateId: the account's live templates by name (Ctrl+Space).
      const templates = await wb.suggestions(/^\s*720p\s*[0-9a-f]{32}/);
      ctx.log(`templateId completions: ${templates.join(' | ')}`);
      for (const name of DEMO_NAMES.liveTemplates)
        assert.ok(
          templates.some((text) => text.startsWith(`${name} `)),
          `no "${name}" among ${templates.join(' | ')}`,
        );
      assert.ok(
        templates.every((text) => /[0-9a-f]{32}/.test(text)),
        'each template shows its id beside its name',
      );
      await ctx.shot('template id completion');
      await wb.acceptSuggestion(/^\s*720p\s*[0-9a-f]{32}/);
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+S');
      const written = await savedJson<{
        name: string;
        outputGroupList: Array<{ outputTemplateList: Array<{ templateId: string }> }>;
      }>(
        ctx,
        HAND_WRITTEN_FILE,
        // The file may be saved (auto-save) before the completion: wait for the save that holds the id.
        (doc) =>
          doc.name === HAND_WRITTEN_CHANNEL &&
          /^[0-9a-f]{32}$/.test(doc.outputGroupList?.[0]?.outputTemplateList?.[0]?.templateId ?? ''),
      );
      assert.match(
        written.outputGroupList[0].outputTemplateList[0].templateId,
        /^[0-9a-f]{32}$/,
        'the completion inserted the id',
      );
      await wb.noProblems();
      await ctx.shot('snippet filled in, no problem');

      // A mistake only the extension's rules see with a fix: time shift on, without its duration.
      await wb.editorText().click();
      await wb.replaceInEditor('"isTimeShift": "0"', '"isTimeShift": "1"');
      const problems = (await wb.problems(/time shift is on, so "timeShiftDuration".*Video Platform/)).replace(
        /\s+/g,
        ' ',
      );
      ctx.log(`Problems panel: ${problems.slice(0, 300)}`);
      await ctx.shot('time shift without duration');
      await wb.editorText().click();
      await page.keyboard.press('Control+Home');
      await page.keyboard.press('F8'); // to the problem, as a user following the squiggle
      await page.keyboard.press('Escape');
      const fixes = await wb.quickFixes(/Add "timeShiftDuration"/);
      await ctx.shot('quick fix offered');
      ctx.log(`quick fixes: ${fixes.join(' | ')}`);
      await wb.applyQuickFix(/Add "timeShiftDuration"/);
      await wb.noProblems();
      await page.keyboard.press('Control+S');
      const fixed = await savedJson<{ outputGroupList: Array<Record<string, unknown>> }>(
        ctx,
        HAND_WRITTEN_FILE,
        (doc) => doc.outputGroupList?.[0]?.timeShiftDuration !== undefined,
      );
      assert.equal(fixed.outputGroupList[0].timeShiftDuration, '2');
      assert.equal(fixed.outputGroupList[0].isTimeShift, '1');
      await ctx.shot('fixed');

      // The account line above the document: none yet, set by the first send.
      const lens = page.locator('.editor-group-container.active .codelens-decoration').first();
      await wb.until('the account line before the first send', async () =>
        /No account yet/.test(await lens.innerText().catch(() => '')) ? true : undefined,
      );
      // Create or Update from the editor title: the channel is created, its id written into the file, and the
      // tree shows it selected.
      await wb.clearNotifications();
      await wb.editorTitleAction('Create or Update on the Platform');
      const created = (
        await (await wb.notification(new RegExp(`Created channel "${HAND_WRITTEN_CHANNEL}"`), 30_000)).innerText()
      ).replace(/\s+/g, ' ');
      const id = /\(([0-9a-f]{32})\)/.exec(created)?.[1];
      assert.ok(id, `the notification names no channel id: ${created}`);
      const saved = await savedJson<{ id?: string; name?: string }>(
        ctx,
        HAND_WRITTEN_FILE,
        (doc) => doc.id !== undefined,
      );
      assert.equal(saved.id, id, "the id written into the file is the created channel's");
      assert.equal(saved.name, HAND_WRITTEN_CHANNEL);
      // The account line follows at once, without reopening the file.
      const account = await wb.until('the account line after the first send', async () => {
        const text = await lens.innerText().catch(() => '');
        return new RegExp(`Account: ${ACCOUNT_NAME}`).test(text) ? text : undefined;
      });
      ctx.log(`account line: ${account}`);
      await ctx.shot('account line after the first send');
      const pane = await wb.expandPane('Live Channels');
      const row = wb.treeRow(pane, HAND_WRITTEN_CHANNEL);
      await expectRowText(row, /New · HLS/, 'the created channel in the tree');
      await wb.until(
        'the created channel to be selected in the tree',
        async () => ((await row.getAttribute('aria-selected')) === 'true' ? true : undefined),
        10_000,
      );
      await ctx.shot('created, selected in the tree, id in the file');
      // Its own id, now in the file, is a channel the checks know: no "no channel with id" problem.
      await wb.noProblems();
    },
  },
  {
    name: 'a large account: the first page, Load more, search on the platform, and back',
    timeoutMs: 120_000,
    async run(ctx) {
      const { wb } = ctx;
      const large = ctx.platform.large;
      await wb.runCommand('Video Platform: Add Account');
      await wb.answerInput(/Account name/, LARGE_ACCOUNT_NAME);
      await wb.answerInput(/Platform base URL/, ctx.platform.baseUrl);
      await wb.answerInput(/Access key/, large.accessKey);
      const widget = wb.page.locator('.quick-input-widget');
      await widget.locator('input[type="password"]').waitFor({ state: 'visible', timeout: 15_000 });
      await widget.locator('input').first().fill(large.secretKey);
      await wb.page.keyboard.press('Enter');
      await wb.notification(new RegExp(`Connected to "${LARGE_ACCOUNT_NAME}"`));
      await wb.clearNotifications();
      await wb.openActivity('Video Platform');
      const channels = await wb.expandPane('Live Channels');
      // Newest first: the last channel created opens the list; one page, then "Load more" with the total.
      await expectRowText(
        channels.locator('.monaco-list-row').first(),
        new RegExp(bulkChannelName(large.channels)),
        'the first channel of the large account',
      );
      assert.equal(await wb.topLevelCount(channels), 51, 'one page of 50 channels and a Load more row');
      let more = await wb.scrollToLastRow(channels);
      // The total as the row shows it: thousands separated, like the view description ("1,500").
      const shownTotal = large.channels.toLocaleString('en-US');
      await expectRowText(more, new RegExp(`Load more \\(50 of ${shownTotal}\\)`), 'the Load more row');
      await expectRowText(
        channels.locator('.monaco-list-row').nth(-2),
        new RegExp(bulkChannelName(large.channels - 49)),
        'the last channel of the first page',
      );
      await ctx.shot('first page and Load more');
      await more.click();
      await wb.until('the second page', async () => ((await wb.topLevelCount(channels)) === 101 ? true : undefined));
      more = await wb.scrollToLastRow(channels);
      await expectRowText(more, new RegExp(`Load more \\(100 of ${shownTotal}\\)`), 'Load more after the second page');
      await expectRowText(
        channels.locator('.monaco-list-row').nth(-2),
        new RegExp(bulkChannelName(large.channels - 99)),
        'the last channel of the second page',
      );
      await ctx.shot('second page loaded');

      // A channel far beyond the loaded pages: the search runs on the platform.
      const far = bulkChannelName(7);
      await wb.viewTitleAction(channels, 'Filter Channels');
      await wb.pick(/Search by name\.\.\./);
      await wb.answerInput(/channel name/, far);
      await wb.until(`only "${far}" to be listed`, async () => {
        const texts = await wb.rowTexts(channels);
        return texts.length === 1 && texts[0].startsWith(far) ? true : undefined;
      });
      await wb.page.locator('.part.editor').click();
      await wb.page.mouse.move(900, 600);
      await wb.until('the search beside the view title', async () =>
        (await wb.paneDescription(channels)) === `1 channel · name ~ "${far}"` ? true : undefined,
      );
      await ctx.shot('search beyond the loaded pages');
      await wb.viewTitleAction(channels, 'Clear Channel Filter');
      await wb.until('the first page again', async () =>
        (await wb.topLevelCount(channels)) === 51 ? true : undefined,
      );
      await wb.scrollToFirstRow(channels);

      // Videos: no total from queryVideo, so Load more counts what is shown.
      const videos = await wb.expandPane('Videos');
      await expectRowText(
        videos.locator('.monaco-list-row').first(),
        new RegExp(bulkVideoTitle(large.videos)),
        'the newest video of the large account',
      );
      more = await wb.scrollToLastRow(videos);
      await expectRowText(more, /Load more \(50 shown\)/, "the videos' Load more row");
      await more.click();
      await wb.until('the second page of videos', async () =>
        (await wb.topLevelCount(videos)) === 101 ? true : undefined,
      );
      more = await wb.scrollToLastRow(videos);
      await expectRowText(more, /Load more \(100 shown\)/, "the videos' Load more row after the second page");
      await ctx.shot('videos second page');
      await wb.scrollToFirstRow(videos);

      // Back to the demo account, from the status bar's account switcher.
      await wb.runCommand('Video Platform: Switch Account');
      await wb.pick(ACCOUNT_NAME);
      await wb.until('the status bar to name the demo account again', async () =>
        (await wb.statusBarText()).includes(ACCOUNT_NAME) ? true : undefined,
      );
      await channelRow(ctx, DEMO_NAMES.channels.live);
      assert.ok(
        !(await wb.rowTexts(channels)).some((text) => text.startsWith('Bulk channel')),
        'channels of the large account are still listed',
      );
      await ctx.shot('back on the demo account');
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
      await expectRowText(
        ctx.wb.treeRow(videos, 'Raw upload'),
        /Not transcoded/,
        "the built-in platform's own copy of the demo video",
      );
      await ctx.shot('built-in local platform');
    },
  },
  {
    name: 'push with ffmpeg to a channel of the local platform inside VS Code, see its source, inspect what it plays',
    timeoutMs: 300_000,
    async run(ctx) {
      const { wb } = ctx;
      await wb.openActivity('Video Platform');
      // Live media is real in the built-in platform: its test pattern plays from a loop encoded once.
      const pattern = await channelRow(ctx, DEMO_NAMES.channels.pattern);
      // The short state word in the row: "Live" with a source ("Live, no source" without one).
      await expectRowText(pattern, /Live · HLS/, 'the test pattern of the built-in platform', 60_000);
      assert.ok(!(await wb.statusBarText()).includes('simulated live'), 'the status bar says live is simulated');
      const row = await channelRow(ctx, DEMO_NAMES.channels.live);
      await expectRowText(row, /Live.*no source/, 'the push channel of the built-in platform, waiting', 60_000);
      await ctx.shot('built-in platform live channels');
      const pushUrl = await copyPushAddress(ctx, row);
      assert.match(pushUrl, /^rtmp:\/\/127\.0\.0\.1:\d+\/live\/\w+\?auth=\w+$/);
      ctx.log(`built-in platform push address: ${pushUrl.replace(/auth=\w+/, 'auth=***')}`);
      // The address as copied, pushed to as a user would with ffmpeg (picture and sound).
      const encoder = pushTestPattern(pushUrl, '320x180');
      try {
        await expectRowText(row, /Live · HLS/, 'while the encoder pushes', 60_000);
        await ctx.shot('built-in platform, source present');
        const report = await inspectUntil(
          ctx,
          row,
          /hls-master, live: (no errors|\d+ error)/,
          'the report of the pushed channel of the built-in platform',
          180_000,
        );
        ctx.log(`built-in platform live report: ${report.replace(/\s+/g, ' ').slice(0, 300)}`);
        await ctx.shot('built-in platform channel inspected');
        await wb.runCommand('View: Close All Editors');
      } finally {
        encoder.kill('SIGKILL');
      }
      await expectRowText(row, /Live.*no source/, 'after the encoder stopped', 60_000);
      await ctx.shot('built-in platform, no source again');
    },
  },
  {
    name: 'inspect a demo rendition from the Videos view, and see its report with a contact sheet',
    timeoutMs: 360_000,
    async run(ctx) {
      const { wb } = ctx;
      await wb.openActivity('Video Platform');
      const videos = await wb.expandPane('Videos');
      // The built-in platform makes the demo's media in the background (its videos are transcoded again, into
      // new files): Refresh Videos, as a user would, until the rendition's files are there and its report shows.
      let attempt = 0;
      const report = await wb.until(
        'the report of the demo rendition',
        async () => {
          attempt++;
          // A row's tooltip (the mouse rests on the tree after the context menu) covers the Videos header, and an
          // address prompt may be left from the attempt before: both go first.
          await wb.dismissQuickInput();
          await awayFromTooltips(ctx);
          await wb.clearNotifications();
          await wb.viewTitleAction(videos, 'Refresh Videos');
          const rendition = await demoRendition(ctx, videos);
          ctx.log(`attempt ${attempt}: ${(await rendition.innerText().catch(() => '')).replace(/\s+/g, ' ')}`);
          await awayFromTooltips(ctx);
          await wb.rowContextAction(rendition, /^Inspect Stream$/);
          const outcome = await wb.until(
            'a report or a failure',
            async () => {
              if (
                await wb.page
                  .locator('.notification-toast')
                  .filter({ hasText: /failed/ })
                  .count()
              )
                return 'failed';
              // The tree was refreshed under the open context menu (the platform finishes demo media meanwhile):
              // VS Code then runs the command without its row, and Inspect Stream asks for an address. Again.
              if (
                await wb.page
                  .locator('.quick-input-widget')
                  .filter({ hasText: /Inspect stream/i })
                  .isVisible()
              )
                return 'failed';
              return (await webviewText(ctx, /(hls-media|mp4): (no errors|\d+ error)/, 'report', 1_000).catch(
                () => undefined,
              )) as string | undefined;
            },
            90_000,
          );
          if (outcome !== 'failed') return outcome;
          await wb.runCommand('View: Close All Editors');
          await new Promise((resolve) => setTimeout(resolve, 10_000));
          return undefined;
        },
        320_000,
      );
      ctx.log(`rendition report: ${report.replace(/\s+/g, ' ').slice(0, 300)}`);
      assert.match(report, /Contact sheet/);
      await ctx.shot('demo rendition inspected');
      await wb.runCommand('View: Close All Editors');
    },
  },
  {
    name: 'preview a demo rendition: the webview plays it',
    timeoutMs: 240_000,
    async run(ctx) {
      const { wb } = ctx;
      const videos = await wb.expandPane('Videos');
      const rendition = await demoRendition(ctx, videos);
      await wb.clearNotifications();
      await awayFromTooltips(ctx);
      await wb.rowContextAction(rendition, /^Preview$/);
      const { frame } = await previewVideo(ctx);
      // Muted, as a browser allows playing without a click.
      const started = await frame.evaluate(
        `(() => { const v = document.getElementById('video'); v.muted = true; return v.play().then(() => 'playing', (e) => String(e)); })()`,
      );
      assert.equal(started, 'playing', `the preview did not start: ${String(started)}`);
      const first = await wb.until(
        'the preview to have a picture and a time',
        async () => {
          const state = await previewVideo(ctx);
          assert.equal(state.error, 0, `the video element reports media error ${state.error}`);
          return state.readyState >= 2 && state.time > 0 ? state : undefined;
        },
        60_000,
      );
      await wb.until(
        'the preview time to advance',
        async () => ((await previewVideo(ctx)).time > first.time + 0.5 ? true : undefined),
        30_000,
      );
      ctx.log(`preview playing: readyState ${first.readyState}, at ${first.time.toFixed(2)} s and advancing`);
      await ctx.shot('preview playing');
      await wb.runCommand('View: Close All Editors');
    },
  },
  {
    name: 'see a broken playlist in the Problems panel',
    timeoutMs: 120_000,
    async run(ctx) {
      const { wb } = ctx;
      writeFileSync(join(ctx.workspace, 'broken.m3u8'), '#EXTM3U\n#EXTINF:4,\nseg0.ts\n#EXT-X-ENDLIST\n');
      await wb.openFile('broken.m3u8');
      await wb.problems(/A media playlist needs #EXT-X-TARGETDURATION/, 30_000);
      await ctx.shot('playlist problems');
      // A master playlist without CODECS (issue 25): a warning on its variant line, from the inspector's own checks.
      writeFileSync(
        join(ctx.workspace, 'ladder.m3u8'),
        '#EXTM3U\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-STREAM-INF:BANDWIDTH=800000,AVERAGE-BANDWIDTH=700000,RESOLUTION=640x360,FRAME-RATE=25\nv0.m3u8\n#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,URI="v0_i.m3u8"\n',
      );
      await wb.openFile('ladder.m3u8');
      const problems = await wb.problems(/This variant declares no CODECS/, 30_000);
      ctx.log(`master without CODECS: ${problems.replace(/\s+/g, ' ').slice(0, 300)}`);
      await ctx.shot('master playlist without CODECS');
    },
  },
  {
    name: 'evaluate a template group on the built-in clip: the ladder panel with its chart, table and findings',
    // The built-in clip is rendered once (a fractal, 8 s of 720p) before three rungs are encoded and compared.
    timeoutMs: 420_000,
    async run(ctx) {
      const { wb } = ctx;
      writeFileSync(join(ctx.workspace, LADDER_LAB_FILE), JSON.stringify(LADDER_LAB_GROUP, null, 2) + '\n');
      await wb.openFile(LADDER_LAB_FILE);
      await wb.runCommand('Video Platform: Evaluate Template Group...');
      await wb.pick(LADDER_LAB_FILE);
      await wb.pick('Built-in test clip');
      await ctx.shot('evaluating');
      const panel = await webviewText(ctx, /LADDER-RUNG-ABOVE-SOURCE/, 'the ladder panel', 400_000);
      ctx.log(`ladder panel: ${panel.replace(/\s+/g, ' ').slice(0, 400)}`);
      assert.match(panel, /Rate-quality of E2E ladder/);
      assert.match(panel, /"1080p" \(1920x1080\) is larger than the reference \(1280x720\)/);
      await ctx.shot('ladder panel');
      await wb.runCommand('View: Close All Editors');
    },
  },
  // The Resources view (test/e2e/resourceFlows.ts).
  ...resourceFlows,
  // Configuration as code (test/e2e/configsFlow.ts).
  configsFlow,
  // The local platform as a test double: stream faults and callbacks (test/e2e/testDoubleFlow.ts).
  testDoubleFlow,
  // Channel Health of a pushed channel (test/e2e/healthFlow.ts).
  healthFlow,
];
