import assert from 'node:assert/strict';
import { PlatformClient } from '../../src/api/client';
import type { Video } from '../../src/api/types';
import { clearVideoFilter, filterVideos } from '../../src/app/commands/filterCommands';
import { transcodeVideos } from '../../src/app/commands/transcodeVideos';
import { createOrUpdateCommand } from '../../src/app/authoring/commands';
import { VideoNode, type TreeNode } from '../../src/app/tree/nodes';
import { Poller } from '../../src/app/tree/poller';
import { isVideoSettling } from '../../src/app/tree/videoPresentation';
import { createHarness, type Harness } from './helpers/harness';
import {
  ACCESS_KEY,
  SECRET_KEY,
  startTestPlatform,
  type TestPlatform,
  videoTitled as videoTitledOn,
} from './helpers/platform';
import { platformSuite } from './helpers/platformSuite';
import { choose } from './helpers/scriptedUi';
import { eventually } from '../helpers/eventually';

const videoNodes = (nodes: TreeNode[]): VideoNode[] =>
  nodes.filter((node): node is VideoNode => node instanceof VideoNode);

describe('Videos view: save-as copies and hidden VR videos', () => {
  const suite = platformSuite();
  const videoTitled = (title: string): Promise<Video> => videoTitledOn(suite.client, title);

  it('lists a save-as copy without a manual refresh, saying which video it was transcoded from', async () => {
    const source = await videoTitled('Match highlights');
    const before = videoNodes(await suite.harness.videos.getChildren());
    assert.ok(!before.some((node) => node.video.parentId === source.id));
    suite.harness.ui.script(choose('Mobile HLS'), choose('Save as'));
    const outcome = await suite.harness.run(transcodeVideos, {
      node: before.find((node) => node.video.id === source.id),
    });
    assert.equal(outcome?.results[0]?.code, 0, suite.harness.ui.errors.join('\n'));
    assert.match(suite.harness.ui.infos.at(-1) ?? '', /then lists the new copy/);

    // The view's poller (not a refresh command) follows the source until the platform has made the copy.
    const poller = new Poller(suite.harness.videos, () => 10, suite.harness.log);
    let copy: VideoNode | undefined;
    try {
      copy = await eventually('the copy to be listed', async () => {
        poller.kick();
        return videoNodes(await suite.harness.videos.getChildren()).find((node) => node.video.parentId === source.id);
      });
    } finally {
      poller.dispose();
    }
    const view = copy.view();
    assert.equal(view.label, 'Match highlights');
    assert.match(view.description ?? '', /^Transcoded · [\d:]+ · from "Match highlights"/);
    assert.match(String(view.tooltip), /transcoded from "Match highlights"/);
    const original = videoNodes(await suite.harness.videos.getChildren()).find((node) => node.video.id === source.id)!;
    assert.doesNotMatch(original.view().description ?? '', /from "/, 'the source is told apart');
  });

  it('lists the copies of a "Save as" *.transcode.json document by itself, without a Refresh', async () => {
    const source = await videoTitled('Welcome tour');
    const group = (await suite.client.templateGroupList()).find((candidate) => candidate.name === 'Mobile HLS')!;
    const before = videoNodes(await suite.harness.videos.getChildren());
    assert.ok(!before.some((node) => node.video.parentId === source.id));
    const document = suite.harness.editor.open(
      '/work/again.transcode.json',
      JSON.stringify({ videoIds: [source.id], transcodeTemplateGroupId: group.id, replace: false }, null, 2),
    );
    await suite.harness.run(createOrUpdateCommand, { uri: document.uri });
    assert.deepEqual(suite.harness.ui.errors, []);

    // Only the view's poller runs (as in VS Code): no refresh command.
    const poller = new Poller(suite.harness.videos, () => 10, suite.harness.log);
    try {
      const copy = await eventually('the copy to be listed', async () => {
        poller.kick();
        return videoNodes(await suite.harness.videos.getChildren()).find((node) => node.video.parentId === source.id);
      });
      assert.match(copy.view().description ?? '', /from "Welcome tour"/);
    } finally {
      poller.dispose();
    }
  });

  it('says in the description that VR videos are hidden and how to show them', async () => {
    await suite.harness.videos.getChildren();
    assert.match(suite.harness.videos.description, / · VR videos hidden \(Filter Videos > Show VR videos\)$/);
    suite.harness.ui.script(choose('Show VR videos'));
    await suite.harness.run(filterVideos);
    const shown = videoNodes(await suite.harness.videos.getChildren());
    assert.ok(shown.some((node) => node.video.title === 'VR walkthrough'));
    assert.doesNotMatch(suite.harness.videos.description, /hidden/);
    assert.match(suite.harness.videos.description, /VR$/);
    await suite.harness.run(clearVideoFilter);
    await suite.harness.videos.getChildren();
    assert.match(suite.harness.videos.description, /VR videos hidden/);
  });
});

describe('Videos view: a transcoding in progress', () => {
  let platform: TestPlatform;
  let client: PlatformClient;
  let harness: Harness;

  before(async () => {
    // The platform's clock at its real speed: the transcoding lasts while the test looks at it.
    platform = await startTestPlatform({ clockSpeed: 1 });
    client = new PlatformClient({ baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
    harness = await createHarness({
      account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
    });
  });
  after(async () => {
    await harness.dispose();
    await client.close();
    await platform.close();
  });

  it('shows how long a transcoding has been going and what it makes (the platform tells no progress)', async () => {
    const source = (
      await client.queryVideo({
        start: 1,
        number: 50,
        sort: 'uploadTime',
        order: 'desc',
        searchType: 'title',
        keyword: 'Match highlights',
      })
    )[0]!;
    let now = 1_000_000;
    harness.videos.now = () => now;
    const listed = videoNodes(await harness.videos.getChildren()).find((node) => node.video.id === source.id)!;
    harness.ui.script(choose('Mobile HLS'), choose('Replace'));
    const outcome = await harness.run(transcodeVideos, { node: listed });
    assert.equal(outcome?.results[0]?.code, 0, harness.ui.errors.join('\n'));
    const node = harness.videos.nodeOf(source.id)!;
    await harness.videos.refreshVideo(source.id);
    assert.ok(isVideoSettling(node.video), `still transcoding (status ${node.video.status})`);
    assert.match(node.view().description ?? '', /^(Queued|Transcoding|Transcoding again)\.\.\. 0:00$/);
    now += 95_000;
    await harness.videos.refreshVideo(source.id);
    const view = node.view();
    assert.match(view.description ?? '', /\.\.\. 1:35$/);
    assert.match(String(view.tooltip), /- For 1:35 so far \(the platform tells no progress/);
    assert.match(String(view.tooltip), /- Making: template group "Mobile HLS"/);
  });
});
