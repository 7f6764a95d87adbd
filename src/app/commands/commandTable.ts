import type * as Handlers from './handlers';
import { lazyPart } from '../lazyPart';
import type { CommandRow } from './runCommand';

/** The handlers' part, loaded when a command first runs (scripts/build.mjs sends this require to its file). */
const handlers = lazyPart('commands', () => require('./handlers') as typeof Handlers);

/** A row's handler by its name in ./handlers.ts: the part is loaded on the command's first run, not at activation. */
function handler(name: keyof typeof Handlers): CommandRow['run'] {
  return (ctx, args) => (handlers()[name] as CommandRow['run'])(ctx, args);
}

/**
 * One row per command: `run(ctx, args)` gets the context and, from a view, the clicked item and the selection
 * (`args.node`, `args.selection`), from an editor title the document (`args.uri`), from the palette nothing (the
 * handler then asks with a quick pick). Every row runs through runCommand (./runCommand.ts), which reports a
 * failure as "<title> failed: ...". Every id here has an entry in package.json `contributes.commands`.
 */
export const COMMANDS: readonly CommandRow[] = [
  // Accounts
  { id: 'videoPlatform.addAccount', title: 'Add Video Platform account', run: handler('addAccount') },
  { id: 'videoPlatform.switchAccount', title: 'Switch Video Platform account', run: handler('switchAccount') },
  { id: 'videoPlatform.editAccount', title: 'Edit Video Platform account', run: handler('editAccount') },
  { id: 'videoPlatform.removeAccount', title: 'Remove Video Platform account', run: handler('removeAccount') },
  {
    id: 'videoPlatform.connectLocalPlatform',
    title: 'Connect to the local platform',
    run: handler('connectLocalPlatform'),
  },
  { id: 'videoPlatform.showLog', title: 'Show the log', run: (ctx) => ctx.ui.showLog() },
  { id: 'videoPlatform.setUpFfmpeg', title: 'Set up ffmpeg', run: handler('setUpFfmpeg') },

  // Views
  { id: 'videoPlatform.refreshChannels', title: 'Refresh channels', run: handler('refreshChannels') },
  { id: 'videoPlatform.refreshVideos', title: 'Refresh videos', run: handler('refreshVideos') },
  { id: 'videoPlatform.refreshItem', title: 'Refresh', run: handler('refreshItem') },
  { id: 'videoPlatform.loadMore', title: 'Load more', run: handler('loadMore') },
  { id: 'videoPlatform.retry', title: 'Retry', run: handler('retry') },
  { id: 'videoPlatform.filterChannels', title: 'Filter channels', run: handler('filterChannels') },
  { id: 'videoPlatform.clearChannelFilter', title: 'Clear the channel filter', run: handler('clearChannelFilter') },
  { id: 'videoPlatform.filterVideos', title: 'Filter videos', run: handler('filterVideos') },
  { id: 'videoPlatform.clearVideoFilter', title: 'Clear the video filter', run: handler('clearVideoFilter') },

  // Live channels
  { id: 'videoPlatform.startChannel', title: 'Start channel', run: handler('startChannels') },
  { id: 'videoPlatform.stopChannel', title: 'Stop channel', run: handler('stopChannels') },
  { id: 'videoPlatform.createChannel', title: 'Create channel', run: handler('createChannel') },
  { id: 'videoPlatform.deleteChannel', title: 'Delete channel', run: handler('deleteChannels') },
  { id: 'videoPlatform.showChannelPlayUrls', title: 'Playback addresses', run: handler('showChannelPlayAddresses') },
  { id: 'videoPlatform.copyPushUrl', title: 'Copy push address', run: handler('copyPushAddress') },
  { id: 'videoPlatform.copyPlayUrl', title: 'Copy play address', run: handler('copyPlayAddress') },
  { id: 'videoPlatform.createCategory', title: 'Create channel category', run: handler('createCategory') },
  { id: 'videoPlatform.updateLiveTemplate', title: 'Update live template', run: handler('updateLiveTemplate') },
  { id: 'videoPlatform.createLiveLogo', title: 'Create live logo', run: handler('createLiveLogo') },

  // Videos
  { id: 'videoPlatform.showVideoPlayUrls', title: 'Playback addresses', run: handler('showVideoPlayAddresses') },
  { id: 'videoPlatform.transcodeVideos', title: 'Transcode videos', run: handler('transcodeVideos') },
  { id: 'videoPlatform.uploadVideo', title: 'Upload video', run: handler('uploadVideos') },

  // Inspecting and previewing (src/app/inspect/)
  { id: 'videoPlatform.inspectStream', title: 'Inspect stream', run: handler('inspectStream') },
  { id: 'videoPlatform.checkContent', title: 'Check content', run: handler('checkContent') },
  { id: 'videoPlatform.previewStream', title: 'Preview', run: handler('previewStream') },
  { id: 'videoPlatform.openPlayerInBrowser', title: 'Open player in browser', run: handler('openPlayerInBrowser') },
  // Stream faults of the local platform (src/localPlatform/faults/)
  { id: 'videoPlatform.injectStreamFault', title: 'Inject stream fault', run: handler('injectStreamFault') },
  { id: 'videoPlatform.clearStreamFaults', title: 'Clear stream faults', run: handler('clearStreamFaults') },
  // The ladder lab (src/app/ladder/)
  {
    id: 'videoPlatform.evaluateTemplateGroup',
    title: 'Evaluate template group',
    run: handler('evaluateTemplateGroup'),
  },
  // Live channel health on a local platform (src/app/health/)
  { id: 'videoPlatform.channelHealth', title: 'Channel health', run: handler('channelHealthCommand') },

  // Resources view (template groups, logo groups, live templates and logos, channel categories); item addresses
  { id: 'videoPlatform.refreshResources', title: 'Refresh resources', run: handler('refreshResources') },
  { id: 'videoPlatform.createResource', title: 'Create', run: handler('createResource') },
  { id: 'videoPlatform.openResourceAsFile', title: 'Open as file', run: handler('openResourceAsFile') },
  { id: 'videoPlatform.updateResourceFromFile', title: 'Update from file', run: handler('updateResourceFromFile') },
  { id: 'videoPlatform.deleteResource', title: 'Delete', run: handler('deleteResource') },
  { id: 'videoPlatform.copyResourceId', title: 'Copy id', run: handler('copyResourceId') },
  { id: 'videoPlatform.compareWithPlatform', title: 'Compare with the platform', run: handler('compareWithPlatform') },
  { id: 'videoPlatform.copyItemAddress', title: 'Copy address', run: handler('copyItemAddress') },
  { id: 'videoPlatform.openItemAddress', title: 'Open address', run: handler('openItemAddress') },

  // Callbacks view: the local platform's callbacks (src/app/callbacks/, issue 26)
  { id: 'videoPlatform.refreshCallbacks', title: 'Refresh callbacks', run: handler('refreshCallbacks') },
  { id: 'videoPlatform.openCallbackDelivery', title: 'Open delivery', run: handler('openCallbackDelivery') },
  { id: 'videoPlatform.resendCallback', title: 'Resend', run: handler('resendCallback') },
  { id: 'videoPlatform.triggerCallback', title: 'Trigger callback', run: handler('triggerCallback') },
  { id: 'videoPlatform.setCallbackFaults', title: 'Set receiver faults', run: handler('setCallbackFaults') },
  { id: 'videoPlatform.copyCallbackSecret', title: 'Copy callback signing secret', run: handler('copyCallbackSecret') },

  // Authoring
  { id: 'videoPlatform.validateDocument', title: 'Validate the document', run: handler('validateDocumentCommand') },
  {
    id: 'videoPlatform.createOrUpdateFromDocument',
    title: 'Create or update on the platform',
    run: handler('createOrUpdateCommand'),
  },
  {
    id: 'videoPlatform.openChannelAsFile',
    title: 'Open the channel as a file',
    run: handler('openChannelAsFileCommand'),
  },
  {
    id: 'videoPlatform.chooseDocumentAccount',
    title: "Choose the document's account",
    run: handler('chooseDocumentAccount'),
  },
  {
    id: 'videoPlatform.refreshAuthoringReferences',
    title: 'Refresh the ids',
    run: handler('refreshReferencesCommand'),
  },

  // Configuration as code (src/app/configs/, issue 27)
  {
    id: 'videoPlatform.pullAccountIntoFolder',
    title: 'Pull account into folder',
    run: handler('pullAccountIntoFolder'),
  },
  { id: 'videoPlatform.planFolder', title: 'Plan folder', run: handler('planFolderCommand') },
  { id: 'videoPlatform.applyPlan', title: 'Apply plan', run: handler('applyPlanCommand') },
  {
    id: 'videoPlatform.takePlatformVersion',
    title: "Take the platform's version",
    run: handler('takePlatformVersionCommand'),
  },
  { id: 'videoPlatform.planToPutMineBack', title: 'Plan to put mine back', run: handler('planToPutMineBackCommand') },
];
