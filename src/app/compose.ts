import { AccountStore } from './accounts/accountStore';
import { Connection } from './accounts/connection';
import { applyDevEnvironment } from './accounts/devAccount';
import { DocumentAccounts } from './accounts/documentAccounts';
import { LocalPlatformHost } from './accounts/localPlatformHost';
import { ReferenceCache } from './authoring/referenceCache';
import type { AppContext, EditorPort } from './context';
import { MediaToolsFinder } from './inspect/mediaTools';
import { PlaylistDocuments } from './inspect/playlistDocuments';
import { ProxyFetch } from './inspect/proxyFetch';
import { Stills } from './tree/stills';
import { InspectionServices } from './inspect/services';
import { describeFailure } from './failures';
import { l10n } from '../l10n/l10n';
import { VideoStatuses } from '../api/types';
import type { Ports } from './ports';
import { ChannelTreeModel } from './tree/channelTree';
import { LiveWatch } from './tree/liveWatch';
import { Poller } from './tree/poller';
import { CallbackTreeModel } from './callbacks/callbackTree';
import { listCallbacks } from './commands/callbackActions';
import { ResourceTreeModel } from './tree/resourceTree';
import { videoStatusText } from './tree/videoPresentation';
import { VideoTreeModel } from './tree/videoTree';

type Base = ReturnType<typeof connect>;
type Models = ReturnType<typeof viewModels>;

/** The accounts, the bundled platform and the connection to the active account. */
function connect(ports: Ports) {
  const { log, settings } = ports;
  const accounts = new AccountStore(ports.state, ports.secrets);
  const localPlatform = new LocalPlatformHost(accounts, ports.storageDir, ports.startLocalPlatform, log, {
    state: ports.state,
    ffmpegDir: () => settings.ffmpegPath(),
    callbackUrls: () => settings.callbackUrls(),
    remoteCallbacks: () => settings.remoteCallbacks(),
    saveCallbackUrls: (urls) => settings.updateCallbackUrls(urls),
  });
  const connection = new Connection({
    store: accounts,
    log,
    clientOptions: () => settings.clientOptions(),
    ensureLocal: () => localPlatform.ensure(),
  });
  return { accounts, localPlatform, connection };
}

/** The views' models and the pollers of their settling items. */
function viewModels(ports: Ports, { accounts, localPlatform, connection }: Base) {
  const { log, settings } = ports;
  const channels = new ChannelTreeModel(connection, () => settings.pageSize());
  channels.liveSimulated = () =>
    localPlatform.isLiveSimulated && accounts.list().some((a) => a.id === connection.accountId && a.origin === 'local');
  const videos = new VideoTreeModel(connection, () => settings.pageSize());
  const resources = new ResourceTreeModel(connection, () => settings.pageSize());
  const interval = (): number => settings.pollIntervalMs();
  // Starting channels by id, live ones by re-reading their pages (src/app/tree/liveWatch.ts).
  const channelWatch = new LiveWatch(channels, {
    pollIntervalMs: interval,
    liveRefreshMs: () => settings.liveRefreshMs(),
  });
  const poller = {
    channels: new Poller(channelWatch, () => channelWatch.intervalMs(), log),
    videos: new Poller(videos, interval, log),
  };
  return { channels, videos, resources, poller };
}

