import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Channel, LiveOutput, OutputGroup, Video } from '../../src/api/types';
import { COMMANDS } from '../../src/app/commands/commandTable';
import { CONTEXT_KEYS } from '../../src/app/contextKeys';
import { channelContextValue, outputGroupView, outputView } from '../../src/app/tree/channelPresentation';
import { hasRenditions } from '../../src/app/commands/playAddresses';
import { canTranscode } from '../../src/app/commands/transcodeVideos';
import { MEDIA_EXTENSIONS } from '../../src/app/commands/uploadVideos';
import { videoContextValue } from '../../src/app/tree/videoPresentation';

const root = join(__dirname, '..', '..');
interface Contributed {
  command: string;
  title: string;
}
interface MenuEntry {
  command: string;
  when?: string;
  group?: string;
}
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  activationEvents?: string[];
  contributes: {
    jsonValidation: Array<{ fileMatch: string[] }>;
    languages?: Array<{ id: string; extensions: string[] }>;
    commands: Contributed[];
    menus: Record<string, MenuEntry[]>;
    views: Record<string, Array<{ id: string }>>;
    viewsContainers: { activitybar: Array<{ id: string; icon: string }> };
    viewsWelcome: Array<{ view: string; contents: string; when?: string }>;
    configuration: { properties: Record<string, { default: unknown }> };
  };
};
/** The English text of a manifest string (`%key%` refers to package.nls.json). */
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const english = (text: string | undefined): string =>
  (text ?? '').replace(/^%([^%]+)%$/, (_, key: string) => nls[key] ?? '');
const tableIds: string[] = COMMANDS.map((row) => row.id);

/** The viewItem regular expression of a menu entry. */
function viewItemPattern(entry: MenuEntry): RegExp | undefined {
  const match = /viewItem =~ \/(.+?)\/(?:\s|$)/.exec(entry.when ?? '');
  return match ? new RegExp(match[1]!) : undefined;
}

/** Commands whose context menu entries match this contextValue (when clauses with viewItem =~). */
function menuCommandsFor(contextValue: string, view: string): string[] {
  return pkg.contributes.menus['view/item/context']!.filter(
    (entry) => (entry.when ?? '').includes(`view == ${view}`) || (entry.when ?? '').includes('view =~ /^videoPlatform'),
  )
    .filter((entry) => {
      const pattern = viewItemPattern(entry);
      if (pattern) return pattern.test(contextValue);
      const equal = /viewItem == (\S+)/.exec(entry.when ?? '');
      return equal ? equal[1] === contextValue : false;
    })
    .map((entry) => entry.command.replace('videoPlatform.', ''));
}

const channel = (fields: Partial<Channel>): Channel =>
  ({
    id: 'a'.repeat(32),
    name: 'News',
    signalType: '1',
    status: 2,
    streamStatus: 1,
    outputGroupList: [{ protocolType: 1 }, { protocolType: 2 }],
    pushUrl: 'rtmp://push.example/live/x',
    ...fields,
  }) as Channel;

