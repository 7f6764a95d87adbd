/**
 * Entry point: wiring only. Builds the ports, calls compose() (src/app/compose.ts), registers every row of the
 * command table through runCommand, and creates the views, the status bar and the authoring features.
 * Activation is implicit (VS Code derives onView / onCommand events from the contributed views and commands):
 * opening the Video Platform container activates it. With `npm start`, the launched window shows that
 * container, so activation also picks up the VIDEO_PLATFORM_DEV_* environment and makes its account active.
 */
import * as vscode from 'vscode';
import { accountContextKeys, accountStatus } from '../app/accounts/accountContext';
import { inBackground } from '../app/failures';
import { COMMANDS } from '../app/commands/commandTable';
import { registerConfigs } from './configs';
import { runCommand } from '../app/commands/runCommand';
import { compose } from '../app/compose';
import type { CommandArgs, ViewId } from '../app/context';
import { CHANNELS_FILTERED_KEY, VIDEOS_FILTERED_KEY } from '../app/contextKeys';
import { setTranslator } from '../l10n/l10n';
import type { TreeNode } from '../app/tree/nodes';
import type { LocalPlatformOptions } from '../localPlatform/server';
import { createAuthoringFeatures } from './authoring/languageFeatures';
import { registerDocumentAccountLens } from './documentAccountLens';
import { createVscodeEditor, wrapDocument } from './editor';
import { createPlaylistDiagnostics } from './playlistDiagnostics';
import { createCallbacksView, createResourceView } from './resourceView';
import { CONNECTION_SETTINGS, settings, VIEW_SETTINGS } from './settings';
import { AccountStatusBar, MediaToolsStatusBar } from './statusBar';
import { channelHealthTooltips } from '../app/health/tooltips';
import { CHANNELS_VIEW, createView, revealNode, VIDEOS_VIEW, type View } from './views';
import { createVscodeUi } from './vscodeUi';
import { createWebPanels } from './webPanels';

/**
 * VS Code's arguments as the command table's: a document URI from an editor title; from a view the clicked
 * element and the selected elements; anything else (an id, a record from another command) as the node.
 */
function commandArgs(raw: readonly unknown[]): CommandArgs {
  const [first, second] = raw;
  if (first instanceof vscode.Uri) {
    // From the Explorer: the clicked resource and the selection (which holds it) as file paths.
    const selected = Array.isArray(second) && second.every((item) => item instanceof vscode.Uri) ? second : [first];
    return { uri: first.toString(), files: (selected as vscode.Uri[]).map((uri) => uri.fsPath) };
  }
  return {
    ...(first !== undefined && first !== null ? { node: first } : {}),
    ...(Array.isArray(second) ? { selection: second } : {}),
  };
}

