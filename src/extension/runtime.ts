import * as vscode from 'vscode';
import type { PlatformClient } from '../api/client';
import { startLocalPlatform } from '../localPlatform/server';
import { accountContextKeys, accountStatus } from './accounts/accountContext';
import { AccountStore } from './accounts/accountStore';
import { Connection } from './accounts/connection';
import { applyDevEnvironment } from './accounts/devAccount';
import { LocalPlatformHost } from './accounts/localPlatformHost';
import { AccountStatusBar } from './accounts/statusBar';
import { attachDeps, type CommandDeps } from './commands/deps';
import type { ExtensionServices } from './services';
import { settings } from './settings';
import { ChannelTreeModel } from './tree/channelTree';
import { Poller } from './tree/poller';
import { ModelTreeProvider, type TreeModel } from './tree/treeAdapter';
import { videoStatusText } from './tree/videoPresentation';
import { VideoTreeModel } from './tree/videoTree';
import type { TreeNode } from './tree/nodes';
import { createVscodeUi } from './vscodeUi';

export const CHANNELS_VIEW = 'videoPlatform.channels';
export const VIDEOS_VIEW = 'videoPlatform.videos';

/** Creates a tree view over a model, its poller following visibility, and its filter description. */
function createView(
  id: string,
  model: TreeModel & { readonly filterText: string },
  poller: Poller,
  filteredKey: string,
  subscriptions: vscode.Disposable[],
): { view: vscode.TreeView<TreeNode>; provider: ModelTreeProvider } {
  const provider = new ModelTreeProvider(model);
  const view = vscode.window.createTreeView(id, {
    treeDataProvider: provider,
    canSelectMany: true,
    showCollapseAll: true,
  });
  const describe = (): void => {
    view.description = model.filterText || undefined;
    void vscode.commands.executeCommand('setContext', filteredKey, model.filterText !== '');
  };
  describe();
  subscriptions.push(
    provider,
    view,
    view.onDidChangeVisibility((event) => poller.setVisible(event.visible)),
    model.onDidChange((node) => {
      if (node === undefined) describe();
      poller.kick();
    }),
    { dispose: () => poller.dispose() },
  );
  poller.setVisible(view.visible);
  return { view, provider };
}

/** How long a reveal waits for VS Code to fetch the refreshed tree, and then for the selection to show. */
const REVEAL_WAIT_MS = 3_000;
const REVEAL_CONFIRM_MS = 1_000;

/** Resolves true once the view's selection holds the node (by its item id), or false after timeoutMs. */
function whenSelected(view: vscode.TreeView<TreeNode>, node: TreeNode, timeoutMs: number): Promise<boolean> {
  const id = node.view().id;
  const selected = (): boolean =>
    view.selection.some((candidate) => candidate === node || (id !== undefined && candidate.view().id === id));
  if (selected()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (value: boolean): void => {
      clearTimeout(timer);
      subscription.dispose();
      resolve(value);
    };
    const timer = setTimeout(() => done(selected()), timeoutMs);
    const subscription = view.onDidChangeSelection(() => {
      if (selected()) done(true);
    });
  });
}

/**
 * Reveals, selects and focuses a node. VS Code ignores a reveal of an element it has not fetched and shown
 * yet (a channel created a moment ago: the tree refreshed, but not yet read again), and says nothing; so this
 * waits until VS Code has read the tree again, reveals, and tries again while the selection does not follow.
 * A hidden view is read only once the reveal has opened it.
 */
async function revealNode(view: vscode.TreeView<TreeNode>, provider: ModelTreeProvider, node: TreeNode): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (view.visible) await provider.fetched.whenFetched(node.parent, REVEAL_WAIT_MS);
    await view.reveal(node, { select: true, focus: true });
    if (await whenSelected(view, node, REVEAL_CONFIRM_MS)) return;
  }
}

/**
 * Builds the extension: accounts and connection, the local platform host, the two views with
 * their pollers, the status bar item, and the services handed to every command.
 */
