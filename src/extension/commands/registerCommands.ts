import type * as vscode from 'vscode';
import {
  addAccount,
  connectLocalPlatform,
  editAccount,
  removeAccount,
  switchAccount,
} from '../accounts/accountCommands';
import type { ExtensionServices } from '../services';
import { copyPlayAddress, copyPushAddress } from './copyAddresses';
import { createCategory } from './createCategory';
import { createChannel } from './createChannel';
import { createLiveLogo } from './createLiveLogo';
import { deleteChannels } from './deleteChannel';
import { depsOf } from './deps';
import { clearChannelFilter, clearVideoFilter, filterChannels, filterVideos } from './filterCommands';
import { showChannelPlayAddresses, showVideoPlayAddresses } from './playAddresses';
import { startChannels, stopChannels } from './startStopChannel';
import { transcodeVideos } from './transcodeVideos';
import { updateLiveTemplate } from './updateLiveTemplate';
import { loadMore, refreshChannels, refreshItem, refreshVideos, retry } from './viewCommands';
import {
  createOrUpdateCommand,
  openChannelAsFileCommand,
  refreshReferencesCommand,
  validateDocumentCommand,
} from '../authoring/commands';
import { authoringSession } from '../authoring/session';

/**
 * One row per command. `run` gets the services and VS Code's arguments: from a view, the clicked
 * element and the selected elements (multi-selection); from the palette, nothing (the handler then
 * asks with a quick pick). Every id here has an entry in package.json `contributes.commands`.
 */
export interface CommandRow {
  readonly id: `videoPlatform.${string}`;
  readonly run: (services: ExtensionServices, ...args: unknown[]) => unknown;
}

export const COMMANDS: readonly CommandRow[] = [
  // Accounts
  { id: 'videoPlatform.addAccount', run: (s) => addAccount(depsOf(s)) },
  { id: 'videoPlatform.switchAccount', run: (s) => switchAccount(depsOf(s)) },
  { id: 'videoPlatform.editAccount', run: (s) => editAccount(depsOf(s)) },
  { id: 'videoPlatform.removeAccount', run: (s) => removeAccount(depsOf(s)) },
  { id: 'videoPlatform.connectLocalPlatform', run: (s) => connectLocalPlatform(depsOf(s)) },
  { id: 'videoPlatform.showLog', run: (s) => s.log.show() },

  // Views
  { id: 'videoPlatform.refreshChannels', run: (s) => refreshChannels(depsOf(s)) },
  { id: 'videoPlatform.refreshVideos', run: (s) => refreshVideos(depsOf(s)) },
  { id: 'videoPlatform.refreshItem', run: (s, ...args) => refreshItem(depsOf(s), ...args) },
  { id: 'videoPlatform.loadMore', run: (s, node) => loadMore(depsOf(s), node) },
  { id: 'videoPlatform.retry', run: (s, node) => retry(depsOf(s), node) },
  { id: 'videoPlatform.filterChannels', run: (s) => filterChannels(depsOf(s)) },
  { id: 'videoPlatform.clearChannelFilter', run: (s) => clearChannelFilter(depsOf(s)) },
  { id: 'videoPlatform.filterVideos', run: (s) => filterVideos(depsOf(s)) },
  { id: 'videoPlatform.clearVideoFilter', run: (s) => clearVideoFilter(depsOf(s)) },

  // Live channels
  { id: 'videoPlatform.startChannel', run: (s, ...args) => startChannels(depsOf(s), ...args) },
  { id: 'videoPlatform.stopChannel', run: (s, ...args) => stopChannels(depsOf(s), ...args) },
  { id: 'videoPlatform.createChannel', run: (s) => createChannel(depsOf(s)) },
  { id: 'videoPlatform.deleteChannel', run: (s, ...args) => deleteChannels(depsOf(s), ...args) },
  { id: 'videoPlatform.showChannelPlayUrls', run: (s, ...args) => showChannelPlayAddresses(depsOf(s), ...args) },
  { id: 'videoPlatform.copyPushUrl', run: (s, ...args) => copyPushAddress(depsOf(s), ...args) },
  { id: 'videoPlatform.copyPlayUrl', run: (s, ...args) => copyPlayAddress(depsOf(s), ...args) },
  { id: 'videoPlatform.createCategory', run: (s) => createCategory(depsOf(s)) },
  { id: 'videoPlatform.updateLiveTemplate', run: (s) => updateLiveTemplate(depsOf(s)) },
  { id: 'videoPlatform.createLiveLogo', run: (s) => createLiveLogo(depsOf(s)) },

  // Videos
  { id: 'videoPlatform.showVideoPlayUrls', run: (s, ...args) => showVideoPlayAddresses(depsOf(s), ...args) },
  { id: 'videoPlatform.transcodeVideos', run: (s, ...args) => transcodeVideos(depsOf(s), ...args) },

  // Authoring
  // (rows of the authoring helper: videoPlatform.validateDocument, videoPlatform.createOrUpdateFromDocument,
  //  videoPlatform.openChannelAsFile, with handlers from src/extension/authoring/)
  { id: 'videoPlatform.validateDocument', run: (s, uri) => validateDocumentCommand(authoringSession(s), uri) },
  {
    id: 'videoPlatform.createOrUpdateFromDocument',
    run: (s, uri) => createOrUpdateCommand(authoringSession(s), s, uri),
  },
  { id: 'videoPlatform.openChannelAsFile', run: (s, node) => (authoringSession(s), openChannelAsFileCommand(s, node)) },
  { id: 'videoPlatform.refreshAuthoringReferences', run: (s) => refreshReferencesCommand(authoringSession(s)) },
];

/** Registers every row; `register` is vscode.commands.registerCommand (a parameter so this module stays testable). */
export function registerCommands(
  services: ExtensionServices,
  register: (id: string, handler: (...args: unknown[]) => unknown) => vscode.Disposable,
): vscode.Disposable[] {
  return COMMANDS.map((row) => register(row.id, (...args: unknown[]) => row.run(services, ...args)));
}
