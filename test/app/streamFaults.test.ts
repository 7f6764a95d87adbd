/**
 * Inject Stream Fault... and Clear Stream Faults from the tree, against the real local platform: the wizard's
 * answers become the platform's rule (read back through `/_local/faults`), the item shows it (`+faults`, so Clear
 * is offered, and "stream faults" in its description) until it is cleared.
 */
import assert from 'node:assert/strict';
import { clearStreamFaults, injectStreamFault } from '../../src/app/commands/streamFaults';
import { ChannelNode, VideoNode } from '../../src/app/tree/nodes';
import { faultsAdmin } from '../localPlatform/faultsHelpers';
import { createHarness, type Harness } from './helpers/harness';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from './helpers/platform';
import { choose, type } from './helpers/scriptedUi';

const ACCOUNT = { accessKey: ACCESS_KEY, secretKey: SECRET_KEY };

describe('Stream fault commands against the local platform', () => {
  let platform: TestPlatform;
  let harness: Harness;

  const injected = async () =>
    ((await faultsAdmin(platform.platform.baseUrl, 'list', {}, ACCOUNT)).json.result as { injected: unknown[] })
      .injected;
  const channelNode = async (name: string): Promise<ChannelNode> => {
    harness.channels.setFilter({ searchType: 'name', keyword: name });
    const node = (await harness.channels.getChildren()).find(
      (n): n is ChannelNode => n instanceof ChannelNode && n.channel.name === name,
    );
    assert.ok(node, `no node for ${name}`);
    return node;
  };

  before(async () => {
    platform = await startTestPlatform();
  });
  after(async () => {
    await platform.close();
  });
  beforeEach(async () => {
    harness = await createHarness({ account: { baseUrl: platform.platform.baseUrl, ...ACCOUNT } });
  });
  afterEach(async () => {
    await faultsAdmin(platform.platform.baseUrl, 'clear', {}, ACCOUNT);
    await harness.dispose();
  });

  it('injects the chosen fault with the answered option, marks the channel, and clears it', async () => {
    const node = await channelNode('Test pattern');
    assert.doesNotMatch(node.view().contextValue, /\+faults/);
    harness.ui.script(choose('status'), type('502'));
    const rule = await harness.run(injectStreamFault, { node });
    assert.deepEqual(harness.ui.errors, []);
    assert.deepEqual(rule, { target: node.channel.id, fault: 'status', code: 502 });
    assert.deepEqual(await injected(), [{ target: node.channel.id, fault: 'status', code: 502 }]);
    assert.match(node.view().contextValue, /^channel\+.*\+faults$/);
    assert.match(node.view().description ?? '', /^stream faults · /);
    await harness.run(clearStreamFaults, { node });
    assert.deepEqual(await injected(), []);
    assert.doesNotMatch(node.view().contextValue, /\+faults/);
  });

  it('asks every option of a fault in turn: timestamp-jump takes seconds and which segments', async () => {
    const node = await channelNode('Test pattern');
    harness.ui.script(choose('timestamp-jump'), type('-4'), type('3'));
    await harness.run(injectStreamFault, { node });
    assert.deepEqual(await injected(), [
      { target: node.channel.id, fault: 'timestamp-jump', seconds: -4, mediaSequence: { every: 3 } },
    ]);
  });

  it('works on a video too, and a percent becomes the factor of a lie', async () => {
    const videos = await harness.videos.getChildren();
    const node = videos.find((n): n is VideoNode => n instanceof VideoNode && n.video.title === 'Welcome tour');
    assert.ok(node);
    harness.ui.script(choose('extinf-lie'), type('200'));
    await harness.run(injectStreamFault, { node });
    assert.deepEqual(await injected(), [{ target: node.video.id, fault: 'extinf-lie', factor: 2 }]);
    assert.match(node.view().contextValue, /^video\+.*\+faults$/);
  });

  it('refuses an option out of its range as the user types it, and sends nothing', async () => {
    const node = await channelNode('Test pattern');
    harness.ui.script(choose('status'), type('200'));
    await harness.run(injectStreamFault, { node });
    assert.equal(harness.ui.errors.length, 1);
    assert.match(harness.ui.errors[0]!, /HTTP status/);
    assert.deepEqual(await injected(), []);
  });
});
