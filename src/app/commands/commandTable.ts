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
import type { CommandRow } from './runCommand';
import { startChannels, stopChannels } from './startStopChannel';
import { clearStreamFaults, injectStreamFault } from './streamFaults';
import { transcodeVideos } from './transcodeVideos';
import { updateLiveTemplate } from './updateLiveTemplate';
import { uploadVideos } from './uploadVideos';
import { loadMore, refreshChannels, refreshItem, refreshVideos, retry } from './viewCommands';

/**
 * One row per command: `run(ctx, args)` gets the context and, from a view, the clicked item and the selection
 * (`args.node`, `args.selection`), from an editor title the document (`args.uri`), from the palette nothing (the
 * handler then asks with a quick pick). Every row runs through runCommand (./runCommand.ts), which reports a
 * failure as "<title> failed: ...". Every id here has an entry in package.json `contributes.commands`.
 */
export const COMMANDS: readonly CommandRow[] = [
  // Accounts
  { id: 'videoPlatform.addAccount', title: 'Add Video Platform account', run: addAccount },
  { id: 'videoPlatform.switchAccount', title: 'Switch Video Platform account', run: switchAccount },
  { id: 'videoPlatform.editAccount', title: 'Edit Video Platform account', run: editAccount },
  { id: 'videoPlatform.removeAccount', title: 'Remove Video Platform account', run: removeAccount },
  {
    id: 'videoPlatform.connectLocalPlatform',
    title: 'Connect to the local platform',
    run: connectLocalPlatform,
  },
  { id: 'videoPlatform.showLog', title: 'Show the log', run: (ctx) => ctx.ui.showLog() },
  { id: 'videoPlatform.setUpFfmpeg', title: 'Set up ffmpeg', run: setUpFfmpeg },

  // Views
  { id: 'videoPlatform.refreshChannels', title: 'Refresh channels', run: refreshChannels },
  { id: 'videoPlatform.refreshVideos', title: 'Refresh videos', run: refreshVideos },
  { id: 'videoPlatform.refreshItem', title: 'Refresh', run: refreshItem },
  { id: 'videoPlatform.loadMore', title: 'Load more', run: loadMore },
  { id: 'videoPlatform.retry', title: 'Retry', run: retry },
  { id: 'videoPlatform.filterChannels', title: 'Filter channels', run: filterChannels },
  { id: 'videoPlatform.clearChannelFilter', title: 'Clear the channel filter', run: clearChannelFilter },
  { id: 'videoPlatform.filterVideos', title: 'Filter videos', run: filterVideos },
  { id: 'videoPlatform.clearVideoFilter', title: 'Clear the video filter', run: clearVideoFilter },

  // Live channels
  { id: 'videoPlatform.startChannel', title: 'Start channel', run: startChannels },
  { id: 'videoPlatform.stopChannel', title: 'Stop channel', run: stopChannels },
  { id: 'videoPlatform.createChannel', title: 'Create channel', run: createChannel },
  { id: 'videoPlatform.deleteChannel', title: 'Delete channel', run: deleteChannels },
  { id: 'videoPlatform.showChannelPlayUrls', title: 'Playback addresses', run: showChannelPlayAddresses },
  { id: 'videoPlatform.copyPushUrl', title: 'Copy push address', run: copyPushAddress },
  { id: 'videoPlatform.copyPlayUrl', title: 'Copy play address', run: copyPlayAddress },
  { id: 'videoPlatform.createCategory', title: 'Create channel category', run: createCategory },
  { id: 'videoPlatform.updateLiveTemplate', title: 'Update live template', run: updateLiveTemplate },
  { id: 'videoPlatform.createLiveLogo', title: 'Create live logo', run: createLiveLogo },

  // Videos
  { id: 'videoPlatform.showVideoPlayUrls', title: 'Playback addresses', run: showVideoPlayAddresses },
  { id: 'videoPlatform.transcodeVideos', title: 'Transcode videos', run: transcodeVideos },
  { id: 'videoPlatform.uploadVideo', title: 'Upload video', run: uploadVideos },

  // Inspecting and previewing (src/app/inspect/)
  { id: 'videoPlatform.inspectStream', title: 'Inspect stream', run: inspectStream },
  { id: 'videoPlatform.checkContent', title: 'Check content', run: checkContent },
  { id: 'videoPlatform.previewStream', title: 'Preview', run: previewStream },
  { id: 'videoPlatform.openPlayerInBrowser', title: 'Open player in browser', run: openPlayerInBrowser },
  // Stream faults of the local platform (src/localPlatform/faults/)
  { id: 'videoPlatform.injectStreamFault', title: 'Inject stream fault', run: injectStreamFault },
  { id: 'videoPlatform.clearStreamFaults', title: 'Clear stream faults', run: clearStreamFaults },
  // The ladder lab (src/app/ladder/)
  { id: 'videoPlatform.evaluateTemplateGroup', title: 'Evaluate template group', run: evaluateTemplateGroup },
  // Live channel health on a local platform (src/app/health/)
  { id: 'videoPlatform.channelHealth', title: 'Channel health', run: channelHealthCommand },

  // Resources view (template groups, logo groups, live templates and logos, channel categories); item addresses
  { id: 'videoPlatform.refreshResources', title: 'Refresh resources', run: refreshResources },
  { id: 'videoPlatform.createResource', title: 'Create', run: createResource },
  { id: 'videoPlatform.openResourceAsFile', title: 'Open as file', run: openResourceAsFile },
  { id: 'videoPlatform.updateResourceFromFile', title: 'Update from file', run: updateResourceFromFile },
  { id: 'videoPlatform.deleteResource', title: 'Delete', run: deleteResource },
  { id: 'videoPlatform.copyResourceId', title: 'Copy id', run: copyResourceId },
  { id: 'videoPlatform.compareWithPlatform', title: 'Compare with the platform', run: compareWithPlatform },
  { id: 'videoPlatform.copyItemAddress', title: 'Copy address', run: copyItemAddress },
  { id: 'videoPlatform.openItemAddress', title: 'Open address', run: openItemAddress },

  // Callbacks view: the local platform's callbacks (src/app/callbacks/, issue 26)
  { id: 'videoPlatform.refreshCallbacks', title: 'Refresh callbacks', run: refreshCallbacks },
  { id: 'videoPlatform.openCallbackDelivery', title: 'Open delivery', run: openCallbackDelivery },
  { id: 'videoPlatform.resendCallback', title: 'Resend', run: resendCallback },
  { id: 'videoPlatform.triggerCallback', title: 'Trigger callback', run: triggerCallback },
  { id: 'videoPlatform.setCallbackFaults', title: 'Set receiver faults', run: setCallbackFaults },
  { id: 'videoPlatform.copyCallbackSecret', title: 'Copy callback signing secret', run: copyCallbackSecret },

  // Authoring
  { id: 'videoPlatform.validateDocument', title: 'Validate the document', run: validateDocumentCommand },
  {
    id: 'videoPlatform.createOrUpdateFromDocument',
    title: 'Create or update on the platform',
    run: createOrUpdateCommand,
  },
  { id: 'videoPlatform.openChannelAsFile', title: 'Open the channel as a file', run: openChannelAsFileCommand },
  { id: 'videoPlatform.chooseDocumentAccount', title: "Choose the document's account", run: chooseDocumentAccount },
  {
    id: 'videoPlatform.refreshAuthoringReferences',
    title: 'Refresh the ids',
    run: refreshReferencesCommand,
  },

  // Configuration as code (src/app/configs/, issue 27)
  { id: 'videoPlatform.pullAccountIntoFolder', title: 'Pull account into folder', run: pullAccountIntoFolder },
  { id: 'videoPlatform.planFolder', title: 'Plan folder', run: planFolderCommand },
  { id: 'videoPlatform.applyPlan', title: 'Apply plan', run: applyPlanCommand },
  { id: 'videoPlatform.takePlatformVersion', title: "Take the platform's version", run: takePlatformVersionCommand },
  { id: 'videoPlatform.planToPutMineBack', title: 'Plan to put mine back', run: planToPutMineBackCommand },
];
