import type * as InspectCommands from '../inspect/commands';

let loaded: typeof InspectCommands | undefined;

/**
 * Inspect Stream, Preview and Open Player in Browser, loaded on the first use of one of them (issue 15: activation
 * does not need the stream inspector). The extension's bundle sends this require to dist/lazy/inspect.js, which
 * shares the bundle's own modules (translator, tree nodes, error classes: scripts/build.mjs); the sources (tests)
 * load the module as it is.
 */
function inspectCommands(): typeof InspectCommands {
  return (loaded ??= require('../inspect/commands') as typeof InspectCommands);
}

export const inspectStream: typeof InspectCommands.inspectStream = (ctx, args) =>
  inspectCommands().inspectStream(ctx, args);
export const checkContent: typeof InspectCommands.checkContent = (ctx, args) =>
  inspectCommands().checkContent(ctx, args);
export const previewStream: typeof InspectCommands.previewStream = (ctx, args) =>
  inspectCommands().previewStream(ctx, args);
export const openPlayerInBrowser: typeof InspectCommands.openPlayerInBrowser = (ctx, args) =>
  inspectCommands().openPlayerInBrowser(ctx, args);
export const openPlayerFor: typeof InspectCommands.openPlayerFor = (ctx, target) =>
  inspectCommands().openPlayerFor(ctx, target);
export const evaluateTemplateGroup: typeof InspectCommands.evaluateTemplateGroup = (ctx, args) =>
  inspectCommands().evaluateTemplateGroup(ctx, args);

/** The problems of a playlist's text (src/inspector/playlistProblems.ts), loaded with the part on first use. */
export const playlistProblems: typeof InspectCommands.playlistProblems = (text, uri) =>
  inspectCommands().playlistProblems(text, uri);