export async function createRuntime(
  context: vscode.ExtensionContext,
): Promise<{ services: ExtensionServices; shutdown: () => Promise<void> }> {
  const subscriptions = context.subscriptions;
  const log = vscode.window.createOutputChannel('Video Platform', { log: true });
  subscriptions.push(log);
  const ui = createVscodeUi(log);
  const store = new AccountStore(context.globalState, context.secrets);
  const host = new LocalPlatformHost(store, context.globalStorageUri.fsPath, startLocalPlatform, log);
  const connection = new Connection({
    store,
    log,
    clientOptions: settings.clientOptions,
    ensureLocal: () => host.ensure(),
  });
  // The client and the local platform close when the extension stops: deactivate awaits this.
  const shutdown = async (): Promise<void> => {
    await connection.dispose();
    await host.dispose();
  };
  subscriptions.push({ dispose: () => void shutdown() });

  const channels = new ChannelTreeModel(connection, settings.pageSize);
  const videos = new VideoTreeModel(connection, settings.pageSize);
  const channelPoller = new Poller(channels, settings.pollIntervalMs, log);
  const videoPoller = new Poller(videos, settings.pollIntervalMs, log);
  const channelView = createView(
    CHANNELS_VIEW,
    channels,
    channelPoller,
    'videoPlatform.channelsFiltered',
    subscriptions,
  );
  const videoView = createView(VIDEOS_VIEW, videos, videoPoller, 'videoPlatform.videosFiltered', subscriptions);

  const statusBar = new AccountStatusBar();
  subscriptions.push(statusBar);
  // The status bar and the context keys of the menus follow every change of the profiles (a
  // profile added or removed while another is active, or none), not only switches.
  const showAccount = (): void => {
    statusBar.show(accountStatus(store));
    for (const [key, value] of Object.entries(accountContextKeys(store)))
      void vscode.commands.executeCommand('setContext', key, value);
  };
  subscriptions.push(
    store.onDidChange(showAccount),
    connection.onDidChange(() => {
      // A new account: nothing cached from the old one may show.
      channels.reset();
      videos.reset();
      showAccount();
    }),
    videos.onSettled((video) => {
      const text = `"${video.title || video.fileName}": ${videoStatusText(video.status).toLowerCase()}.`;
      if (video.status === 2) void ui.info(`Transcoding finished ${text}`);
      else void ui.warn(`Transcoding ended ${text}`);
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('videoPlatform.pageSize')) {
        channels.refresh();
        videos.refresh();
      }
      if (event.affectsConfiguration('videoPlatform.requestTimeoutSeconds') || event.affectsConfiguration('http.proxy'))
        connection.restart();
    }),
  );

  const revealChannel = async (channelId: string): Promise<void> => {
    const node = await channels.locateChannel(channelId);
    if (node) await revealNode(channelView.view, channelView.provider, node);
    else void ui.info('The channel is not in the Live channels list with the current filter.');
  };
  const revealVideo = async (videoId: string): Promise<void> => {
    const node = await videos.locateVideo(videoId);
    if (node) await revealNode(videoView.view, videoView.provider, node);
    else void ui.info('The video is not in the Videos list with the current filter.');
  };

  const services: ExtensionServices = {
    context,
    log,
    activeClient: (): Promise<PlatformClient> => connection.activeClient(),
    refreshViews(what = 'all'): void {
      if (what !== 'videos') channels.refresh();
      if (what !== 'channels') videos.refresh();
    },
    revealChannel,
    revealVideo,
  };
  const deps: CommandDeps = {
    ui,
    log,
    connection,
    accounts: store,
    localPlatform: host,
    channels,
    videos,
    poll: { channels: () => channelPoller.kick(), videos: () => videoPoller.kick() },
    reveal: { channel: revealChannel, video: revealVideo },
  };
  attachDeps(services, deps);

  // `npm start` hands its platform over through the environment.
  try {
    const devAccount = await applyDevEnvironment(process.env, store, log);
    if (devAccount) await connection.switchTo(devAccount);
  } catch (error) {
    log.error(`Could not use the npm start account: ${error instanceof Error ? error.message : String(error)}`);
  }
  showAccount();
  return { services, shutdown };
}
