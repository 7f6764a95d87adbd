import { Codes } from '../../src/api/errorCodes';
import assert from 'node:assert/strict';
import type { Video } from '../../src/api/types';
import { filterVideos } from '../../src/app/commands/filterCommands';
import { showVideoPlayAddresses } from '../../src/app/commands/playAddresses';
import { readAdHocSource, transcodeVideos } from '../../src/app/commands/transcodeVideos';
import { refreshItem } from '../../src/app/commands/viewCommands';
import { LoadMoreNode, RenditionNode, VideoNode, type TreeNode } from '../../src/app/tree/nodes';
import { Poller } from '../../src/app/tree/poller';
import { createHarness, MemoryDocument } from './helpers/harness';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, videoTitled as videoTitledOn } from './helpers/platform';
import { platformSuite } from './helpers/platformSuite';
import { choose, dismissPick, type } from './helpers/scriptedUi';
import { eventually } from '../helpers/eventually';

const videoNodes = (nodes: TreeNode[]): VideoNode[] =>
  nodes.filter((node): node is VideoNode => node instanceof VideoNode);

const AD_HOC = `{
  // a comment is fine: the file is JSONC
  "videoIds": ["${'0'.repeat(32)}"],
  "replace": true,
  "transcodeTemplates": [
    { "name": "360p", "videoWidth": 640, "videoHeight": 360, "videoBitrate": 600, "audioBitrate": 64000, "hls": true, "mp4": false, "flv": false, "defaultVideo": 1 }
  ]
}`;

