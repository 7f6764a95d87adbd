import { Codes } from '../../src/api/errorCodes';
import assert from 'node:assert/strict';
import { PlatformClient } from '../../src/api/client';
import type { Channel, Video } from '../../src/api/types';
import { copyPlayAddress, copyPushAddress } from '../../src/app/commands/copyAddresses';
import { createCategory } from '../../src/app/commands/createCategory';
import { createChannel } from '../../src/app/commands/createChannel';
import { createLiveLogo } from '../../src/app/commands/createLiveLogo';
import { deleteChannels } from '../../src/app/commands/deleteChannel';
import { filterChannels } from '../../src/app/commands/filterCommands';
import { showChannelPlayAddresses, showVideoPlayAddresses } from '../../src/app/commands/playAddresses';
import { startChannels, stopChannels } from '../../src/app/commands/startStopChannel';
import { transcodeVideos } from '../../src/app/commands/transcodeVideos';
import { updateLiveTemplate } from '../../src/app/commands/updateLiveTemplate';
import { refreshItem } from '../../src/app/commands/viewCommands';
import { connectLocalPlatform } from '../../src/app/accounts/accountCommands';
import { ChannelNode } from '../../src/app/tree/nodes';
import { createHarness, type Harness } from './helpers/harness';
import { startFaultyServer, type FaultyServer } from './helpers/faultyServer';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from './helpers/platform';
import { accept, choose, chooseMany, keep, type } from './helpers/scriptedUi';

interface Fixtures {
  fresh: Channel;
  live: Channel;
  video: Video;
}

/** One command's run: scripts the answers a user gives, then runs the command. */
interface Scenario {
  readonly command: string;
  /** The platform action whose failure the scenario provokes (held open for timeout and cancel). */
  readonly action: string;
  /** Runs under a cancellable progress notification. */
  readonly cancellable: boolean;
  /** The command starts without an account (Add Account). */
  readonly noAccount?: boolean;
  run(h: Harness, f: Fixtures, target: { baseUrl: string; secretKey: string }): Promise<unknown>;
}

const SCENARIOS: Scenario[] = [
  {
    command: 'startChannel',
    action: 'liveStartChannel',
    cancellable: true,
    run: (h, f) => h.run(startChannels, { node: f.fresh }),
  },
  {
    command: 'stopChannel',
    action: 'liveStopChannel',
    cancellable: true,
    run: (h, f) => (h.ui.script(accept()), h.run(stopChannels, { node: f.live })),
  },
  {
    command: 'deleteChannel',
    action: 'liveDelete',
    cancellable: true,
    run: (h, f) => (h.ui.script(accept()), h.run(deleteChannels, { node: f.fresh })),
  },
  {
    command: 'showChannelPlayUrls',
    action: 'liveGetChannelsPlayUrl',
    cancellable: true,
    run: (h, f) => h.run(showChannelPlayAddresses, { node: f.live }),
  },
  {
    command: 'copyPushUrl (palette)',
    action: 'liveGetChannelsByPage',
    cancellable: false,
    run: (h) => h.run(copyPushAddress),
  },
  {
    command: 'copyPlayUrl (palette)',
    action: 'liveGetChannelsByPage',
    cancellable: false,
    run: (h) => h.run(copyPlayAddress),
  },
  {
    command: 'createCategory',
    action: 'liveChannelTypeCreate',
    cancellable: true,
    run: (h) => (h.ui.script(type(`Category ${Date.now()}`)), h.run(createCategory)),
  },
  {
    command: 'updateLiveTemplate',
    action: 'liveTemplateUpdate',
    cancellable: true,
    run: (h) => (
      h.ui.script(choose('1080p'), type('1080p changed'), keep(), keep(), keep(), keep(), keep()),
      h.run(updateLiveTemplate)
    ),
  },
  {
    command: 'createLiveLogo',
    action: 'liveLogoCreate',
    cancellable: true,
    run: (h) => (
      h.ui.script(type('Logo'), type('logo.png'), type('10'), type('10'), keep(), keep(), keep(), keep()),
      h.run(createLiveLogo)
    ),
  },
  {
    command: 'createChannel',
    action: 'liveCreateChannel',
    cancellable: true,
    run: (h) => (
      h.ui.script(
        type('Failing'),
        choose('Push'),
        choose('No category'),
        chooseMany('HLS'),
        chooseMany(),
        chooseMany('720p'),
        choose('Create channel'),
      ),
      h.run(createChannel)
    ),
  },
  {
    command: 'showVideoPlayUrls',
    action: 'getTranscodedVideos',
    cancellable: true,
    run: (h, f) => h.run(showVideoPlayAddresses, { node: f.video }),
  },
  {
    command: 'transcodeVideos',
    action: 'secondTranscodeV2',
    cancellable: true,
    run: (h, f) => (h.ui.script(choose('Mobile HLS'), choose('Save as')), h.run(transcodeVideos, { node: f.video })),
  },
  {
    command: 'filterChannels (category)',
    action: 'liveChannelTypeList',
    cancellable: false,
    run: (h) => (h.ui.script(choose('Only one category')), h.run(filterChannels)),
  },
  {
    command: 'refreshItem',
    action: 'liveGetChannelById',
    cancellable: false,
    run: async (h, f) => h.run(refreshItem, { node: new ChannelNode(undefined, f.live) }),
  },
  // Add Account shows a failed check in its fix-or-cancel question instead: test/app/accounts.test.ts.
];