/** The documents' accounts, the reference lists and the Problems; the editor whose new documents are tied. */
function authoringServices(ports: Ports, { connection, accounts }: Base) {
  const documentAccounts = new DocumentAccounts(ports.workspaceState ?? ports.state, accounts);
  // A document tied to an account is checked against that account's lists, whichever is active.
  const references = new ReferenceCache((uri) => {
    const bound = uri !== undefined ? documentAccounts.accountOf(uri) : undefined;
    return bound ? connection.clientFor(bound.id) : connection.activeClient();
  }, ports.log);
  const diagnostics = ports.diagnostics(references);
  // What a command opens (Open as File, a new document of a create command) comes from the active account.
  async function openUntitled(fileName: string, text: string): Promise<string> {
    const accountId = connection.accountId;
    const uri = await ports.editor.openUntitled(fileName, text);
    if (accountId !== undefined) {
      await documentAccounts.bind(uri, accountId);
      const document = await ports.editor.document(uri);
      if (document) diagnostics.validate(document);
    }
    return uri;
  }
  // The host's editor with openUntitled tying the new document; its other members as they are.
  const editor: EditorPort = new Proxy(ports.editor, {
    get: (target, key) => {
      if (key === 'openUntitled') return openUntitled;
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { documentAccounts, references, diagnostics, editor };
}

/** ffmpeg, the proxy-aware fetch, the panels, the playlists' Problems and the tooltips' pictures. */
function inspectionServices(ports: Ports, { localPlatform }: Base) {
  const { settings } = ports;
  const proxyFetch = new ProxyFetch(() => settings.clientOptions());
  const inspection = new InspectionServices(
    new MediaToolsFinder(
      () => settings.ffmpegPath() ?? '',
      (dir) => settings.updateFfmpegPath(dir),
    ),
    proxyFetch,
    ports.panels,
    ports.state,
    ports.storageDir,
    localPlatform,
  );
  const playlists = new PlaylistDocuments(ports.playlistProblems);
  const stills = new Stills((url, signal) => proxyFetch.get(url, signal));
  return { proxyFetch, inspection, playlists, stills };
}

/** What follows a switch of account, and the message when a followed transcoding ends. */
function subscribe(ui: Ports['ui'], { connection }: Base, models: Models, revalidateAll: () => void) {
  const { channels, videos, resources } = models;
  let shownAccount = connection.accountId;
  return [
    connection.onDidChange(() => {
      // Another account: its filters, sorting and grouping were the old account's (a search, a category, an order).
      if (connection.accountId !== shownAccount) {
        shownAccount = connection.accountId;
        channels.clearFilter();
        videos.clearFilter();
        // Documents not tied to an account are checked against the active one: check them all again.
        revalidateAll();
      }
      // A new account: nothing cached from the old one may show.
      channels.reset();
      videos.reset();
      resources.reset();
    }),
    videos.onSettled((video) => {
      const name = video.title || video.fileName;
      const status = videoStatusText(video.status).toLowerCase();
      if (video.status === VideoStatuses.completed)
        void ui.info(l10n.t('Transcoding finished "{0}": {1}.', name, status));
      else void ui.warn(l10n.t('Transcoding ended "{0}": {1}.', name, status));
    }),
  ];
}

/** A channel or a video shown in its view, or why not (the filter hides it). */
function revealer(ports: Ports, { channels, videos }: Models): AppContext['reveal'] {
  return {
    async channel(id: string): Promise<void> {
      const node = await channels.locateChannel(id);
      if (node) await ports.revealNode('channels', node);
      else void ports.ui.info(l10n.t('The channel is not in the Live channels list with the current filter.'));
    },
    async video(id: string): Promise<void> {
      const node = await videos.locateVideo(id);
      if (node) await ports.revealNode('videos', node);
      else void ports.ui.info(l10n.t('The video is not in the Videos list with the current filter.'));
    },
  };
}

/**
 * Builds the application from the host's ports: accounts and connection, the local platform host, the views'
 * models and pollers, reveal, the authoring services. The extension (src/vscode/extension.ts) and the tests'
 * harness (test/app/helpers/harness.ts) both build it here, so tests run the wiring the user gets.
 */
export async function compose(ports: Ports): Promise<AppContext> {
  const { ui, log } = ports;
  const base = connect(ports);
  const { accounts, localPlatform, connection } = base;
  const models = viewModels(ports, base);
  const { poller } = models;
  const { documentAccounts, references, diagnostics, editor } = authoringServices(ports, base);
  const { proxyFetch, inspection, playlists, stills } = inspectionServices(ports, base);
  const subscriptions = subscribe(ui, base, models, () => diagnostics.revalidateAll());
  // The Callbacks view (src/app/callbacks/): the local platform's deliveries, read when the view asks.
  const callbacks = new CallbackTreeModel(() => listCallbacks(ctx));
  subscriptions.push(connection.onDidChange(() => callbacks.refresh()));
  const ctx: AppContext = {
    ui,
    log,
    connection,
    accounts,
    localPlatform,
    models: { channels: models.channels, videos: models.videos, resources: models.resources, callbacks },
    poller,
    reveal: revealer(ports, models),
    editor,
    documentAccounts,
    authoring: { references, diagnostics },
    inspection,
    playlists,
    stills,
    ...(ports.pickLimit !== undefined ? { pickLimit: ports.pickLimit } : {}),
    async dispose(): Promise<void> {
      for (const subscription of subscriptions) subscription.dispose();
      poller.channels.dispose();
      poller.videos.dispose();
      playlists.dispose();
      await proxyFetch.close();
      await connection.dispose();
      await localPlatform.dispose();
    },
  };
  await applyDevAccount(ports, base);
  return ctx;
}

/** `npm start` hands its platform over through the environment. */
async function applyDevAccount(ports: Ports, { accounts, connection }: Base): Promise<void> {
  if (!ports.env) return;
  try {
    const devAccount = await applyDevEnvironment(ports.env, accounts, ports.log);
    if (devAccount) await connection.switchTo(devAccount);
  } catch (error) {
    ports.log.error(`Could not use the npm start account: ${describeFailure(error)}`);
  }
}
