/**
 * The command handlers, by the names the command table gives them (./commandTable.ts). The extension's bundle leaves
 * them in a part of their own (dist/lazy/commands.js, scripts/build.mjs), loaded when a command first runs: activation
 * needs only the table's ids and titles. Tests and benchmarks import the sources as they are.
 */
import { chooseDocumentAccount } from '../accounts/documentAccountCommands';
import {
  addAccount,
  connectLocalPlatform,
  editAccount,
  removeAccount,
  switchAccount,
} from '../accounts/accountCommands';
import {
  createOrUpdateCommand,
  openChannelAsFileCommand,
  refreshReferencesCommand,
  validateDocumentCommand,
} from '../authoring/commands';
import {
  applyPlanCommand,
  planFolderCommand,
  planToPutMineBackCommand,
  pullAccountIntoFolder,
  takePlatformVersionCommand,
} from '../configs/lazy';
import {
  copyCallbackSecret,
  openCallbackDelivery,
  refreshCallbacks,
  resendCallback,
  setCallbackFaults,
  triggerCallback,
} from './callbackActions';
import { compareWithPlatform } from './compareWithPlatform';
import { copyPlayAddress, copyPushAddress } from './copyAddresses';
import { copyResourceId } from './copyResourceId';
import { createResource } from './createResource';
import { deleteResource } from './deleteResource';
import { copyItemAddress, openItemAddress } from './itemAddresses';
import { openResourceAsFile } from './openResourceAsFile';
import { refreshResources } from './refreshResources';
import { updateResourceFromFile } from './updateResourceFromFile';
import { createCategory } from './createCategory';
import { createChannel } from './createChannel';
import { createLiveLogo } from './createLiveLogo';
import { deleteChannels } from './deleteChannel';
import { clearChannelFilter, clearVideoFilter, filterChannels, filterVideos } from './filterCommands';
import { showChannelPlayAddresses, showVideoPlayAddresses } from './playAddresses';
import { channelHealthCommand } from '../health/command';
import {
  checkContent,
  evaluateTemplateGroup,
  inspectStream,
  openPlayerInBrowser,
  previewStream,
} from './inspectCommands';
import { setUpFfmpeg } from './setUpFfmpeg';
import { startChannels, stopChannels } from './startStopChannel';
import { clearStreamFaults, injectStreamFault } from './streamFaults';
import { transcodeVideos } from './transcodeVideos';
import { updateLiveTemplate } from './updateLiveTemplate';
import { uploadVideos } from './uploadVideos';
import { loadMore, refreshChannels, refreshItem, refreshVideos, retry } from './viewCommands';

export {
  addAccount,
  applyPlanCommand,
  channelHealthCommand,
  checkContent,
  chooseDocumentAccount,
  clearChannelFilter,
  clearStreamFaults,
  clearVideoFilter,
  compareWithPlatform,
  connectLocalPlatform,
  copyCallbackSecret,
  copyItemAddress,
  copyPlayAddress,
  copyPushAddress,
  copyResourceId,
  createCategory,
  createChannel,
  createLiveLogo,
  createOrUpdateCommand,
  createResource,
  deleteChannels,
  deleteResource,
  editAccount,
  evaluateTemplateGroup,
  filterChannels,
  filterVideos,
  injectStreamFault,
  inspectStream,
  loadMore,
  openCallbackDelivery,
  openChannelAsFileCommand,
  openItemAddress,
  openPlayerInBrowser,
  openResourceAsFile,
  planFolderCommand,
  planToPutMineBackCommand,
  previewStream,
  pullAccountIntoFolder,
  refreshCallbacks,
  refreshChannels,
  refreshItem,
  refreshReferencesCommand,
  refreshResources,
  refreshVideos,
  removeAccount,
  resendCallback,
  retry,
  setCallbackFaults,
  setUpFfmpeg,
  showChannelPlayAddresses,
  showVideoPlayAddresses,
  startChannels,
  stopChannels,
  switchAccount,
  takePlatformVersionCommand,
  transcodeVideos,
  triggerCallback,
  updateLiveTemplate,
  updateResourceFromFile,
  uploadVideos,
  validateDocumentCommand,
};
