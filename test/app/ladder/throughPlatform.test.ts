/**
 * Evaluate Template Group on a group of a local platform's account with real media (ffmpeg), through compose()
 * with a scripted Ui over real HTTP on 127.0.0.1: the reference is uploaded as a video of the account, transcoded by
 * the platform with the group, each rendition fetched by its HLS address and measured. The video stays in the account.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { PlatformClient } from '../../../src/api/client';
import { VideoStatuses, type TemplateGroupInput } from '../../../src/api/types';
import { evaluateTemplateGroup } from '../../../src/app/commands/inspectCommands';
import type { LadderEvaluation } from '../../../src/app/ladder/model';
import type { MediaTools } from '../../../src/media/tools';
import { realTools } from '../../inspector/golden';
import { createHarness, type Harness } from '../helpers/harness';
import { makeReference, USELESS_TOP } from '../helpers/ladderGroups';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from '../helpers/platform';
import { choose, openFiles } from '../helpers/scriptedUi';

describe('Evaluate Template Group through the local platform (real media)', function () {
  this.timeout(600_000);
  let tools: MediaTools;
  let tmp: string;
  let reference: string;
  let test: TestPlatform;
  let harness: Harness;
  let client: PlatformClient;
  let groupId: number;

  before(async () => {
    tools = await realTools();
    tmp = mkdtempSync(join(tmpdir(), 'vpt-ladder-platform-'));
    reference = join(tmp, 'reference.mp4');
    await makeReference(tools, reference);
    test = await startTestPlatform({ media: { ffmpegDir: dirname(tools.ffmpeg) } });
    assert.equal(test.platform.mediaMode.kind, 'real', 'the platform runs real media');
  });
  after(async () => {
    await test?.close();
    rmSync(tmp, { recursive: true, force: true });
  });
  beforeEach(async () => {
    harness = await createHarness({
      account: { baseUrl: test.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
      storageDir: mkdtempSync(join(tmp, 'storage-')),
      ffmpegPath: dirname(tools.ffmpeg),
    });
    client = await harness.ctx.connection.activeClient();
    groupId ??= await client.templateGroup(JSON.parse(USELESS_TOP) as TemplateGroupInput);
  });
  afterEach(async () => {
    for (const panel of harness.panels.opened) panel.dispose();
    await harness.dispose();
  });

  async function groupNode(): Promise<unknown> {
    const groups = await harness.ctx.models.resources.records('templateGroup');
    const node = groups.find((g) => g.kind === 'templateGroup' && g.record.name === 'Useless top');
    assert.ok(node, 'the group is listed');
    return node;
  }

  it('the platform transcodes the reference with the group; the useless top rung is named; the video stays', async () => {
    harness.ui.script(choose('A local media file'), openFiles(reference));
    const shown = await harness.run(evaluateTemplateGroup, { node: await groupNode() });
    assert.deepEqual(harness.ui.errors, []);
    const evaluation = shown![0]!;
    assert.equal(evaluation.encodedBy.way, 'platform');
    assert.ok(harness.ui.reports.some((r) => r.message === 'Uploading the reference to the platform'));
    assert.ok(harness.ui.reports.some((r) => r.message.startsWith('Fetching "360p-max" from the platform')));
    assert.deepEqual(
      evaluation.results.map((r) => `${r.rung.name} ${r.width}x${r.height}`),
      ['180p 320x180', '360p 640x360', '360p-max 640x360', '720p 1280x720'],
    );
    for (const r of evaluation.results) {
      assert.ok(r.averageBitrate > 0 && r.psnr > 20 && r.ssim > 0.5, `${r.rung.name}: measured`);
      assert.equal(r.encodeSeconds, undefined, 'the platform says no encode time');
    }
    assert.deepEqual(
      evaluation.findings.filter((f) => f.code === 'LADDER-RUNG-NO-GAIN').map((f) => f.rung),
      ['360p-max'],
    );
    // The video is the platform's: transcoded with the group, its renditions listed in the account.
    const by = evaluation.encodedBy as { way: 'platform'; videoId: string };
    const video = await client.getVideoInfo(by.videoId);
    assert.equal(video.status, VideoStatuses.completed);
    assert.deepEqual(video.transcodedVideoList.map((s) => s.name).sort(), ['180p', '360p', '360p-max', '720p']);
    const html = harness.panels.opened.at(-1)!.html;
    assert.match(html, new RegExp(`Encoded through the platform: the reference was uploaded as video ${by.videoId}`));
    assert.match(html, /LADDER-RUNG-NO-GAIN<\/code> &#34;360p-max&#34;/);
  });

  it('Cancel while the platform transcodes: stops waiting, says the video stays in the account, leaves no file', async () => {
    const storage = harness.ctx.inspection.ladderDir;
    harness.ui.cancelWhen = (message) => message.startsWith('The platform is transcoding the reference');
    harness.ui.script(choose('A local media file'), openFiles(reference));
    const shown = await harness.run(evaluateTemplateGroup, { node: await groupNode() });
    assert.equal(shown, undefined);
    assert.deepEqual(harness.ui.errors, []);
    assert.equal(harness.panels.opened.length, 0);
    const said = harness.ui.infos.find((m) => m.startsWith('Stopped waiting for the platform'));
    assert.ok(said, harness.ui.infos.join(' | '));
    const id = /video (\S+) \(/.exec(said)![1]!;
    assert.equal((await client.getVideoInfo(id)).id, id, 'the video is in the account');
    assert.deepEqual(readdirSync(storage), []);
  });

  it('npm run ladder -- --platform-group ID: the same through the platform, the account from the environment', async () => {
    const child = spawn(
      process.execPath,
      [
        ...['-r', 'tsx/cjs', join(__dirname, '..', '..', '..', 'src', 'app', 'ladder', 'cli.ts')],
        ...['--platform-group', String(groupId), '--reference', reference, '--format', 'json'],
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          FFMPEG_DIR: dirname(tools.ffmpeg),
          VIDEO_PLATFORM_BASE_URL: test.platform.baseUrl,
          VIDEO_PLATFORM_ACCESS_KEY: ACCESS_KEY,
          VIDEO_PLATFORM_SECRET_KEY: SECRET_KEY,
        },
      },
    );
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert.equal(code, 1, err);
    assert.ok(!err.includes(SECRET_KEY) && !out.includes(SECRET_KEY), 'no secret in the output');
    const evaluation = JSON.parse(out) as LadderEvaluation;
    assert.equal(evaluation.encodedBy.way, 'platform');
    assert.deepEqual(
      evaluation.findings.filter((f) => f.code === 'LADDER-RUNG-NO-GAIN').map((f) => f.rung),
      ['360p-max'],
    );
  });
});
