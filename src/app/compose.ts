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
import { memberOf, OnFirstUse } from './util/onFirstUse';

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

/**
 * The views' models and the pollers of their settling items, each made on first use (the view first asks for its
 * items, or a command uses it): activation makes none. A poller is made with its model, so it hears the first load.
 */
function viewModels(ports: Ports, { accounts, localPlatform, connection }: Base) {
  const { log, settings } = ports;
  const pageSize = (): number => settings.pageSize();
  const interval = (): number => settings.pollIntervalMs();
  const channelView = new OnFirstUse(() => {
    const model = new ChannelTreeModel(connection, pageSize);
    model.liveSimulated = () =>
      localPlatform.isLiveSimulated &&
      accounts.list().some((a) => a.id === connection.accountId && a.origin === 'local');
    // Starting channels by id, live ones by re-reading their pages (src/app/tree/liveWatch.ts).
    const watch = new LiveWatch(model, { pollIntervalMs: interval, liveRefreshMs: () => settings.liveRefreshMs() });
    return { model, poller: new Poller(watch, () => watch.intervalMs(), log) };
  });
  const videoView = new OnFirstUse(() => {
    const model = new VideoTreeModel(connection, pageSize);
    return { model, poller: new Poller(model, interval, log) };
  });
  return {
    channels: memberOf(channelView, (view) => view.model),
    channelPoller: memberOf(channelView, (view) => view.poller),
    videos: memberOf(videoView, (view) => view.model),
    videoPoller: memberOf(videoView, (view) => view.poller),
    resources: new OnFirstUse(() => new ResourceTreeModel(connection, pageSize)),
  };
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

/**
 * ffmpeg, the proxy-aware fetch and the panels, made on first use (a command, the status bar's first look for
 * ffmpeg a second after activation, a tooltip's picture); the playlists' Problems and the tooltips' pictures.
 */
function inspectionServices(ports: Ports, { localPlatform }: Base) {
  const { settings } = ports;
  const proxyFetch = new OnFirstUse(() => new ProxyFetch(() => settings.clientOptions()));
  const inspection = new OnFirstUse(
    () =>
      new InspectionServices(
        new MediaToolsFinder(
          () => settings.ffmpegPath() ?? '',
          (dir) => settings.updateFfmpegPath(dir),
        ),
        proxyFetch.value,
        ports.panels,
        ports.state,
        ports.storageDir,
        localPlatform,
      ),
  );
  const playlists = new PlaylistDocuments(ports.playlistProblems);
  const stills = new Stills((url, signal) => proxyFetch.value.get(url, signal));
  return { proxyFetch, inspection, playlists, stills };
}

/**
 * What follows a switch of account, and the message when a followed transcoding ends. A model not made yet has
 * nothing of the old account to drop: it is made for the account active then.
 */
function subscribe(ui: Ports['ui'], { connection }: Base, models: Models, revalidateAll: () => void) {
  const { channels, videos, resources } = models;
  let shownAccount = connection.accountId;
  const subscriptions = [
    connection.onDidChange(() => {
      // Another account: its filters, sorting and grouping were the old account's (a search, a category, an order).
      if (connection.accountId !== shownAccount) {
        shownAccount = connection.accountId;
        channels.ifMade?.clearFilter();
        videos.ifMade?.clearFilter();
        // Documents not tied to an account are checked against the active one: check them all again.
        revalidateAll();
      }
      // A new account: nothing cached from the old one may show.
      channels.ifMade?.reset();
      videos.ifMade?.reset();
      resources.ifMade?.reset();
    }),
  ];
  videos.whenMade((model) =>
    subscriptions.push(
      model.onSettled((video) => {
        const name = video.title || video.fileName;
        const status = videoStatusText(video.status).toLowerCase();
        if (video.status === VideoStatuses.completed)
          void ui.info(l10n.t('Transcoding finished "{0}": {1}.', name, status));
        else void ui.warn(l10n.t('Transcoding ended "{0}": {1}.', name, status));
      }),
    ),
  );
  return subscriptions;
}

/** A channel or a video shown in its view, or why not (the filter hides it). */
function revealer(ports: Ports, { channels, videos }: Models): AppContext['reveal'] {
  return {
    async channel(id: string): Promise<void> {
      const node = await channels.value.locateChannel(id);
      if (node) await ports.revealNode('channels', node);
      else void ports.ui.info(l10n.t('The channel is not in the Live channels list with the current filter.'));
    },
    async video(id: string): Promise<void> {
      const node = await videos.value.locateVideo(id);
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
  const { channels, videos, resources, channelPoller, videoPoller } = models;
  const { documentAccounts, references, diagnostics, editor } = authoringServices(ports, base);
  const { proxyFetch, inspection, playlists, stills } = inspectionServices(ports, base);
  const subscriptions = subscribe(ui, base, models, () => diagnostics.revalidateAll());
  // The Callbacks view (src/app/callbacks/): the local platform's deliveries, read when the view asks.
  const callbacks = new OnFirstUse(() => new CallbackTreeModel(() => listCallbacks(ctx)));
  subscriptions.push(connection.onDidChange(() => callbacks.ifMade?.refresh()));
  const ctx: AppContext = {
    ui,
    log,
    connection,
    accounts,
    localPlatform,
    views: { channels, videos, resources, callbacks, channelPoller, videoPoller },
    models: {
      get channels() {
        return channels.value;
      },
      get videos() {
        return videos.value;
      },
      get resources() {
        return resources.value;
      },
      get callbacks() {
        return callbacks.value;
      },
    },
    poller: {
      get channels() {
        return channelPoller.value;
      },
      get videos() {
        return videoPoller.value;
      },
    },
    reveal: revealer(ports, models),
    editor,
    documentAccounts,
    authoring: { references, diagnostics },
    get inspection() {
      return inspection.value;
    },
    playlists,
    stills,
    ...(ports.pickLimit !== undefined ? { pickLimit: ports.pickLimit } : {}),
    async dispose(): Promise<void> {
      for (const subscription of subscriptions) subscription.dispose();
      channelPoller.ifMade?.dispose();
      videoPoller.ifMade?.dispose();
      playlists.dispose();
      await proxyFetch.ifMade?.close();
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