describe('Videos view and video commands against the local platform', () => {
  // A transcoding takes half a second: long enough for the first poll to see it running, even on a busy machine.
  const suite = platformSuite({ clockSpeed: 20 });
  const videoTitled = (title: string): Promise<Video> => videoTitledOn(suite.client, title);
  const nodeTitled = async (title: string): Promise<VideoNode> => {
    suite.harness.videos.setFilter({ searchType: 'title', keyword: title });
    const node = videoNodes(await suite.harness.videos.getChildren()).find(
      (candidate) => candidate.video.title === title,
    );
    assert.ok(node, `no node for ${title}`);
    return node;
  };

  it('lists videos newest first, paged, with a status icon and flags for each of the eight states', async () => {
    const page = await suite.harness.videos.getChildren();
    const nodes = videoNodes(page);
    // queryVideo lists normal videos unless videoType 1 (VR) is asked for.
    assert.equal(nodes.length, 10);
    const flags = new Map(nodes.map((node) => [node.video.title, node.view()]));
    assert.equal(flags.get('Raw upload')?.contextValue, 'video+uploaded');
    assert.equal(flags.get('Keynote')?.contextValue, 'video+transcoding');
    // The platform tells no progress: how long this view has seen it transcoding.
    assert.equal(flags.get('Keynote')?.description, 'Transcoding... 0:00');
    assert.equal(flags.get('Keynote')?.icon?.id, 'sync~spin');
    assert.equal(flags.get('Broken encode')?.contextValue, 'video+failed');
    assert.equal(flags.get('Interrupted upload')?.contextValue, 'video+uploadFailed');
    assert.equal(flags.get('Meeting notes')?.contextValue, 'video+unknownType');
    assert.equal(flags.get('Product demo')?.contextValue, 'video+transcoding+second');
    assert.equal(flags.get('Queued interview')?.contextValue, 'video+queued');
    assert.equal(flags.get('Welcome tour')?.contextValue, 'video+done+renditions');
    assert.equal(
      new Set(nodes.map((node) => node.view().icon?.id + String(node.view().icon?.color))).size,
      8,
      'one look per state',
    );
    const uploadTimes = nodes.map((node) => node.video.uploadTime);
    assert.deepEqual(
      uploadTimes,
      [...uploadTimes].sort((a, b) => b - a),
    );

    suite.harness.videos.refresh();
    const small = await createHarness({
      account: { baseUrl: suite.platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
      pageSize: 5,
    });
    try {
      const first = await small.videos.getChildren();
      assert.equal(videoNodes(first).length, 5);
      assert.ok(first.at(-1) instanceof LoadMoreNode);
    } finally {
      await small.dispose();
    }
  });

  it('shows renditions (format, size, resolution, bitrate) under a transcoded video', async () => {
    const node = await nodeTitled('Match highlights');
    const renditions = (await suite.harness.videos.getChildren(node)) as RenditionNode[];
    assert.ok(renditions.length >= 2);
    const view = renditions[0]!.view();
    assert.match(view.description ?? '', /^(HLS|MP4)(\+(HLS|MP4))* · \d+x\d+ · \d+ kbps · [\d.]+ (KB|MB|GB)$/);
    assert.match(view.contextValue, /^rendition(\+(hls|mp4|flv|ts))+/);
  });

  it('filters by status and category through queryVideo, with the filter text', async () => {
    suite.harness.ui.script(choose('Only one status'), choose('Transcoding failed'));
    await suite.harness.run(filterVideos);
    assert.equal(suite.harness.videos.filterText, 'transcoding failed');
    assert.deepEqual(
      videoNodes(await suite.harness.videos.getChildren()).map((node) => node.video.title),
      ['Broken encode'],
    );

    suite.harness.ui.script(choose('Clear filter'));
    await suite.harness.run(filterVideos);
    await suite.harness.videos.getChildren();
    const archive = suite.harness.videos.loadedVideos().find((video) => video.category === 'Archive')!;
    suite.harness.ui.script(choose('Only one category'), choose('Archive'));
    await suite.harness.run(filterVideos);
    assert.equal(suite.harness.videos.filter.categoryId, archive.categoryId);
    // Picked by name: the description names it, in the one category format (name and id).
    assert.equal(suite.harness.videos.filterText, `category: Archive (${archive.categoryId})`);
    suite.harness.ui.script(choose('Sort'), choose('Largest first'), dismissPick());
    await suite.harness.run(filterVideos);
    await suite.harness.run(filterVideos);
    const rows = suite.harness.ui.asked.at(-1)!.items!;
    assert.equal(rows.find((item) => item.label.includes('Only one category'))?.description, 'now Archive');
    assert.equal(rows.find((item) => item.label.includes('Sort'))?.description, 'now Largest first');
    assert.ok(
      videoNodes(await suite.harness.videos.getChildren()).every(
        (node) => node.video.categoryId === archive.categoryId,
      ),
    );

    suite.harness.ui.script(choose('Clear filter'), choose('Show VR videos'));
    await suite.harness.run(filterVideos);
    await suite.harness.run(filterVideos);
    assert.equal(suite.harness.videos.filterText, 'VR');
    const vr = videoNodes(await suite.harness.videos.getChildren());
    assert.deepEqual(
      vr.map((node) => [node.video.title, node.view().contextValue]),
      [['VR walkthrough', 'video+done+vr+renditions']],
    );

    suite.harness.ui.script(choose('Only one category'), choose('Enter a category id'), type('twelve'));
    await suite.harness.run(filterVideos);
    assert.match(suite.harness.ui.errors[0]!, /Category id must be a whole number/);
  });

  it('shows video playback addresses grouped by CDN and format', async () => {
    const node = await nodeTitled('Match highlights');
    suite.harness.ui.script(choose('MP4'), choose('Copy address'));
    const used = await suite.harness.run(showVideoPlayAddresses, { node: node });
    assert.equal(used?.action, 'copy');
    assert.match(suite.harness.ui.copied[0]!, /^https?:\/\/.*\.mp4$/);
    const separators = suite.harness.ui.asked[0]!.items!.filter((item) => item.separator).map((item) => item.label);
    assert.ok(
      separators.some((label) => /^CDN .* · HLS$/.test(label)) &&
        separators.some((label) => /^CDN .* · MP4$/.test(label)),
      separators.join(' | '),
    );

    const raw = await nodeTitled('Raw upload');
    await suite.harness.run(showVideoPlayAddresses, { node: raw });
    assert.match(
      suite.harness.ui.infos.at(-1)!,
      /"Raw upload" is uploaded, not transcoded; nothing to do \(no rendition yet: transcode it first\)/,
    );
  });

  it('offers the playback addresses of a video queued and transcoded again, which keeps its earlier renditions meanwhile', async () => {
    // A real-time clock: the second transcoding stays queued (7) for 2 s, then runs (6) for 8 s.
    const slow = await startTestPlatform({ clockSpeed: 1 });
    const own = await createHarness({
      account: { baseUrl: slow.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
    });
    try {
      const slowClient = await own.connection.activeClient();
      const [video] = await slowClient.queryVideo({
        start: 1,
        number: 50,
        sort: 'uploadTime',
        order: 'desc',
        searchType: 'title',
        keyword: 'Match highlights',
      });
      assert.ok(video && video.status === 2 && video.transcodedVideoList.length > 0);
      const [group] = await slowClient.templateGroupList();
      assert.equal(
        (
          await slowClient.secondTranscodeV2({
            videoIds: [video.id],
            replace: true,
            transcodeTemplateGroupId: group!.id,
          })
        )[0]?.code,
        0,
      );
      own.videos.setFilter({ searchType: 'title', keyword: 'Match highlights' });
      const node = videoNodes(await own.videos.getChildren()).find((candidate) => candidate.video.id === video.id)!;
      assert.equal(node.view().contextValue, 'video+queued+renditions');
      await eventually('the video to be transcoding again', async () => {
        await own.videos.refreshVideo(video.id);
        return node.video.status === 6;
      });
      assert.equal(node.view().contextValue, 'video+transcoding+second+renditions');
      own.ui.script(choose('HLS'), choose('Copy address'));
      const used = await own.run(showVideoPlayAddresses, { node, selection: [node] });
      assert.equal(used?.action, 'copy', own.ui.infos.join('\n'));
      assert.match(own.ui.copied[0]!, /\.m3u8$/);
    } finally {
      await own.dispose();
      await slow.close();
    }
  });

  it('transcodes with a template group, reports per-video outcomes and follows the videos until done', async () => {
    const done = await videoTitled('Match highlights');
    // A record from before another client started transcoding it: the platform refuses that one.
    const stale = { ...(await videoTitled('Keynote')), status: 2 as const };
    suite.harness.ui.script(choose('Mobile HLS'), choose('Replace'));
    const outcome = await suite.harness.run(transcodeVideos, { node: done, selection: [done, stale] });
    assert.ok(outcome);
    assert.equal(outcome.job.replace, true);
    assert.ok(outcome.job.transcodeTemplateGroupId);
    assert.deepEqual(
      outcome.results.map((result) => result.code),
      [Codes.success, Codes.transcodeRunning],
    );
    assert.equal(suite.harness.ui.warnings.length, 1);
    assert.match(
      suite.harness.ui.warnings[0]!,
      new RegExp(
        `1 of 2 videos accepted\\. Refused: "Keynote": The video is already being transcoded; wait for it to finish\\. \\(code ${Codes.transcodeRunning}\\)`,
      ),
    );
    assert.ok(suite.harness.videos.settlingIds().includes(done.id), 'the accepted video is followed');

    const finished: Video[] = [];
    suite.harness.videos.onSettled((video) => finished.push(video));
    const poller = new Poller(suite.harness.videos, () => 10, suite.harness.log);
    try {
      await eventually('the transcoding to finish', () => {
        poller.kick();
        return finished.some((video) => video.id === done.id);
      });
    } finally {
      poller.dispose();
    }
    assert.equal(finished.find((video) => video.id === done.id)?.status, 2);
    assert.ok(!suite.harness.videos.settlingIds().includes(done.id));
  });

  it('transcodes with the ad-hoc templates of an open *.transcode.json', async () => {
    const video = await videoTitled('Welcome tour');
    suite.harness.editor.open('/home/user/notes.json', '{}');
    suite.harness.editor.open('/home/user/jobs/mobile.transcode.json', AD_HOC);
    suite.harness.ui.script(choose('mobile.transcode.json'), choose('Save as'));
    const outcome = await suite.harness.run(transcodeVideos, { node: video });
    assert.ok(outcome, suite.harness.ui.errors.join('\n'));
    assert.equal(outcome.job.replace, false);
    assert.deepEqual(outcome.job.videoIds, [video.id], 'the selected videos, not the ids in the file');
    assert.equal((outcome.job.transcodeTemplates as Array<{ name: string }>)[0]!.name, '360p');
    assert.equal(outcome.results[0]!.code, 0);
    assert.equal(
      suite.harness.ui.asked[0]!.items!.filter((item) => !item.separator && item.label.includes('notes.json')).length,
      0,
      'only transcode files are offered',
    );
    // The file said replace: true, so Replace was offered first.
    assert.match(suite.harness.ui.asked[1]!.items![0]!.label, /Replace/);
    assert.ok(suite.harness.videos.settlingIds().includes(video.id), 'followed until done');
  });

  it('refreshes every selected video; one deleted elsewhere leaves the view, named in the message', async () => {
    suite.harness.videos.setFilter({ searchType: 'title', keyword: 'e' });
    const nodes = videoNodes(await suite.harness.videos.getChildren());
    const notes = nodes.find((node) => node.video.title === 'Meeting notes')!;
    const upload = nodes.find((node) => node.video.title === 'Interrupted upload')!;
    await suite.client.deleteVideo([notes.video.id]);
    const reads = (): number => suite.harness.log.lines.filter((line) => / GET getVideoInfo /.test(line)).length;
    await suite.harness.run(refreshItem, { node: upload, selection: [upload, notes] });
    assert.equal(reads(), 2, 'both selected videos are read');
    assert.match(
      suite.harness.ui.errors[0] ?? '',
      /^Refresh "Meeting notes" failed: The video does not exist in this account\./,
    );
    const titles = videoNodes(await suite.harness.videos.getChildren()).map((node) => node.video.title);
    assert.ok(titles.includes('Interrupted upload') && !titles.includes('Meeting notes'), titles.join(', '));
  });

  it('refuses a broken transcode file, naming the place and the rule, and sends nothing', async () => {
    const video = await videoTitled('Raw upload');
    const broken = AD_HOC.replace('"hls": true', '"hls": false');
    suite.harness.editor.open('bad.transcode.json', broken);
    suite.harness.ui.script(choose('bad.transcode.json'));
    assert.equal(await suite.harness.run(transcodeVideos, { node: video }), undefined);
    assert.match(
      suite.harness.ui.errors[0]!,
      /^Use bad\.transcode\.json failed: bad\.transcode\.json, line 6: transcodeTemplates\[0\] produces no format/,
    );
    assert.equal((await suite.client.getVideoInfo(video.id)).status, 0);
    assert.throws(
      () => readAdHocSource(new MemoryDocument('x.transcode.json', '{"a": }')),
      /^Error: x\.transcode\.json, line 1: JSON syntax: a value is expected here\.$/,
    );
  });
});