describe('Every command fails readably: platform error code, timeout, cancel', () => {
  let platform: TestPlatform;
  let faulty: FaultyServer;
  let client: PlatformClient;
  let harness: Harness | undefined;
  let fixtures: Fixtures;

  before(async () => {
    platform = await startTestPlatform({ clockSpeed: 1 });
    faulty = await startFaultyServer(platform.platform.baseUrl);
    client = new PlatformClient({ baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
    const [template] = await client.liveGetTemplates();
    const fresh = await client.liveCreateChannel({
      name: 'Never started',
      signalType: '1',
      outputGroupList: [{ protocolType: 1, outputTemplateList: [{ templateId: template!.id, isDefault: '1' }] }],
    });
    const live = (await client.liveGetChannelsByPage({ searchType: 'name', keyword: 'Newsroom' })).channels[0]!;
    const video = (
      await client.queryVideo({
        start: 1,
        number: 20,
        sort: 'title',
        order: 'asc',
        searchType: 'title',
        keyword: 'Match highlights',
      })
    )[0]!;
    fixtures = { fresh, live, video };
  });
  after(async () => {
    await client.close();
    await faulty.close();
    await platform.close();
  });
  afterEach(async () => {
    faulty.hang.clear();
    await harness?.dispose();
    harness = undefined;
  });

  const setUp = async (scenario: Scenario, baseUrl: string, secretKey: string, timeoutMs: number): Promise<Harness> => {
    harness = await createHarness({
      account: scenario.noAccount ? undefined : { baseUrl, accessKey: ACCESS_KEY, secretKey },
      timeoutMs,
    });
    return harness;
  };

  for (const scenario of SCENARIOS) {
    describe(scenario.command, () => {
      it('explains a platform error code, with Show Log', async () => {
        const h = await setUp(scenario, platform.platform.baseUrl, 'wrong-secret', 10_000);
        await scenario.run(h, fixtures, { baseUrl: platform.platform.baseUrl, secretKey: 'wrong-secret' });
        assert.equal(h.ui.errors.length, 1, `errors: ${h.ui.errors.join(' | ')}`);
        assert.match(
          h.ui.errors[0]!,
          new RegExp(
            `failed: The request signature does not match: check the secret key\\. \\(\\w+: code ${Codes.signatureIncorrect}, signature_is_incorrect[^)]*\\)$`,
          ),
        );
        assert.deepEqual(h.ui.errorActions[0], ['Show Log']);
        assert.ok(
          !h.ui.everythingShown().includes('wrong-secret') && !h.log.text().includes('wrong-secret'),
          'the secret is never shown or logged',
        );
        assert.match(h.log.text(), new RegExp(`^error .*code ${Codes.signatureIncorrect}`, 'm'));
      });

      it('says which request timed out', async () => {
        faulty.hang.add(scenario.action);
        const h = await setUp(scenario, faulty.baseUrl, SECRET_KEY, 300);
        await scenario.run(h, fixtures, { baseUrl: faulty.baseUrl, secretKey: SECRET_KEY });
        assert.equal(h.ui.errors.length, 1, `errors: ${h.ui.errors.join(' | ')}`);
        assert.match(
          h.ui.errors[0]!,
          new RegExp(
            `failed: ${scenario.action}: http://127\\.0\\.0\\.1:\\d+/rest did not answer within 0\\.3 s \\(headers timeout\\)`,
          ),
        );
        assert.deepEqual(h.ui.errorActions[0], ['Show Log']);
      });

      if (scenario.cancellable) {
        it('says nothing alarming when the user cancels', async () => {
          faulty.hang.add(scenario.action);
          const h = await setUp(scenario, faulty.baseUrl, SECRET_KEY, 10_000);
          h.ui.cancelAfterMs = 50;
          await scenario.run(h, fixtures, { baseUrl: faulty.baseUrl, secretKey: SECRET_KEY });
          assert.ok(faulty.seen.includes(scenario.action), 'the request was on its way');
          assert.deepEqual(h.ui.errors, []);
          assert.deepEqual(h.ui.warnings, []);
          assert.match(h.log.text(), /cancel/i);
        });
      }
    });
  }

  it('ends the command once the failure is shown, without waiting for an answer to the message', async () => {
    harness = await createHarness();
    const shown: string[] = [];
    // A notification nobody answers (or a test host that never closes it).
    harness.ui.error = (message) => (shown.push(message), new Promise<undefined>(() => undefined));
    harness.ui.script(type('News'));
    assert.equal(await harness.run(createCategory), undefined);
    assert.deepEqual(shown, [
      'Create channel category failed: No Video Platform account is set: add one with "Video Platform: Add Account" or run "Video Platform: Connect to Local Platform".',
    ]);
  });

  it('connectLocalPlatform: a platform that cannot start is explained', async () => {
    harness = await createHarness({ storageDir: '/dev/null/not-a-directory' });
    assert.equal(await harness.run(connectLocalPlatform), undefined);
    assert.match(harness.ui.errors[0]!, /^Connect to the local platform failed: .*(ENOTDIR|not a directory)/);
  });
});