let shutdown: (() => Promise<void>) | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const subscriptions = context.subscriptions;
  const log = vscode.window.createOutputChannel('Video Platform', { log: true });
  subscriptions.push(log);
  const views: Partial<Record<ViewId, View>> = {};
  // The core's l10n.t (src/l10n/l10n.ts) looks its strings up in VS Code's bundle (l10n/bundle.l10n.<lang>.json).
  subscriptions.push({
    dispose: setTranslator((message, args) =>
      Array.isArray(args) ? vscode.l10n.t(message, ...args) : vscode.l10n.t(message, args as Record<string, string>),
    ),
  });

  const ctx = await compose({
    ui: createVscodeUi(log),
    log,
    state: context.globalState,
    secrets: context.secrets,
    workspaceState: context.workspaceState,
    settings,
    editor: createVscodeEditor(),
    diagnostics: (references) => createAuthoringFeatures(references, subscriptions, log),
    storageDir: context.globalStorageUri.fsPath,
    // Loaded on first use: the bundle leaves the local platform in a file of its own (scripts/build.mjs).
    startLocalPlatform: async (options: LocalPlatformOptions) =>
      (await import('../localPlatform/server')).startLocalPlatform(options),
    revealNode: async (view: ViewId, node: TreeNode) => {
      const target = views[view];
      if (target) await revealNode(target, node);
    },
    env: process.env,
    panels: createWebPanels(subscriptions),
    playlistProblems: createPlaylistDiagnostics(subscriptions),
  });
  // The client and the local platform close when the extension stops: deactivate awaits this.
  shutdown = () => ctx.dispose();
  subscriptions.push({ dispose: () => inBackground(ctx.log, 'Closing the extension', ctx.dispose()) });

  // One closure shape for every row: the table is plain data, nothing else is made per command.
  for (const row of COMMANDS)
    subscriptions.push(
      vscode.commands.registerCommand(row.id, (...raw: unknown[]) => runCommand(ctx, row, commandArgs(raw))),
    );

  // The views' models are made when VS Code first asks a view for its items (or a command uses them).
  const { channels, videos, resources, callbacks, channelPoller, videoPoller } = ctx.views;
  views.channels = createView(
    CHANNELS_VIEW,
    channels,
    channelPoller,
    CHANNELS_FILTERED_KEY,
    subscriptions,
    ctx.stills,
    channelHealthTooltips(ctx),
  );
  views.videos = createView(VIDEOS_VIEW, videos, videoPoller, VIDEOS_FILTERED_KEY, subscriptions, ctx.stills);
  createResourceView(resources, subscriptions);
  createCallbacksView(callbacks, subscriptions);

  registerDocumentAccountLens(ctx, subscriptions);
  registerConfigs(ctx, subscriptions);

  const statusBar = new AccountStatusBar();
  subscriptions.push(statusBar);
  // The status bar and the context keys of the menus follow every change of the profiles (a
  // profile added or removed while another is active, or none), not only switches.
  const showAccount = (): void => {
    statusBar.show(accountStatus(ctx.accounts, ctx.localPlatform.mediaDescription));
    for (const [key, value] of Object.entries(accountContextKeys(ctx.accounts)))
      inBackground(ctx.log, `Setting ${key}`, vscode.commands.executeCommand('setContext', key, value));
  };
  subscriptions.push(
    ctx.accounts.onDidChange(showAccount),
    ctx.connection.onDidChange(showAccount),
    ctx.localPlatform.onDidStart(showAccount),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (VIEW_SETTINGS.some((key) => event.affectsConfiguration(key))) {
        channels.ifMade?.refresh();
        videos.ifMade?.refresh();
      }
      if (CONNECTION_SETTINGS.some((key) => event.affectsConfiguration(key))) ctx.connection.restart();
    }),
  );
  showAccount();

  // ffmpeg: looked for after activation (its check runs a tiny encode), again when the setting changes.
  const toolsBar = new MediaToolsStatusBar();
  subscriptions.push(toolsBar);
  const showTools = (): void => {
    inBackground(
      ctx.log,
      'Looking for ffmpeg',
      ctx.inspection.tools.status(ctx.log).then((status) => toolsBar.show(status)),
    );
  };
  subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('videoPlatform.ffmpegPath')) showTools();
    }),
  );
  // Not during activation: the check spawns ffmpeg twice.
  const firstLook = setTimeout(showTools, 1000);
  subscriptions.push({ dispose: () => clearTimeout(firstLook) });

  // The Problems of open .m3u8 documents: checked on open, on change (debounced), cleared on close.
  for (const document of ctx.editor.openDocuments()) ctx.playlists.check(document);
  subscriptions.push(
    vscode.workspace.onDidOpenTextDocument((document) => ctx.playlists.check(wrapDocument(document))),
    vscode.workspace.onDidChangeTextDocument((event) => ctx.playlists.changed(wrapDocument(event.document))),
    vscode.workspace.onDidCloseTextDocument((document) => ctx.playlists.closed(document.uri.toString())),
  );
}

/** Closes the client and the local platform (VS Code awaits this); views go with context.subscriptions. */
export async function deactivate(): Promise<void> {
  const stop = shutdown;
  shutdown = undefined;
  await stop?.();
}
