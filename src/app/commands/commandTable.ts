import type { CommandRow } from './runCommand';

/**
 * One row per command, its handler named (`handler: 'createChannel'`, exported by ./handlers.ts): `run(ctx, args)` gets the context and, from a view, the clicked item and the selection
 * (`args.node`, `args.selection`), from an editor title the document (`args.uri`), from the palette nothing (the
 * handler then asks with a quick pick). Every row runs through runCommand (./runCommand.ts), which loads the
 * handlers' part on the first run and reports a failure as "<title> failed: ...". The rows are plain data: nothing
 * is made per command when the bundle loads or at registration. Every id here has an entry in package.json
 * `contributes.commands`.
 */
export const COMMANDS: readonly CommandRow[] = [
  // Accounts
  { id: 'videoPlatform.addAccount', title: 'Add Video Platform account', handler: 'addAccount' },
  { id: 'videoPlatform.switchAccount', title: 'Switch Video Platform account', handler: 'switchAccount' },
  { id: 'videoPlatform.editAccount', title: 'Edit Video Platform account', handler: 'editAccount' },
  { id: 'videoPlatform.removeAccount', title: 'Remove Video Platform account', handler: 'removeAccount' },
  {
    id: 'videoPlatform.connectLocalPlatform',
    title: 'Connect to the local platform',
    handler: 'connectLocalPlatform',
  },
  { id: 'videoPlatform.showLog', title: 'Show the log', run: (ctx) => ctx.ui.showLog() },
  { id: 'videoPlatform.setUpFfmpeg', title: 'Set up ffmpeg', handler: 'setUpFfmpeg' },

  // Views
  { id: 'videoPlatform.refreshChannels', title: 'Refresh channels', handler: 'refreshChannels' },
  { id: 'videoPlatform.refreshVideos', title: 'Refresh videos', handler: 'refreshVideos' },
  { id: 'videoPlatform.refreshItem', title: 'Refresh', handler: 'refreshItem' },
  { id: 'videoPlatform.loadMore', title: 'Load more', handler: 'loadMore' },
  { id: 'videoPlatform.retry', title: 'Retry', handler: 'retry' },
  { id: 'videoPlatform.filterChannels', title: 'Filter channels', handler: 'filterChannels' },
  { id: 'videoPlatform.clearChannelFilter', title: 'Clear the channel filter', handler: 'clearChannelFilter' },
  { id: 'videoPlatform.filterVideos', title: 'Filter videos', handler: 'filterVideos' },
  { id: 'videoPlatform.clearVideoFilter', title: 'Clear the video filter', handler: 'clearVideoFilter' },

  // Live channels
  { id: 'videoPlatform.startChannel', title: 'Start channel', handler: 'startChannels' },
  { id: 'videoPlatform.stopChannel', title: 'Stop channel', handler: 'stopChannels' },
  { id: 'videoPlatform.createChannel', title: 'Create channel', handler: 'createChannel' },
  { id: 'videoPlatform.deleteChannel', title: 'Delete channel', handler: 'deleteChannels' },
  { id: 'videoPlatform.showChannelPlayUrls', title: 'Playback addresses', handler: 'showChannelPlayAddresses' },
  { id: 'videoPlatform.copyPushUrl', title: 'Copy push address', handler: 'copyPushAddress' },
  { id: 'videoPlatform.copyPlayUrl', title: 'Copy play address', handler: 'copyPlayAddress' },
  { id: 'videoPlatform.createCategory', title: 'Create channel category', handler: 'createCategory' },
  { id: 'videoPlatform.updateLiveTemplate', title: 'Update live template', handler: 'updateLiveTemplate' },
  { id: 'videoPlatform.createLiveLogo', title: 'Create live logo', handler: 'createLiveLogo' },

  // Videos
  { id: 'videoPlatform.showVideoPlayUrls', title: 'Playback addresses', handler: 'showVideoPlayAddresses' },
  { id: 'videoPlatform.transcodeVideos', title: 'Transcode videos', handler: 'transcodeVideos' },
  { id: 'videoPlatform.uploadVideo', title: 'Upload video', handler: 'uploadVideos' },

  // Inspecting and previewing (src/app/inspect/)
  { id: 'videoPlatform.inspectStream', title: 'Inspect stream', handler: 'inspectStream' },
  { id: 'videoPlatform.checkContent', title: 'Check content', handler: 'checkContent' },
  { id: 'videoPlatform.previewStream', title: 'Preview', handler: 'previewStream' },
  { id: 'videoPlatform.openPlayerInBrowser', title: 'Open player in browser', handler: 'openPlayerInBrowser' },
  // Stream faults of the local platform (src/localPlatform/faults/)
  { id: 'videoPlatform.injectStreamFault', title: 'Inject stream fault', handler: 'injectStreamFault' },
  { id: 'videoPlatform.clearStreamFaults', title: 'Clear stream faults', handler: 'clearStreamFaults' },
  // The ladder lab (src/app/ladder/)
  {
    id: 'videoPlatform.evaluateTemplateGroup',
    title: 'Evaluate template group',
    handler: 'evaluateTemplateGroup',
  },
  // Live channel health on a local platform (src/app/health/)
  { id: 'videoPlatform.channelHealth', title: 'Channel health', handler: 'channelHealthCommand' },

  // Resources view (template groups, logo groups, live templates and logos, channel categories); item addresses
  { id: 'videoPlatform.refreshResources', title: 'Refresh resources', handler: 'refreshResources' },
  { id: 'videoPlatform.createResource', title: 'Create', handler: 'createResource' },
  { id: 'videoPlatform.openResourceAsFile', title: 'Open as file', handler: 'openResourceAsFile' },
  { id: 'videoPlatform.updateResourceFromFile', title: 'Update from file', handler: 'updateResourceFromFile' },
  { id: 'videoPlatform.deleteResource', title: 'Delete', handler: 'deleteResource' },
  { id: 'videoPlatform.copyResourceId', title: 'Copy id', handler: 'copyResourceId' },
  { id: 'videoPlatform.compareWithPlatform', title: 'Compare with the platform', handler: 'compareWithPlatform' },
  { id: 'videoPlatform.copyItemAddress', title: 'Copy address', handler: 'copyItemAddress' },
  { id: 'videoPlatform.openItemAddress', title: 'Open address', handler: 'openItemAddress' },

  // Callbacks view: the local platform's callbacks (src/app/callbacks/, issue 26)
  { id: 'videoPlatform.refreshCallbacks', title: 'Refresh callbacks', handler: 'refreshCallbacks' },
  { id: 'videoPlatform.openCallbackDelivery', title: 'Open delivery', handler: 'openCallbackDelivery' },
  { id: 'videoPlatform.resendCallback', title: 'Resend', handler: 'resendCallback' },
  { id: 'videoPlatform.triggerCallback', title: 'Trigger callback', handler: 'triggerCallback' },
  { id: 'videoPlatform.setCallbackFaults', title: 'Set receiver faults', handler: 'setCallbackFaults' },
  { id: 'videoPlatform.copyCallbackSecret', title: 'Copy callback signing secret', handler: 'copyCallbackSecret' },

  // Authoring
  { id: 'videoPlatform.validateDocument', title: 'Validate the document', handler: 'validateDocumentCommand' },
  {
    id: 'videoPlatform.createOrUpdateFromDocument',
    title: 'Create or update on the platform',
    handler: 'createOrUpdateCommand',
  },
  {
    id: 'videoPlatform.openChannelAsFile',
    title: 'Open the channel as a file',
    handler: 'openChannelAsFileCommand',
  },
  {
    id: 'videoPlatform.chooseDocumentAccount',
    title: "Choose the document's account",
    handler: 'chooseDocumentAccount',
  },
  {
    id: 'videoPlatform.refreshAuthoringReferences',
    title: 'Refresh the ids',
    handler: 'refreshReferencesCommand',
  },

  // Configuration as code (src/app/configs/, issue 27)
  {
    id: 'videoPlatform.pullAccountIntoFolder',
    title: 'Pull account into folder',
    handler: 'pullAccountIntoFolder',
  },
  { id: 'videoPlatform.planFolder', title: 'Plan folder', handler: 'planFolderCommand' },
  { id: 'videoPlatform.applyPlan', title: 'Apply plan', handler: 'applyPlanCommand' },
  {
    id: 'videoPlatform.takePlatformVersion',
    title: "Take the platform's version",
    handler: 'takePlatformVersionCommand',
  },
  { id: 'videoPlatform.planToPutMineBack', title: 'Plan to put mine back', handler: 'planToPutMineBackCommand' },
];