describe('package.json contributions match the code', () => {
  it('keeps activation lazy: views and commands implicitly, and a workspace holding one of the platform document kinds', () => {
    const events = pkg.activationEvents ?? [];
    assert.ok(!events.some((event) => event === '*' || event === 'onStartupFinished'), events.join(', '));
    // The extension's own problems and quick fixes need it running while such a file is edited.
    const suffixes = pkg.contributes.jsonValidation.map((entry) => entry.fileMatch[0]!).sort();
    const documents = events.filter((event) => event.startsWith('workspaceContains:'));
    // And a pulled folder (issue 27): its drift is watched while it is open.
    assert.deepEqual(
      documents.map((event) => event.replace('workspaceContains:**/', '')).sort(),
      [...suffixes, '.video-platform-state.json'].sort(),
    );
    // An opened HLS playlist (the language this extension contributes for .m3u8) gets its Problems.
    assert.deepEqual(
      events.filter((event) => !event.startsWith('workspaceContains:')),
      ['onLanguage:hls'],
    );
    assert.ok(
      pkg.contributes.languages?.some((language) => language.id === 'hls' && language.extensions.includes('.m3u8')),
    );
  });

  it('has a contributed command for every row of the command table, and a row for every command', () => {
    const contributed = new Set(pkg.contributes.commands.map((entry) => entry.command));
    assert.ok(tableIds.length >= 27);
    for (const id of tableIds) assert.ok(contributed.has(id), `${id} is in the table but not contributed`);
    for (const id of contributed) assert.ok(tableIds.includes(id), `${id} is contributed but has no row`);
    assert.equal(new Set(tableIds).size, tableIds.length, 'no id twice');
    for (const id of [
      'validateDocument',
      'createOrUpdateFromDocument',
      'openChannelAsFile',
      'refreshAuthoringReferences',
    ])
      assert.ok(tableIds.includes(`videoPlatform.${id}`), `authoring command ${id} has a row`);
  });

  it('menus only name contributed commands', () => {
    const contributed = new Set(pkg.contributes.commands.map((entry) => entry.command));
    for (const [place, entries] of Object.entries(pkg.contributes.menus)) {
      for (const entry of entries) assert.ok(contributed.has(entry.command), `${place}: ${entry.command}`);
    }
  });

  it('shows one container with the three views, a welcome with both ways in, and the settings', () => {
    const [container] = pkg.contributes.viewsContainers.activitybar;
    assert.equal(container?.id, 'videoPlatform');
    assert.ok(existsSync(join(root, container!.icon)));
    assert.deepEqual(
      pkg.contributes.views.videoPlatform!.map((view) => view.id),
      [
        'videoPlatform.channels',
        'videoPlatform.videos',
        'videoPlatform.resources',
        'videoPlatform.configPlan',
        'videoPlatform.callbacks',
      ],
    );
    const plan = pkg.contributes.viewsWelcome.filter((entry) => entry.view === 'videoPlatform.configPlan');
    assert.match(english(plan[0]?.contents), /command:videoPlatform\.pullAccountIntoFolder/);
    // The welcome (both ways in) shows once, in Live Channels; Videos only says where to begin.
    const welcomes = pkg.contributes.viewsWelcome.filter((entry) => entry.view === 'videoPlatform.channels');
    // No account at all: both ways in. Accounts but none active: switch first.
    const none = welcomes.find((entry) => entry.when === '!videoPlatform.hasAnyAccount');
    assert.match(english(none?.contents), /command:videoPlatform\.addAccount/);
    assert.match(english(none?.contents), /command:videoPlatform\.connectLocalPlatform/);
    const inactive = welcomes.find(
      (entry) => entry.when === 'videoPlatform.hasAnyAccount && !videoPlatform.hasAccount',
    );
    assert.match(english(inactive?.contents), /command:videoPlatform\.switchAccount/);
    assert.equal(welcomes.length, 2);
    for (const view of ['videoPlatform.videos', 'videoPlatform.resources']) {
      const others = pkg.contributes.viewsWelcome.filter((entry) => entry.view === view);
      assert.equal(others.length, 1, view);
      assert.equal(others[0]!.when, '!videoPlatform.hasAccount', view);
      assert.doesNotMatch(english(others[0]!.contents), /command:/, view);
      assert.match(english(others[0]!.contents), /Live Channels/, view);
    }
    assert.equal(pkg.contributes.configuration.properties['videoPlatform.pageSize']?.default, 50);
  });

  it('offers Update and Delete on template and logo groups except the built-in ones, and Open as File on every kind with a document', () => {
    const resources = 'videoPlatform.resources';
    const builtin = menuCommandsFor('templateGroup+builtin', resources);
    assert.ok(builtin.includes('openResourceAsFile') && builtin.includes('copyResourceId'));
    assert.ok(!builtin.includes('deleteResource') && !builtin.includes('updateResourceFromFile'));
    for (const own of ['templateGroup', 'templateGroup+default', 'logoGroup']) {
      const commands = menuCommandsFor(own, resources);
      assert.ok(commands.includes('deleteResource') && commands.includes('updateResourceFromFile'), own);
    }
    // The interface has no delete for these; live logos cannot be modified.
    for (const kind of ['liveTemplate', 'liveLogo', 'channelCategory'])
      assert.ok(!menuCommandsFor(kind, resources).includes('deleteResource'), kind);
    assert.ok(!menuCommandsFor('liveLogo', resources).includes('updateResourceFromFile'));
    assert.ok(menuCommandsFor('liveTemplate', resources).includes('updateResourceFromFile'));
    assert.ok(!menuCommandsFor('channelCategory', resources).includes('openResourceAsFile'));
    assert.ok(menuCommandsFor('resourceSection+logoGroup', resources).includes('createResource'));
    // Rendition, output group and output rows: copy and open their addresses.
    assert.ok(menuCommandsFor('rendition+hls+mp4', 'videoPlatform.videos').includes('openItemAddress'));
    assert.ok(menuCommandsFor('outputGroup+rtmp', 'videoPlatform.channels').includes('copyItemAddress'));
    assert.ok(!menuCommandsFor('outputGroup+rtmp', 'videoPlatform.channels').includes('openItemAddress'));
    assert.ok(menuCommandsFor('output+hls+default', 'videoPlatform.channels').includes('openItemAddress'));
  });

  it('offers Start or Stop by channel state, never while an operation runs', () => {
    const flags = (fields: Partial<Channel>, busy = false): string => channelContextValue(channel(fields), busy);
    const live = menuCommandsFor(flags({ status: 2 }), 'videoPlatform.channels');
    assert.ok(live.includes('stopChannel') && !live.includes('startChannel'));
    assert.ok(live.includes('copyPushUrl') && live.includes('showChannelPlayUrls'));
    for (const status of [0, 1] as const) {
      const commands = menuCommandsFor(flags({ status }), 'videoPlatform.channels');
      assert.ok(commands.includes('startChannel') && !commands.includes('stopChannel'), `status ${status}`);
    }
    const busy = menuCommandsFor(flags({ status: 1 }, true), 'videoPlatform.channels');
    assert.ok(!busy.includes('startChannel') && !busy.includes('stopChannel'));
    const pull = menuCommandsFor(flags({ status: 3, signalType: '2' }), 'videoPlatform.channels');
    assert.ok(pull.includes('stopChannel') && !pull.includes('copyPushUrl'));
  });

  it('offers Delete only on stopped or new channels (the platform refuses to delete a running one), never while busy', () => {
    const flags = (fields: Partial<Channel>, busy = false): string => channelContextValue(channel(fields), busy);
    for (const status of [0, 1] as const)
      assert.ok(
        menuCommandsFor(flags({ status }), 'videoPlatform.channels').includes('deleteChannel'),
        `status ${status}`,
      );
    for (const status of [2, 3, 5] as const)
      assert.ok(
        !menuCommandsFor(flags({ status }), 'videoPlatform.channels').includes('deleteChannel'),
        `status ${status}`,
      );
    assert.ok(!menuCommandsFor(flags({ status: 1 }, true), 'videoPlatform.channels').includes('deleteChannel'), 'busy');
  });

  it('shows view title actions that need an account only with one, and hides tree-item-only commands from the palette', () => {
    const always = new Set([
      'videoPlatform.switchAccount',
      'videoPlatform.addAccount',
      'videoPlatform.connectLocalPlatform',
      'videoPlatform.showLog',
    ]);
    for (const entry of pkg.contributes.menus['view/title']!) {
      if (!always.has(entry.command)) assert.match(entry.when ?? '', /videoPlatform\.hasAccount/, entry.command);
    }
    const palette = new Map(pkg.contributes.menus.commandPalette!.map((entry) => [entry.command, entry.when]));
    for (const id of ['videoPlatform.loadMore', 'videoPlatform.retry', 'videoPlatform.refreshItem'])
      assert.equal(palette.get(id), 'false', id);
    // Every command that talks to the platform shows in the palette only with an account.
    const needAccount = pkg.contributes.commands
      .map((entry) => entry.command)
      .filter(
        (id) =>
          !always.has(id) &&
          ![
            'videoPlatform.validateDocument',
            'videoPlatform.createOrUpdateFromDocument',
            'videoPlatform.refreshAuthoringReferences',
            'videoPlatform.editAccount',
            'videoPlatform.removeAccount',
            // Any account, active or not (hasAnyAccount).
            'videoPlatform.chooseDocumentAccount',
            // Any address, asked for: no account needed.
            'videoPlatform.inspectStream',
            'videoPlatform.checkContent',
            'videoPlatform.previewStream',
            'videoPlatform.openPlayerInBrowser',
            // Looks for ffmpeg on this machine.
            'videoPlatform.setUpFfmpeg',
            // A template group file or document and a local reference: no account needed.
            'videoPlatform.evaluateTemplateGroup',
          ].includes(id),
      )
      .filter((id) => palette.get(id) !== 'false');
    for (const id of needAccount)
      assert.match(palette.get(id) ?? '', /videoPlatform\.(hasAccount|channelsFiltered|videosFiltered)/, id);
  });

  it('offers Switch, Edit and Remove Account whenever any account exists, active or not, and sets every context key it tests', () => {
    const palette = new Map(pkg.contributes.menus.commandPalette!.map((entry) => [entry.command, entry.when]));
    for (const id of ['videoPlatform.switchAccount', 'videoPlatform.editAccount', 'videoPlatform.removeAccount'])
      assert.equal(palette.get(id), 'videoPlatform.hasAnyAccount', id);
    const title = pkg.contributes.menus['view/title']!.find((entry) => entry.command === 'videoPlatform.switchAccount');
    assert.match(title?.when ?? '', /videoPlatform\.hasAnyAccount/);
    // A context key that nothing sets is always false: every one a when clause tests is set by the code.
    const used = new Set(
      JSON.stringify(pkg.contributes.menus).match(/videoPlatform\.(?:has|channels|videos)\w*(?=[\s)"&|]|$)/g) ?? [],
    );
    used.delete('videoPlatform.channels');
    used.delete('videoPlatform.videos');
    assert.ok(used.has('videoPlatform.hasAnyAccount'));
    for (const key of used) assert.ok(CONTEXT_KEYS.includes(key), `${key} is tested in a when clause but never set`);
  });

  it('offers Inspect Stream, Preview and Open Player in Browser where the item has a stream, and on .m3u8/.mp4 files', () => {
    const channels = (fields: Partial<Channel>): string[] =>
      menuCommandsFor(channelContextValue(channel(fields), false), 'videoPlatform.channels');
    assert.ok(channels({ status: 2 }).includes('inspectStream'), 'a channel with an HLS group');
    assert.ok(
      !channels({ status: 2, outputGroupList: [{ protocolType: 2 }] as Channel['outputGroupList'] }).includes(
        'inspectStream',
      ),
      'RTMP only',
    );
    const output = (protocolType: 1 | 2): string[] =>
      menuCommandsFor(
        outputView({ id: 'o', protocolType, isDefault: '0' } as LiveOutput).contextValue,
        'videoPlatform.channels',
      );
    assert.ok(output(1).includes('inspectStream') && output(1).includes('openPlayerInBrowser'));
    assert.ok(!output(2).includes('inspectStream'));
    // Simulated live media (a local platform without ffmpeg): nothing to play or inspect on the channel, its
    // groups or its outputs; the address can still be copied.
    const simulated = [
      channelContextValue(channel({ status: 2 }), false, true),
      outputGroupView(
        { id: 'g', protocolType: 1, liveOutputs: [], outputTemplateList: [] } as unknown as OutputGroup,
        true,
      ).contextValue,
      outputView({ id: 'o', protocolType: 1, isDefault: '0' } as LiveOutput, true).contextValue,
    ].map((value) => menuCommandsFor(value, 'videoPlatform.channels'));
    for (const offered of simulated) {
      for (const id of ['inspectStream', 'openPlayerInBrowser', 'openItemAddress'])
        assert.ok(!offered.includes(id), id);
    }
    assert.ok(simulated[2]!.includes('copyItemAddress'));
    const videos = menuCommandsFor(
      videoContextValue({ status: 2, videoType: 0 } as Video, false),
      'videoPlatform.videos',
    );
    for (const id of ['inspectStream', 'previewStream', 'openPlayerInBrowser']) assert.ok(videos.includes(id), id);
    assert.ok(
      !menuCommandsFor(videoContextValue({ status: 0, videoType: 0 } as Video, false), 'videoPlatform.videos').includes(
        'inspectStream',
      ),
    );
    for (const id of ['inspectStream', 'previewStream'])
      assert.ok(menuCommandsFor('rendition+hls+mp4+default', 'videoPlatform.videos').includes(id), id);
    const fileMenus = [...pkg.contributes.menus['editor/title']!, ...pkg.contributes.menus['explorer/context']!];
    const inspectFiles = fileMenus.filter((entry) => entry.command === 'videoPlatform.inspectStream');
    assert.equal(inspectFiles.length, 2, 'editor title and explorer');
    for (const entry of inspectFiles) assert.match(entry.when ?? '', /m3u8\|mp4/);
    assert.equal(pkg.contributes.configuration.properties['videoPlatform.ffmpegPath']?.default, '');
  });

  it('offers copy on outputs, retry on errors, play addresses and transcoding on finished videos only', () => {
    const output = outputView({
      id: 'o',
      protocolType: 1,
      isDefault: '1',
      videoWidth: 1,
      videoHeight: 1,
      videoBitrate: 1,
      audioBitrate: 1,
      publicOutputUrl: 'http://x',
    } as LiveOutput);
    assert.ok(menuCommandsFor(output.contextValue, 'videoPlatform.channels').includes('copyPlayUrl'));
    const group = outputGroupView({
      id: 'g',
      protocolType: 1,
      isRecord: '1',
      liveOutputs: [],
      outputTemplateList: [],
    } as unknown as OutputGroup);
    // An HLS group can be inspected (its content checked too) and played; an RTMP group cannot. Both have
    // addresses to copy.
    assert.deepEqual(menuCommandsFor(group.contextValue, 'videoPlatform.channels'), [
      'inspectStream',
      'checkContent',
      'openPlayerInBrowser',
      'copyItemAddress',
      'openItemAddress',
    ]);
    const rtmpGroup = outputGroupView({
      id: 'g',
      protocolType: 2,
      liveOutputs: [],
      outputTemplateList: [],
    } as unknown as OutputGroup);
    assert.deepEqual(menuCommandsFor(rtmpGroup.contextValue, 'videoPlatform.channels'), ['copyItemAddress']);
    assert.deepEqual(menuCommandsFor('error', 'videoPlatform.videos'), ['retry']);
    const video = (status: Video['status'], videoType: 0 | 1 = 0): string[] =>
      menuCommandsFor(videoContextValue({ status, videoType } as Video, false), 'videoPlatform.videos');
    assert.ok(video(2).includes('showVideoPlayUrls') && video(2).includes('transcodeVideos'));
    assert.ok(video(2, 1).includes('transcodeVideos'), 'VR videos too');
    for (const status of [1, 6, 7] as const) assert.ok(!video(status).includes('transcodeVideos'), `status ${status}`);
    // The menu and the palette's pick agree on which states can be transcoded.
    for (const status of [0, 1, 2, 3, 4, 5, 6, 7] as const) {
      assert.equal(video(status).includes('transcodeVideos'), canTranscode({ status } as Video), `status ${status}`);
    }
    assert.ok(!video(0).includes('showVideoPlayUrls'));
  });

  it('offers playback addresses on every video with renditions (also queued or transcoded again), as the command decides', () => {
    const stream = [{ idx: 0, name: '720p' }] as unknown as Video['transcodedVideoList'];
    const menu = (
      status: Video['status'],
      transcodedVideoList: Video['transcodedVideoList'],
      videoType: 0 | 1 = 0,
      busy = false,
    ): string[] =>
      menuCommandsFor(
        videoContextValue({ status, videoType, transcodedVideoList } as Video, busy),
        'videoPlatform.videos',
      );
    for (const status of [6, 7] as const) {
      assert.ok(menu(status, stream).includes('showVideoPlayUrls'), `status ${status} with renditions`);
      assert.ok(!menu(status, []).includes('showVideoPlayUrls'), `status ${status} without`);
      assert.ok(!menu(status, stream).includes('transcodeVideos'), `status ${status}: already transcoding`);
    }
    for (const status of [0, 1, 2, 3, 4, 5, 6, 7] as const) {
      for (const list of [[], stream]) {
        for (const videoType of [0, 1] as const) {
          const offered = menu(status, list, videoType);
          const record = { status, videoType, transcodedVideoList: list } as unknown as Video;
          assert.equal(
            offered.includes('showVideoPlayUrls'),
            hasRenditions(record),
            `addresses: status ${status}, ${list.length} renditions, type ${videoType}`,
          );
          assert.equal(
            offered.includes('transcodeVideos'),
            canTranscode(record),
            `transcode: status ${status}, ${list.length} renditions, type ${videoType}`,
          );
        }
      }
    }
    assert.ok(!menu(2, stream, 0, true).includes('transcodeVideos'), 'not while busy');
  });

  it('offers Upload Video on the media files the command takes (Explorer, several at once), and in the Videos view title', () => {
    const explorer = pkg.contributes.menus['explorer/context']!.filter(
      (e) => e.command === 'videoPlatform.uploadVideo',
    );
    assert.equal(explorer.length, 1);
    const when = explorer[0]!.when ?? '';
    assert.match(when, /videoPlatform\.hasAccount/);
    assert.match(when, /!explorerResourceIsFolder/);
    const pattern = /resourceExtname =~ \/(.+?)\/i/.exec(when);
    assert.ok(pattern, when);
    const extname = new RegExp(pattern[1]!, 'i');
    for (const extension of MEDIA_EXTENSIONS) assert.ok(extname.test(`.${extension}`), `.${extension} is offered`);
    for (const other of ['.json', '.txt', '.mp4.json', '']) assert.ok(!extname.test(other), `${other} is not offered`);
    const title = pkg.contributes.menus['view/title']!.find((e) => e.command === 'videoPlatform.uploadVideo');
    assert.equal(title?.when, 'view == videoPlatform.videos && videoPlatform.hasAccount');
    const palette = pkg.contributes.menus.commandPalette!.find((e) => e.command === 'videoPlatform.uploadVideo');
    assert.equal(palette?.when, 'videoPlatform.hasAccount');
  });
});
